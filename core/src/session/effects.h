// SPDX-License-Identifier: MIT
// Effects of one mutating call, collected in any order and serialised in this fixed order:
// (1) at most one persist with every line, in write order; (2) events in production order;
// (3) at most one error; (4) tool_calls in output order; (5) at most one model_request;
// (6) at most one turn_complete. Keys: `type`, then the fields in docs/protocol.md's order.
// A model_request body is never escaped into the JSON: ToJson writes an attachment reference
// {"$bytes":i,"length":n} and hands the body bytes out beside it (docs/boundary.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "agentctx/error.h"
#include "agentctx/wire_enums.h"
#include "protocol/json_value.h"

namespace agentctx {

struct ModelRequestEffect {
  std::string id;
  std::string purpose;   // turn | compact
  std::string endpoint;  // responses | responses/compact
  std::int64_t attempt = 1;
  /// The exact body bytes; a view of session-owned storage that stays unchanged until the
  /// session's next mutating call.
  std::string_view body;
  /// HTTP headers the body needs (name, value), e.g. `anthropic-beta`; none for most bodies.
  std::vector<std::pair<std::string, std::string>> headers;
};

struct ToolCallEffect {
  std::string call_id;
  std::string name;
  std::optional<std::string> server;
  std::optional<std::string> tool;
  std::string arguments;
};

struct ErrorEffect {
  ErrorCode code = ErrorCode::kInternal;  // one of the codes marked `effect` in core/protocol.json
  std::string message;
  bool retryable = false;
  std::optional<std::string> request_id;
  std::optional<std::int64_t> retry_after_ms;
};

struct TurnCompleteEffect {
  std::string turn_id;
  std::string reason;  // completed | interrupted | failed
  std::optional<std::string> last_agent_message;
};

class EffectSink {
 public:
  void Persist(std::string line) { persist_.push_back(std::move(line)); }
  void Event(JsonValue event) { events_.push_back(std::move(event)); }
  void Warning(WarningCode code, std::string_view message);
  void SetError(ErrorEffect error) { error_ = std::move(error); }
  void AddToolCall(ToolCallEffect call) { tool_calls_.push_back(std::move(call)); }
  void SetModelRequest(ModelRequestEffect request) { model_request_ = std::move(request); }
  void SetTurnComplete(TurnCompleteEffect done) { turn_complete_ = std::move(done); }

  /// Moves this sink's events (not other effects) to the end of `other`'s events.
  void MoveEventsTo(EffectSink* other) {
    for (auto& e : events_) other->events_.push_back(std::move(e));
    events_.clear();
  }

  bool has_model_request() const { return model_request_.has_value(); }
  const std::vector<std::string>& persisted() const { return persist_; }
  /// Moves the persist lines out (after ToJson: the envelope already holds them).
  std::vector<std::string> TakePersisted() { return std::move(persist_); }

  const std::optional<ModelRequestEffect>& model_request() const { return model_request_; }

  /// `{"effects":[…]}` in the order above. Large bytes (the model_request body) are appended
  /// to `attachments` and named by reference in the JSON.
  std::string ToJson(std::vector<std::string_view>* attachments) const;

 private:
  std::vector<std::string> persist_;
  std::vector<JsonValue> events_;
  std::optional<ErrorEffect> error_;
  std::vector<ToolCallEffect> tool_calls_;
  std::optional<ModelRequestEffect> model_request_;
  std::optional<TurnCompleteEffect> turn_complete_;
};

/// {"type": <type>} with further members appended by the caller.
JsonValue MakeEvent(std::string_view type);

}  // namespace agentctx
