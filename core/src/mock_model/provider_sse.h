// SPDX-License-Identifier: MIT
// Writers of the mock model's Chat Completions and Anthropic Messages answers, shaped
// like the real APIs' so the official SDKs (`openai` chat.completions, `@anthropic-ai/sdk`
// messages.stream) work as clients of serve-mock. Output items come from the one rule set
// (mock_rules.h); reasoning items are not sent (neither API streams OpenAI reasoning).
// Chat stream: `data: <chunk>\n\n` per chunk, then `data: [DONE]\n\n`. Chunk =
//   {"id":"chatcmpl-<h12>","object":"chat.completion.chunk","created","model","choices":[…]}:
//   a role chunk; the message text in ≤ kMaxDeltaBytes pieces; one chunk per call
//   ({"index","id","type":"function","function":{"name","arguments"}}); the finish chunk
//   (`tool_calls` or `stop`); the usage chunk (`choices:[]`, usage {prompt_tokens,
//   completion_tokens, total_tokens, prompt_tokens_details{cached_tokens},
//   completion_tokens_details{reasoning_tokens}}). A failure is one chunk `{"error":{code,
//   message}}`. stream:false → one `chat.completion` object.
// Anthropic stream: `event: <type>\ndata: <json>\n\n`: message_start (usage input_tokens,
//   cache_creation_input_tokens, cache_read_input_tokens, cache_creation
//   {ephemeral_5m_input_tokens, ephemeral_1h_input_tokens}, output_tokens 1), ping, per block
//   content_block_start / deltas (text_delta ≤ kMaxDeltaBytes; input_json_delta, the whole
//   input) / content_block_stop, message_delta (stop_reason tool_use | end_turn, usage
//   output_tokens), message_stop. A failure is `event: error` {"type":"error","error":{type,
//   message}} (server_is_overloaded → overloaded_error, rate_limit_exceeded → rate_limit_error,
//   else api_error). stream:false → one `message` object.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "mock_model/anthropic_cache.h"
#include "mock_model/sse_writer.h"
#include "protocol/json_value.h"

namespace agentctx {

std::string WriteChatSuccess(const MockResponseMeta& meta, const std::vector<JsonValue>& items,
                             const MockUsage& usage, bool streaming);
std::string WriteChatFailure(const MockResponseMeta& meta, std::string_view code,
                             std::string_view message, bool streaming);

std::string WriteAnthropicSuccess(const MockResponseMeta& meta, const std::vector<JsonValue>& items,
                                  const AnthropicCacheUsage& cache, std::uint64_t output_tokens,
                                  bool streaming);
std::string WriteAnthropicFailure(std::string_view code, std::string_view message, bool streaming);

}  // namespace agentctx
