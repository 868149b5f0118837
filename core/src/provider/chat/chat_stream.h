// SPDX-License-Identifier: MIT
// Chat Completions stream → Responses events. The session reads one event language (the
// Responses stream events); this adapter turns `chat.completion.chunk` objects (already framed
// by SseParser) into it, so text deltas, tool calls, usage, errors and retries behave exactly
// as for Responses.
// Mapping:
//  - `choices[0].delta.content` → `response.output_text.delta`; `delta.reasoning_content` or
//    `delta.reasoning` (vLLM, llama.cpp) → `response.reasoning_text.delta` (shown, not recorded);
//  - `delta.tool_calls[k]` pieces accumulate by `index` (id, function.name, function.arguments);
//  - a chunk with `error` → `response.failed` with that error (code, else type; message);
//  - the response completes once a `finish_reason` has come and then a `usage` object (the
//    `include_usage` chunk; the same chunk may carry both), or at end of stream after a
//    finish_reason: `response.output_item.done` for the assistant message (when it had text)
//    and each call, then `response.completed` with the usage mapped to the Responses shape
//    (prompt_tokens → input_tokens, prompt_tokens_details.cached_tokens →
//    input_tokens_details.cached_tokens, prompt_tokens_details.cache_write_tokens (when sent) →
//    input_tokens_details.cache_write_tokens, completion_tokens → output_tokens,
//    completion_tokens_details.reasoning_tokens → output_tokens_details.reasoning_tokens,
//    total_tokens). finish_reason `length` / `content_filter` → `response.incomplete` (reason
//    max_output_tokens / content_filter).
//  - anything else (role-only deltas, `[DONE]`, which the framer drops) adds nothing.
// Invariants: pure, bounded by its input; a call without an id gets `call_<index>`; events after
// the terminal one add nothing. Bad shapes never abort: a field of the wrong type is ignored.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "protocol/json_value.h"
#include "provider/stream_adapter.h"

namespace agentctx {

class ChatStreamAdapter final : public StreamAdapter {
 public:
  void OnEvent(const JsonValue& event, std::vector<JsonValue>* out) override {
    OnChunk(event, out);
  }
  /// Appends the Responses events for one parsed chunk.
  void OnChunk(const JsonValue& chunk, std::vector<JsonValue>* out);
  /// The `end` delivery: completes a response whose finish_reason came without usage.
  void OnEnd(std::vector<JsonValue>* out) override;
  bool done() const { return done_; }

 private:
  struct Call {
    std::string id;
    std::string name;
    std::string arguments;
  };
  void Complete(const JsonValue* usage, std::vector<JsonValue>* out);

  std::string text_;
  bool has_text_ = false;
  std::map<std::int64_t, Call> calls_;  // by tool-call index
  std::optional<std::string> finish_reason_;
  bool done_ = false;
};

}  // namespace agentctx
