// SPDX-License-Identifier: MIT
// ChatBodyBuilder: the Chat Completions body of a request, rendered from the same
// for_prompt items as the Responses body (prompt/for_prompt.h) and as byte-stable: every body is
//   {"model":M,"messages":[<system>,<m1>,…,<mn>]<tail>}
// where <system> = {"role":"system","content":instructions} (omitted when empty), m_i the items'
// renderings (provider_items.h) and <tail> = tools, tool_choice, parallel_tool_calls (only with
// tools: an empty `tools` array is refused by the API), reasoning_effort, max_completion_tokens,
// `"stream":true,"stream_options":{"include_usage":true}`, service_tier, prompt_cache_key,
// verbosity. So the bytes up to the last message are the previous body's plus the new messages
// whenever history only grew.
// Invariants:
//  - A run of consecutive assistant items (text and calls; reasoning dropped in between) is one
//    assistant message {"role":"assistant","content":<text>|null,"tool_calls"?:[…]}, as the API
//    requires every call of a turn to sit in one message before its tool messages.
//  - Developer messages keep role `developer` unless p.chat_developer_role is `system` (for chat
//    templates without that role): then only the role is renamed, so the body stays byte-stable.
//  - Each item is rendered once and cached by its serial (non-zero serials only); the cache keeps
//    only the items of the last build.
//  - Build() also fills the explainer's segments (cache_explainer.h): instructions = the
//    system message bytes, tools = the Chat tools array, items = one per message (origin = its
//    first item's). Views into the builder, valid until the next Build().
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "provider/cache/cache_explainer.h"
#include "provider/message_body.h"
#include "provider/provider_items.h"
#include "provider/render_cache.h"
#include "provider/responses/request_body.h"

namespace agentctx {

class ChatBodyBuilder {
 public:
  /// The body for `p` (p.items ignored) with `items` (for_prompt order; bytes valid during the
  /// call). Fills `segments` (model and cache_key excluded) for CacheExplainer.
  std::string_view Build(const BodyParams& p, const std::vector<ItemSegment>& items,
                         PromptSegments* segments);
  std::string_view body() const { return body_; }

 private:
  std::string body_;
  std::string system_;
  ToolsMemo<std::string, ChatToolsJson> tools_;  // the Chat tools array
  std::vector<std::string> messages_;
  RenderCache<ChatPiece, RenderChatPiece> pieces_;
};

}  // namespace agentctx
