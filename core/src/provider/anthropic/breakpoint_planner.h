// SPDX-License-Identifier: MIT
// Anthropic breakpoint planner: where an Anthropic Messages request carries its
// `cache_control` marks. Anthropic caches the prefix tools → system → messages up to a marked
// block; a request may carry at most 4 marks, a mark under the model's minimum cacheable prompt
// is not cached, and when TTLs are mixed the longer ones must come first.
// Algorithm (PlanBreakpoints), one candidate per stability boundary, in prompt order:
//  1. end of tools (the last tool), 2. end of system (the system block), 3. end of the session
//     context (the last message of the leading run of world-state context items), 4. the newest
//     history item (the last message). Boundaries 1–3 change rarely; 4 moves every request and
//     makes the next request read everything before it.
//  2. A candidate is skipped when its boundary does not exist (no tools, no system, no context
//     messages, no messages), when it falls on the same block as the newest item (the newest
//     mark covers it), or when the prompt up to it is under `min_cacheable_tokens`
//     (tokens = ceil(bytes/4) of the rendered prefix).
//  3. Placed stable marks (1–3) get `stable_ttl`; the newest mark gets 5m. Stable marks sit
//     earlier in the prompt, so 1 h marks always come before 5 min marks.
// The decisions themselves are the shared mark planner's (provider/mark_planner.h).
// Invariants: at most 4 placed marks; every candidate is reported with its reason (placed or
// why not), for `inspect` and the cache report. Pure; integer math.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "agentctx/wire_enums.h"
#include "protocol/json_value.h"
#include "provider/cache/cache_explainer.h"
#include "provider/mark_planner.h"

namespace agentctx {

inline constexpr std::size_t kMaxAnthropicBreakpoints = 4;

struct BreakpointInputs {
  std::uint64_t tools_bytes = 0;             ///< rendered tools (0 = no tools)
  std::uint64_t system_bytes = 0;            ///< rendered system blocks (0 = no system)
  std::vector<std::uint64_t> message_bytes;  ///< rendered messages, in order
  std::optional<std::size_t> context_end;    ///< index of the last session-context message
  std::uint64_t min_cacheable_tokens = 1024;
  CacheTtl stable_ttl = CacheTtl::k5m;
};

BreakpointPlan PlanBreakpoints(const BreakpointInputs& in);

/// The explainer's view of the placed marks (cache_explainer.h step 4): the tools mark covers
/// the tools alone, the system mark the system and the tools, a message mark also the messages
/// up to and including it (explainer items are the rendered messages).
BreakpointRule BreakpointRuleOf(const BreakpointPlan& plan, std::uint64_t min_cacheable_tokens,
                                std::int64_t now_ms);
/// Anthropic's mark: `{"type":"ephemeral"}` or `{"type":"ephemeral","ttl":"1h"}`.
std::string_view CacheControlJson(CacheTtl ttl);
/// The model's minimum cacheable prompt (Anthropic's documented minimums, one table): 4096
/// tokens for Opus 4.5 and Haiku 4.5, 2048 for older Haiku models, 1024 otherwise.
std::uint64_t DefaultMinCacheableTokens(std::string_view model);

}  // namespace agentctx
