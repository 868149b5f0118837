// SPDX-License-Identifier: MIT
// The mock model's reading of Chat Completions and Anthropic Messages requests: each
// body becomes the equivalent `responses` body, so the one rule set (mock_rules.h) answers every
// provider, plus the prompt as that provider's cache sees it.
// Conversion (to {"model","input":[…],"tools":[{"type":"function","name"}…]}):
//  - Chat: system messages are skipped (instructions); user/developer → message (string content
//    → one input_text; text parts → input_text; image_url → input_image); assistant → message
//    with output_text (when it has text), then a function_call per tool_calls entry; tool →
//    function_call_output {call_id: tool_call_id, output: the text}.
//  - Anthropic: a user message's tool_result blocks → function_call_output each (content text
//    joined), its text blocks → one message (role developer when the text opens with a developer
//    context marker, `<permissions instructions>`, `<model_switch>` or `<tools>`: Anthropic has
//    no developer role, so the renderer sends those as user turns); assistant text → message,
//    tool_use → function_call {name, arguments: the input as JSON, call_id: id}.
// Cache view:
//  - Chat: the prompt bytes are tools ‖ messages (each compact, as sent), for the OpenAI-rule
//    exact-prefix simulator.
//  - Anthropic: the blocks in cache order (each tool, each system block, each message content
//    block; a string `system` / `content` is one text block), `cache_control` removed from the
//    bytes and kept as the block's mark.
// Errors: kInvalidInput when `messages` is missing or not an array, or a message is not an
// object; unknown blocks are skipped.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "agentctx/result.h"
#include "protocol/json_value.h"

namespace agentctx {

/// One Anthropic cache block: its bytes without `cache_control`, and its mark when it has one.
struct AnthropicBlock {
  std::string bytes;
  bool marked = false;
  std::int64_t ttl_ms = 300000;  // 5 min, or 1 h for `"ttl":"1h"`
};

struct ProviderRequest {
  JsonValue responses_body;            ///< the equivalent `responses` body
  std::string prompt;                  ///< chat: the prompt bytes for the exact-prefix cache
  std::vector<AnthropicBlock> blocks;  ///< anthropic: the cache blocks
  bool streaming = false;
};

Result<ProviderRequest> ReadChatRequest(const JsonValue& body);
Result<ProviderRequest> ReadAnthropicRequest(const JsonValue& body);

}  // namespace agentctx
