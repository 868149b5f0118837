// SPDX-License-Identifier: MIT
// A C++ host for tests: drives one session through the Engine facade (JSON in, envelopes out)
// against the embedded mock model, the way the Node and WASI hosts do: persist lines are
// collected as a rollout, model_request bodies are answered by `mock.respond` and delivered
// back as SSE (optionally split into small chunks) or, for `responses/compact`, as a
// `model_response` delivery; host tool calls are answered by a callback. A test can replace the
// model's answer (`respond`) or keep requests unanswered (`hold`) to act in between.
// The workspace starts with the directory /repo (the cwd of the tests' configs; a session
// refuses a cwd that does not exist).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
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
  /// Manual compaction, run to its end.
  std::vector<JsonValue> Compact(std::int64_t now_ms);
  std::vector<JsonValue> Interrupt(std::int64_t now_ms);
  /// Answers the requests kept while `hold` was set (in order) and runs on.
  std::vector<JsonValue> AnswerHeld(std::int64_t now_ms);
  /// A call on the session handle; attachment references in the envelope are inlined as JSON
  /// strings (support/attachments.h), so tests read bodies as text.
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
  /// Replaces the mock's answer when it returns a value: SSE text for `responses`, the JSON body
  /// for `responses/compact`. Arguments: endpoint, body.
  std::function<std::optional<std::string>(const std::string&, const std::string&)> respond;
  /// An HTTP error instead of an answer when it returns a value: (status, body), delivered as a
  /// `model_error`. Arguments: endpoint, body. Checked before `respond`.
  std::function<std::optional<std::pair<int, std::string>>(const std::string&, const std::string&)>
      fail;
  /// While set, model requests are recorded but left unanswered (see AnswerHeld).
  bool hold = false;
  struct HeldRequest {
    std::string id;
    std::string endpoint;
    std::string body;
  };
  const std::vector<HeldRequest>& held() const { return held_; }

 private:
  std::vector<JsonValue> Run(std::string envelope, std::int64_t now_ms);
  // The delivery envelopes answering one model request.
  std::vector<std::string> Answer(const HeldRequest& request, std::int64_t now_ms);

  Engine engine_;
  std::uint32_t handle_ = 0;
  std::shared_ptr<MemoryFileSystem> fs_;
  std::vector<std::string> bodies_;
  std::vector<std::string> rollout_;
  std::vector<HeldRequest> held_;
};

}  // namespace agentctx::testing
