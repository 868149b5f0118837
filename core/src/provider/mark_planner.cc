// SPDX-License-Identifier: MIT
// The shared mark planner; see mark_planner.h.
#include "provider/mark_planner.h"

#include "prompt/prompt_bytes.h"
#include "protocol/json_fields.h"

namespace agentctx {

std::size_t BreakpointPlan::placed() const {
  std::size_t n = 0;
  for (const auto& c : candidates) n += c.placed ? 1 : 0;
  return n;
}

const PlannedBreakpoint* BreakpointPlan::Find(BreakpointAt at) const {
  for (const auto& c : candidates) {
    if (c.at == at && c.placed) return &c;
  }
  return nullptr;
}

BreakpointPlan PlaceMarks(const std::vector<MarkCandidate>& candidates, std::size_t budget,
                          std::uint64_t min_cacheable_tokens) {
  BreakpointPlan plan;
  plan.candidates.reserve(candidates.size());
  for (const MarkCandidate& m : candidates) {
    PlannedBreakpoint c;
    c.at = m.at;
    c.message_index = m.message_index;
    c.prefix_tokens = TokensForBytes(m.prefix_bytes);
    if (!m.skip.empty()) {
      c.reason = m.skip;
    } else if (c.prefix_tokens < min_cacheable_tokens) {
      c.reason = "below_minimum";
    } else {
      c.placed = true;
      c.reason = m.placed_reason;
      c.ttl = m.ttl;
    }
    plan.candidates.push_back(c);
  }
  while (plan.placed() > budget) {
    std::size_t drop = plan.candidates.size();
    for (std::size_t i = 0; i < plan.candidates.size(); ++i) {
      if (!plan.candidates[i].placed) continue;
      if (drop == plan.candidates.size() || candidates[i].value < candidates[drop].value) drop = i;
    }
    plan.candidates[drop].placed = false;
    plan.candidates[drop].reason = "limit_reached";
    plan.candidates[drop].ttl = CacheTtl::k5m;
  }
  return plan;
}

std::string_view BreakpointAtName(BreakpointAt at) {
  switch (at) {
    case BreakpointAt::kTools:
      return "tools";
    case BreakpointAt::kSystem:
      return "system";
    case BreakpointAt::kContext:
      return "session_context";
    case BreakpointAt::kStableHistory:
      return "stable_history";
    case BreakpointAt::kNewest:
      break;
  }
  return "newest_item";
}

JsonValue BreakpointPlanToJson(const BreakpointPlan& plan, bool with_ttl) {
  JsonValue out = JsonValue::Array();
  for (const auto& c : plan.candidates) {
    JsonValue entry = JsonValue::Object();
    SetString(&entry, "at", BreakpointAtName(c.at));
    entry.Set("placed", JsonValue::Bool(c.placed));
    SetString(&entry, "reason", c.reason);
    if (c.placed && with_ttl) SetString(&entry, "ttl", ToWire(c.ttl));
    SetInt(&entry, "prefix_tokens", static_cast<std::int64_t>(c.prefix_tokens));
    if (c.at != BreakpointAt::kTools && c.at != BreakpointAt::kSystem) {
      SetInt(&entry, "message_index", static_cast<std::int64_t>(c.message_index));
    }
    out.Push(std::move(entry));
  }
  return out;
}

}  // namespace agentctx
