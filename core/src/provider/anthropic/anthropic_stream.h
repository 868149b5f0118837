// SPDX-License-Identifier: MIT
// Anthropic Messages stream → Responses events, so the session reads one event
// language (the Responses stream events), and the classification of Anthropic HTTP errors.
// Mapping (events framed by SseParser; `type` from the JSON, else the `event:` line):
//  - message_start: remembers message.usage (input_tokens, cache_creation_input_tokens,
//    cache_read_input_tokens, output_tokens, cache_creation.ephemeral_1h_input_tokens);
//  - content_block_start: opens block `index` (text, tool_use {id, name}, thinking);
//  - content_block_delta: text_delta → `response.output_text.delta`; thinking_delta →
//    `response.reasoning_text.delta` (shown, not recorded); input_json_delta → the tool input;
//  - content_block_stop: a text block → `response.output_item.done` assistant message (when
//    non-empty), tool_use → function_call {name, arguments = the input JSON ("{}" if none),
//    call_id = id}; thinking adds nothing;
//  - message_delta: stop_reason; usage counts present in it replace the earlier ones;
//  - message_stop → `response.completed` with usage: input_tokens = input + cache_creation +
//    cache_read (Anthropic's input_tokens counts only the uncached tail),
//    input_tokens_details {cached_tokens = cache_read, cache_creation_tokens = cache_creation,
//    cache_creation_1h_tokens = the 1 h writes, only when the usage split its writes by TTL
//    (≤ cache_creation)}, output_tokens, total = input + output; stop_reason max_tokens →
//    `response.incomplete` (reason max_output_tokens);
//  - error → `response.failed` with the code of AnthropicErrorCode; ping and unknown events
//    add nothing.
// Invariants: pure, bounded by the input; events after the terminal one add nothing; shapes of
// the wrong type are ignored, never aborting.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/json_value.h"
#include "provider/model_errors.h"
#include "provider/stream_adapter.h"

namespace agentctx {

class AnthropicStreamAdapter final : public StreamAdapter {
 public:
  void OnEvent(const JsonValue& event, std::vector<JsonValue>* out) override;
  bool done() const { return done_; }

 private:
  struct Block {
    std::string type;  // text | tool_use | thinking | …
    std::string id;
    std::string name;
    std::string text;      // text, partial JSON or thinking
    JsonValue compaction;  // a `compaction` block: the block, its deltas applied
  };
  void ReadUsage(const JsonValue* usage);

  std::map<std::int64_t, Block> blocks_;
  std::int64_t output_index_ = 0;
  std::int64_t input_tokens_ = 0;
  std::int64_t cache_creation_tokens_ = 0;
  std::optional<std::int64_t> cache_creation_1h_tokens_;  // usage.cache_creation, when sent
  std::int64_t cache_read_tokens_ = 0;
  std::int64_t output_tokens_ = 0;
  bool has_usage_ = false;
  std::string stop_reason_;
  std::string message_id_;                // message_start's `msg_…`: the response's `id`
  std::optional<JsonValue> diagnostics_;  // message_start's `diagnostics`, verbatim, when sent
  std::optional<JsonValue> context_management_;  // message_delta's, verbatim, when sent
  bool done_ = false;
};

/// The Responses error code (model_errors.h table) for an Anthropic error object
/// {type, message}: rate_limit_error → rate_limit_exceeded; overloaded_error →
/// server_is_overloaded; invalid_request_error → context_length_exceeded when the message says
/// "prompt is too long", else invalid_prompt; authentication_error, permission_error →
/// invalid_prompt; anything else → the type itself (so: stream_error, retryable).
std::string AnthropicErrorCode(const JsonValue& error);

/// A `model_error` delivery from the Messages API: 529 (overloaded) → server_overloaded*,
/// a body `{"type":"error","error":{type,message}}` mapped by AnthropicErrorCode; otherwise
/// exactly MapModelErrorDelivery (401/403, 429, 408/409/5xx, network). * = retryable.
ModelFailure MapAnthropicErrorDelivery(std::optional<std::int64_t> status, std::string_view body,
                                       std::string_view message);

}  // namespace agentctx
