// SPDX-License-Identifier: MIT
// AnthropicBodyBuilder: the Anthropic Messages body of a request, rendered from the
// same for_prompt items as the Responses body (prompt/for_prompt.h):
//   {"model":M,"max_tokens":N,"tools":[…]?,"system":[{"type":"text","text":I}]?,
//    "messages":[m1,…,mn],"tool_choice":{"type":"none"}? (compaction with tools),"stream":true}
// Tools and system come first, in Anthropic's cache order (tools → system → messages), so the
// body's bytes follow the prefix the cache sees. m_i = the items' renderings
// (provider_items.h, one message per item; the API joins consecutive same-role turns; the
// blocks of consecutive system messages are merged into the first one here).
// The breakpoint plan (breakpoint_planner.h) adds `"cache_control":{…}` to the last tool, the
// system block, the session context's last message and the newest message's last block; the
// newest mark moves each request, so a body extends the previous one except for that one mark.
// Invariants:
//  - Each item is rendered once, cached by its serial (non-zero only); the cache keeps only the
//    items of the last build.
//  - Build() fills the explainer's segments from the unmarked renderings (marks are not
//    content): instructions = the system array, tools = the tools array, items = the messages.
//    Views into the builder, valid until the next Build().
//  - max_tokens = p.max_output_tokens, else kDefaultAnthropicMaxTokens (the API requires it).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "provider/anthropic/breakpoint_planner.h"
#include "provider/cache/cache_explainer.h"
#include "provider/message_body.h"
#include "provider/provider_items.h"
#include "provider/render_cache.h"
#include "provider/responses/request_body.h"

namespace agentctx {

inline constexpr std::int64_t kDefaultAnthropicMaxTokens = 8192;

struct AnthropicCacheOptions {
  std::uint64_t min_cacheable_tokens = 1024;
  CacheTtl stable_ttl = CacheTtl::k5m;
};

class AnthropicBodyBuilder {
 public:
  /// The body for `p` (p.items ignored) with `items` (for_prompt order; bytes and origins valid
  /// during the call). Fills `segments` (model and cache_key excluded) for CacheExplainer.
  std::string_view Build(const BodyParams& p, const std::vector<ItemSegment>& items,
                         const AnthropicCacheOptions& cache, PromptSegments* segments);
  std::string_view body() const { return body_; }
  /// The plan of the last Build().
  const BreakpointPlan& plan() const { return plan_; }

 private:
  std::string body_;
  std::string system_;                                             // unmarked system array
  ToolsMemo<std::vector<std::string>, AnthropicToolsJson> tools_;  // one entry per tool
  std::string tools_array_;                                        // unmarked tools array
  std::vector<std::string_view> messages_;
  std::vector<std::string_view> origins_;
  std::vector<std::string> owned_;  // messages of serial-less items
  RenderCache<AnthropicMessage, RenderAnthropicMessage> rendered_;
  BreakpointPlan plan_;
};

/// The provider's own compaction (BodyParams::compaction_trigger / compact_threshold):
/// `,"compaction":{"type":"summarize"}` (on demand) or `,"context_management":{"edits":[
/// {"type":"compact_20260112","trigger":{"type":"input_tokens","value":N},
/// "pause_after_compaction":true}]}` (the server compacts past N tokens and stops, so the engine
/// reinjects the context that must survive); nothing when neither is set. A context edit
/// (BodyParams::context_edit) goes first in the same `edits`, except on an on-demand
/// compaction, which the API refuses together with `context_management`.
/// The configured `compaction.prompt` (BodyParams::compaction_instructions) goes as the
/// `instructions` of either form, unless it is empty or whitespace (which the API counts as
/// absent).
void AppendProviderCompaction(std::string* out, const BodyParams& p);

/// The `anthropic-beta` names the body's parameters need, in a fixed order.
std::vector<std::string_view> AnthropicBetas(const BodyParams& p);

/// True for the origins of world-state context items (a section id), false for user, model,
/// tool and compaction items.
bool IsContextOrigin(std::string_view origin);

}  // namespace agentctx
