// SPDX-License-Identifier: MIT
// The C ABI (wasi-host/include/agentctx_abi.h) over one agentctx::Engine.
// Invariants:
//  - The glue owns exactly one state object: the Engine, one output buffer per open handle
//    (handle 0 = the engine, always present) and the workspace root for new slots. There is
//    no shared boundary buffer: each handle's output survives calls on other handles.
//  - A handle the glue does not know gives -1 and touches no buffer (ARCHITECTURE §6).
//  - Each new session slot gets a PosixFileSystem named "workspace" rooted at the workspace
//    root ("/workspace" = the host's preopen, read-only unless the host says --writable).
//  - Nothing here aborts on bad input; Engine::Call turns every failure into an envelope.
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "abi_glue.h"
#include "agentctx/engine.h"
#include "agentctx_abi.h"
#include "posix_file_system.h"

namespace agentctx::abi {
namespace {

constexpr uint32_t kAbiVersion = 1;
constexpr std::string_view kOkPrefix = R"({"v":1,"ok":true,)";

struct Glue {
  Engine engine;
  std::map<uint32_t, std::string> outputs{{0u, std::string()}};
  std::string workspace_root = "/workspace";
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

}  // namespace

void SetWorkspaceRoot(std::string root) { State().workspace_root = std::move(root); }
const std::string& WorkspaceRoot() { return State().workspace_root; }

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
  glue.engine.AddFileSystem(handle, "workspace",
                            std::make_shared<agentctx::PosixFileSystem>(glue.workspace_root));
  glue.outputs[handle] = std::string();
  return handle;
}

void actx_close(uint32_t handle) {
  if (handle == 0) return;
  auto& glue = State();
  if (glue.outputs.erase(handle) == 0) return;
  glue.engine.Close(handle);
}

int32_t actx_call(uint32_t handle, const uint8_t* method, uint32_t method_len, const uint8_t* input,
                  uint32_t input_len) {
  std::string* out = Output(handle);
  if (out == nullptr) return -1;
  *out = State().engine.Call(handle, agentctx::abi::Bytes(method, method_len),
                             agentctx::abi::Bytes(input, input_len));
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
