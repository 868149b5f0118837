// SPDX-License-Identifier: MIT
// The C ABI (wasi-host/include/agentctx_abi.h) over one agentctx::Engine.
// Invariants:
//  - The glue owns exactly one state object: the Engine, one output buffer per open handle
//    (handle 0 = the engine, always present) and the workspace root for new slots. There is
//    no shared boundary buffer: each handle's output survives calls on other handles.
//  - A handle the glue does not know gives -1 and touches no buffer.
//  - Each new session slot gets a GuestFileSystem named "workspace": the workspace root
//    ("/workspace" = the host's preopen, read-only unless the host says --writable) plus the two
//    global AGENTS.md files of the home ("/state", the host's state preopen).
//  - Glue method `rollout.open {"path"}` on a session handle (the only method the glue answers
//    itself) binds a RolloutFile to the slot: from then on the `persist` lines of every call on
//    that handle (Engine::PersistLines) are appended + flushed before actx_call returns, i.e.
//    before the host acts on any later effect. If that write fails the envelope is
//    replaced by an `io` error envelope (the session has moved on: the host stops and resumes from
//    the rollout). The effects the host sees are otherwise byte-identical to Engine::Call's.
//  - Nothing here aborts on bad input; Engine::Call turns every failure into an envelope.
#include <cstdlib>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "abi_glue.h"
#include "agentctx/engine.h"
#include "agentctx/envelope.h"
#include "agentctx_abi.h"
#include "guest_file_system.h"
#include "rollout_file.h"

namespace agentctx::abi {
namespace {

constexpr uint32_t kAbiVersion = 2;
constexpr std::string_view kOkPrefix = R"({"v":1,"ok":true,)";

struct Glue {
  Engine engine;
  std::map<uint32_t, std::string> outputs{{0u, std::string()}};
  std::map<uint32_t, std::deque<std::string>> inputs;  // input attachments of the next call
  std::map<uint32_t, std::unique_ptr<RolloutFile>> rollouts;
  std::string workspace_root = "/workspace";
  std::string home_dir = "/state";
};

// The one instance, created on first use and never destroyed (no exit-time destructor races
// with a host that keeps calling into the reactor).
Glue& State() {
  static Glue* glue = new Glue();
  return *glue;
}

std::string* Output(uint32_t handle) {
  auto it = State().outputs.find(handle);
  return it == State().outputs.end() ? nullptr : &it->second;
}

std::string_view Bytes(const uint8_t* ptr, uint32_t len) {
  if (ptr == nullptr || len == 0) return {};
  return {reinterpret_cast<const char*>(ptr), len};
}

// `rollout.open {"path"}`: binds (or rebinds) the slot's rollout file.
std::string OpenRollout(uint32_t handle, std::string_view input) {
  auto path = JsonObjectString(input, "path");
  if (!path) return ErrorEnvelopeFor(path.error());
  if (!*path) {
    return ErrorEnvelopeFor(
        Error{ErrorCode::kInvalidInput, "rollout.open needs a string `path`", {}});
  }
  auto file = RolloutFile::Open(**path);
  if (!file) return ErrorEnvelopeFor(file.error());
  State().rollouts[handle] = std::move(*file);
  return OkEnvelopeWithString("path", **path);
}

}  // namespace

void SetWorkspaceRoot(std::string root) { State().workspace_root = std::move(root); }
const std::string& WorkspaceRoot() { return State().workspace_root; }
void SetHomeDir(std::string home) { State().home_dir = std::move(home); }
const std::string& HomeDir() { return State().home_dir; }

}  // namespace agentctx::abi

using agentctx::abi::Output;
using agentctx::abi::State;

uint32_t actx_abi_version(void) { return agentctx::abi::kAbiVersion; }

uint8_t* actx_alloc(uint32_t size) {
  return static_cast<uint8_t*>(std::malloc(size == 0 ? 1 : size));
}

void actx_free(uint8_t* ptr, uint32_t /*size*/) { std::free(ptr); }

uint32_t actx_open(void) {
  auto& glue = State();
  uint32_t handle = glue.engine.Open();
  if (handle == 0) return 0;
  glue.engine.AddFileSystem(
      handle, "workspace",
      std::make_shared<agentctx::GuestFileSystem>(glue.workspace_root, glue.home_dir));
  glue.outputs[handle] = std::string();
  return handle;
}

void actx_close(uint32_t handle) {
  if (handle == 0) return;
  auto& glue = State();
  if (glue.outputs.erase(handle) == 0) return;
  glue.rollouts.erase(handle);
  glue.inputs.erase(handle);
  glue.engine.Close(handle);
}

int32_t actx_call(uint32_t handle, const uint8_t* method, uint32_t method_len, const uint8_t* input,
                  uint32_t input_len) {
  std::string* out = Output(handle);
  if (out == nullptr) return -1;
  auto& glue = State();
  std::string_view m = agentctx::abi::Bytes(method, method_len);
  std::string_view in = agentctx::abi::Bytes(input, input_len);
  std::deque<std::string> attached;
  if (auto it = glue.inputs.find(handle); it != glue.inputs.end()) {
    attached.swap(it->second);
    glue.inputs.erase(it);
  }
  if (handle != 0 && m == "rollout.open") {
    *out = agentctx::abi::OpenRollout(handle, in);
  } else {
    std::vector<std::string_view> views(attached.begin(), attached.end());
    *out = glue.engine.Call(handle, m, in, views);
    auto rollout = glue.rollouts.find(handle);
    if (rollout != glue.rollouts.end()) {
      auto written = rollout->second->Append(glue.engine.PersistLines(handle));
      if (!written) {
        agentctx::Error error = written.error();
        error.message += ": the rollout misses this call's lines; stop and resume from it";
        *out = agentctx::ErrorEnvelopeFor(error);
      }
    }
  }
  return out->compare(0, agentctx::abi::kOkPrefix.size(), agentctx::abi::kOkPrefix) == 0 ? 0 : 1;
}

const uint8_t* actx_output_ptr(uint32_t handle) {
  std::string* out = Output(handle);
  return out == nullptr ? nullptr : reinterpret_cast<const uint8_t*>(out->data());
}

uint32_t actx_output_len(uint32_t handle) {
  std::string* out = Output(handle);
  return out == nullptr ? 0 : static_cast<uint32_t>(out->size());
}

uint8_t* actx_attach(uint32_t handle, uint32_t size) {
  if (Output(handle) == nullptr) return nullptr;
  std::deque<std::string>& inputs = State().inputs[handle];
  inputs.emplace_back(size, '\0');  // deque: earlier buffers never move
  return reinterpret_cast<uint8_t*>(inputs.back().data());
}

uint32_t actx_attachment_count(uint32_t handle) {
  if (Output(handle) == nullptr) return 0;
  return State().engine.AttachmentCount(handle);
}

const uint8_t* actx_attachment_ptr(uint32_t handle, uint32_t index) {
  if (Output(handle) == nullptr || index >= State().engine.AttachmentCount(handle)) return nullptr;
  return reinterpret_cast<const uint8_t*>(State().engine.Attachment(handle, index).data());
}

uint32_t actx_attachment_len(uint32_t handle, uint32_t index) {
  if (Output(handle) == nullptr) return 0;
  return static_cast<uint32_t>(State().engine.Attachment(handle, index).size());
}
