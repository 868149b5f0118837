// SPDX-License-Identifier: MIT
// The mark planner shared by the providers that cache at explicit marks (Anthropic
// `cache_control`, OpenAI `prompt_cache_breakpoint`): each provider lists its candidate
// stability boundaries in prompt order, PlaceMarks decides which carry a mark.
// Algorithm (PlaceMarks):
//  1. A candidate with a skip reason (its boundary is absent, or another mark covers it) is not
//     placed and keeps that reason.
//  2. A candidate whose prompt up to the boundary is under `min_cacheable_tokens`
//     (tokens = ceil(bytes/4)) is `below_minimum`.
//  3. The rest are placed; while more are placed than `budget`, the placed candidate of the
//     lowest `value` (the earliest among equals) is unplaced as `limit_reached`: a budget that
//     cannot be met drops the least valuable mark, never the request.
// Invariants: at most `budget` placed marks; every candidate is reported with its reason
// (placed or why not), for `inspect` and the cache report. Pure; integer math.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "agentctx/wire_enums.h"
#include "protocol/json_value.h"

namespace agentctx {

enum class BreakpointAt { kTools, kSystem, kContext, kStableHistory, kNewest };

/// One stability boundary a provider offers to mark.
struct MarkCandidate {
  BreakpointAt at = BreakpointAt::kNewest;
  std::string_view skip;  ///< non-empty: not placed, for this reason (no_tools, same_as_newest…)
  std::uint64_t prefix_bytes = 0;  ///< the rendered prompt up to and including the boundary
  std::string_view placed_reason;  ///< end_of_tools | … when placed
  CacheTtl ttl = CacheTtl::k5m;
  std::size_t message_index = 0;  ///< the marked message (context, history and newest marks)
  int value = 0;                  ///< the larger, the later it is dropped for the budget
};

struct PlannedBreakpoint {
  BreakpointAt at = BreakpointAt::kNewest;
  bool placed = false;
  std::string_view reason;  ///< end_of_tools | … when placed; below_minimum | absent | …
  CacheTtl ttl = CacheTtl::k5m;
  std::uint64_t prefix_tokens = 0;  ///< ceil(bytes/4) of the prompt up to the boundary
  std::size_t message_index = 0;    ///< kContext / kStableHistory / kNewest: the marked message
};

struct BreakpointPlan {
  std::vector<PlannedBreakpoint> candidates;  ///< in prompt order
  std::size_t placed() const;
  /// The placed mark at `at`, or nullptr.
  const PlannedBreakpoint* Find(BreakpointAt at) const;
};

BreakpointPlan PlaceMarks(const std::vector<MarkCandidate>& candidates, std::size_t budget,
                          std::uint64_t min_cacheable_tokens);

std::string_view BreakpointAtName(BreakpointAt at);
/// [{"at","placed","reason","ttl"?,"prefix_tokens","message_index"?}…]; `ttl` only for placed
/// marks and only when `with_ttl` (marks that carry their own TTL).
JsonValue BreakpointPlanToJson(const BreakpointPlan& plan, bool with_ttl = true);

}  // namespace agentctx
