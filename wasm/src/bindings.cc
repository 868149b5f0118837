// SPDX-License-Identifier: MIT
// The Embind adapter: ONE bound class, `Engine`, a thin transport over agentctx::Engine:
//   new Engine()                      one per AgentctxEngine (the TS layer never hands it out)
//   open(fileSystems) -> handle       fileSystems: undefined | {name: JS FileSystem object}
//   call(handle, method, json) -> envelope string
//   inputBuffer(length) -> Uint8Array view of a fresh input attachment for the next call()
//   attachmentCount(handle) -> n;  attachment(handle, i) -> Uint8Array view of output bytes
//   close(handle)
//   version() -> "0.1.0"
// Attachments (agentctx/engine.h): inputBuffer(n) appends input attachment k (k = how many
// came before since the last call) and hands back a view the caller fills at once (any later
// call into the module may grow memory and detach it); call() consumes them. attachment() is a
// view of bytes the engine owns until the next call on that handle: the caller copies it (one
// copy, e.g. view.slice()) before calling again.
// Re-entrancy: a FileSystem callback runs inside call(). The TS layer (wasm/ts/engine.ts) never
// lets a nested call() or open() reach this class: Emscripten 3.1.6's Embind invoker keeps a
// bound function's argument wire values per function, not per call, so a nested call of the same
// function frees the running call's arguments twice. Behind it, the engine refuses a nested call
// (invalid_state) and defers a close() (agentctx/engine.h), and call() takes the pending input
// attachments for itself before running, so buffers made inside a callback never replace or free
// the running call's.
// Invariants: no method throws or aborts on bad input. open() answers 0 for a full table or a
// malformed fileSystems argument (nothing is registered then); call() always returns an envelope.
// Nothing else is bound: no value_object, vectors or returned objects (no per-object leaks).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "agentctx/engine.h"
#include "js_file_system.h"

namespace agentctx {
namespace {

using emscripten::val;

class EngineBinding {
 public:
  std::uint32_t Open(val file_systems) {
    std::vector<std::pair<std::string, val>> named;
    if (!file_systems.isUndefined() && !file_systems.isNull()) {
      if (file_systems.typeOf().as<std::string>() != "object") return 0;
      val keys = val::global("Object").call<val>("keys", file_systems);
      const std::uint32_t count = keys["length"].as<std::uint32_t>();
      for (std::uint32_t i = 0; i < count; ++i) {
        std::string name = keys[i].as<std::string>();
        val fs = file_systems[name];
        if (name.empty() || !JsFileSystem::IsValid(fs)) return 0;
        named.emplace_back(std::move(name), std::move(fs));
      }
    }
    const std::uint32_t handle = engine_.Open();
    if (handle == 0) return 0;
    for (auto& [name, fs] : named) {
      engine_.AddFileSystem(handle, name, std::make_shared<JsFileSystem>(std::move(fs)));
    }
    return handle;
  }

  std::string Call(std::uint32_t handle, std::string method, std::string input_json) {
    std::deque<std::string> inputs = std::move(inputs_);
    inputs_.clear();
    std::vector<std::string_view> views(inputs.begin(), inputs.end());
    return engine_.Call(handle, method, input_json, views);
  }

  val InputBuffer(std::uint32_t length) {
    inputs_.emplace_back(length, '\0');  // deque: earlier buffers never move
    return val(emscripten::typed_memory_view(
        length, reinterpret_cast<std::uint8_t*>(inputs_.back().data())));
  }

  std::uint32_t AttachmentCount(std::uint32_t handle) const {
    return engine_.AttachmentCount(handle);
  }

  val Attachment(std::uint32_t handle, std::uint32_t index) const {
    std::string_view bytes = engine_.Attachment(handle, index);
    return val(emscripten::typed_memory_view(bytes.size(),
                                             reinterpret_cast<const std::uint8_t*>(bytes.data())));
  }

  void Close(std::uint32_t handle) { engine_.Close(handle); }

  std::string Version() const { return std::string(Engine::Version()); }

 private:
  Engine engine_;
  std::deque<std::string> inputs_;  // input attachments of the next call
};

}  // namespace
}  // namespace agentctx

EMSCRIPTEN_BINDINGS(agentctx) {
  emscripten::class_<agentctx::EngineBinding>("Engine")
      .constructor<>()
      .function("open", &agentctx::EngineBinding::Open)
      .function("call", &agentctx::EngineBinding::Call)
      .function("inputBuffer", &agentctx::EngineBinding::InputBuffer)
      .function("attachmentCount", &agentctx::EngineBinding::AttachmentCount)
      .function("attachment", &agentctx::EngineBinding::Attachment)
      .function("close", &agentctx::EngineBinding::Close)
      .function("version", &agentctx::EngineBinding::Version);
}
