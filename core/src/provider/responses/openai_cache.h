// SPDX-License-Identifier: MIT
// OpenAI prompt caching at breakpoints (GPT-5.6 and later, feature cache_breakpoints;
// docs/providers.md): the top-level `prompt_cache_options` and where a `responses` body places
// `prompt_cache_breakpoint: {"mode":"explicit"}`.
// Plan (PlanOpenAiBreakpoints), through the shared mark planner (provider/mark_planner.h),
// candidates in prompt order:
//  1. session_context: the last item of the leading run of world-state context items — the
//     end of the static developer/context prefix (instructions and tools come before it);
//  2. stable_history: the last markable item at or before the latest compaction item, after
//     the context — history that stays until the next compaction;
//  3. newest_item: the newest markable item, with mode `explicit` only (with `implicit` the
//     provider's own breakpoint sits at the newest message: `implicit_breakpoint`).
//  A mark goes on an item only where the API takes one: the last content block of a user or
//  developer message, or of a tool output given as parts, when that block is `input_text`,
//  `input_image` or `input_file` (never on instructions, tools or assistant output). A
//  candidate under 1024 tokens is not placed; the budget is 3 explicit marks with `implicit`,
//  4 with `explicit`, the newest the last to go.
// Byte stability: marks 1 and 2 stay on the same items until the history is rewritten
// (compaction), so with `implicit` (the default) every body extends the previous one byte for
// byte. With `explicit` the newest mark moves to the newest item each request: the previous
// newest item loses its mark (the only bytes of the previous body that change; a mark is not
// prompt content, so the provider's cache prefix and the explainer's segments are unchanged).
// Invariants: pure; marks are rendered by inserting kBreakpointField before the marked item's
// closing `}]}`; the explainer's segments are always the unmarked item bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "provider/body_params.h"
#include "provider/cache/cache_explainer.h"
#include "provider/mark_planner.h"

namespace agentctx {

/// The smallest prefix OpenAI caches, in tokens.
inline constexpr std::uint64_t kOpenAiMinCacheableTokens = 1024;
/// At most this many breakpoints are written per request (the implicit one included).
inline constexpr std::size_t kOpenAiMaxCacheWrites = 4;
/// The bytes a marked content block gets before its closing `}`.
inline constexpr std::string_view kBreakpointField =
    ",\"prompt_cache_breakpoint\":{\"mode\":\"explicit\"}";

/// True when `item` (canonical item bytes) can carry a breakpoint (see the header comment).
bool CanCarryBreakpoint(std::string_view item);
/// True when OpenAI's implicit breakpoint (mode implicit) may sit at the end of `item` (item
/// JSON bytes, any key order): a user or developer message or a tool output, whatever its
/// form — the provider places it near the latest user or tool message, so a tool loop with
/// string outputs caches without explicit marks.
bool IsImplicitBreakpointItem(std::string_view item);
/// Appends `item` with kBreakpointField on its last content block (CanCarryBreakpoint(item)).
void AppendWithBreakpoint(std::string* out, std::string_view item);

/// The plan for a `responses` body of `p` with `items` (the explainer's segments: unmarked
/// bytes and origins); `instructions_json` is J(instructions) (prefix sizes only).
BreakpointPlan PlanOpenAiBreakpoints(const BodyParams& p, std::string_view instructions_json,
                                     const std::vector<ItemSegment>& items);
/// The indices of the items `plan` marks, ascending.
std::vector<std::size_t> MarkedItems(const BreakpointPlan& plan);

/// `,"prompt_cache_options":{"mode":…,"ttl":…}` of `p`.
void AppendPromptCacheOptions(std::string* out, const BodyParams& p);

}  // namespace agentctx
