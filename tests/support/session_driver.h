// SPDX-License-Identifier: MIT
// A C++ host for tests: drives one session through the Engine facade (JSON in, envelopes out)
// against the embedded mock model, the way the Node and WASI hosts do: persist lines are
// collected as a rollout, model_request bodies are answered by `mock.respond` and delivered
// back as SSE (optionally split into small chunks), host tool calls are answered by a callback.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "agentctx/engine.h"
#include "protocol/json_value.h"
#include "support/memory_file_system.h"

namespace agentctx::testing {

class SessionDriver {
 public:
  SessionDriver();
  /// Registers `fs` as "workspace" and starts the session; returns the start envelope.
  std::string Start(const std::string& config_json, std::int64_t now_ms = 0);
  /// Submits and runs the turn to its end; returns every effect JSON produced along the way.
  std::vector<JsonValue> Submit(const std::string& text, std::int64_t now_ms);
  std::vector<JsonValue> Update(const std::string& delta_json, std::int64_t now_ms);
  /// A raw call on the session handle.
  std::string Call(const std::string& method, const std::string& input_json);

  std::shared_ptr<MemoryFileSystem> fs() { return fs_; }
  Engine& engine() { return engine_; }
  const std::vector<std::string>& request_bodies() const { return bodies_; }
  const std::vector<std::string>& rollout() const { return rollout_; }
  std::string RolloutText() const;
  /// Host tool outputs: (name, arguments) -> output text.
  std::function<std::string(const std::string&, const std::string&)> host_tool;
  /// SSE chunk size used for deliveries (0 = whole stream at once).
  std::size_t chunk_size = 0;

 private:
  std::vector<JsonValue> Run(std::string envelope, std::int64_t now_ms);

  Engine engine_;
  std::uint32_t handle_ = 0;
  std::shared_ptr<MemoryFileSystem> fs_;
  std::vector<std::string> bodies_;
  std::vector<std::string> rollout_;
};

}  // namespace agentctx::testing
