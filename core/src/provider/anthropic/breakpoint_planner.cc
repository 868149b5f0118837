// SPDX-License-Identifier: MIT
// Anthropic breakpoint planner; see breakpoint_planner.h.
#include "provider/anthropic/breakpoint_planner.h"

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

BreakpointPlan PlanBreakpoints(const BreakpointInputs& in) {
  BreakpointPlan plan;
  std::vector<std::uint64_t> ends;  // prompt bytes up to and including message i
  std::uint64_t total = in.tools_bytes + in.system_bytes;
  for (std::uint64_t bytes : in.message_bytes) {
    total += bytes;
    ends.push_back(total);
  }
  const bool has_messages = !in.message_bytes.empty();
  const std::size_t newest = has_messages ? in.message_bytes.size() - 1 : 0;
  auto decide = [&](BreakpointAt at, bool exists, std::string_view missing, std::uint64_t bytes,
                    std::string_view placed_reason, CacheTtl ttl, std::size_t index) {
    PlannedBreakpoint c;
    c.at = at;
    c.message_index = index;
    c.prefix_tokens = exists ? TokensForBytes(bytes) : 0;
    if (!exists) {
      c.reason = missing;
    } else if (c.prefix_tokens < in.min_cacheable_tokens) {
      c.reason = "below_minimum";
    } else if (plan.placed() >= kMaxAnthropicBreakpoints) {
      c.reason = "limit_reached";  // unreachable with four candidates; kept as the rule
    } else {
      c.placed = true;
      c.reason = placed_reason;
      c.ttl = ttl;
    }
    plan.candidates.push_back(c);
  };
  decide(BreakpointAt::kTools, in.tools_bytes > 0, "no_tools", in.tools_bytes, "end_of_tools",
         in.stable_ttl, 0);
  decide(BreakpointAt::kSystem, in.system_bytes > 0, "no_system", in.tools_bytes + in.system_bytes,
         "end_of_system", in.stable_ttl, 0);
  if (in.context_end && has_messages && *in.context_end == newest) {
    PlannedBreakpoint c;
    c.at = BreakpointAt::kContext;
    c.reason = "same_as_newest";
    c.message_index = newest;
    c.prefix_tokens = TokensForBytes(ends[newest]);
    plan.candidates.push_back(c);
  } else {
    bool exists = in.context_end && *in.context_end < ends.size();
    decide(BreakpointAt::kContext, exists, "no_session_context", exists ? ends[*in.context_end] : 0,
           "end_of_session_context", in.stable_ttl, exists ? *in.context_end : 0);
  }
  decide(BreakpointAt::kNewest, has_messages, "no_messages", has_messages ? ends[newest] : 0,
         "newest_history_item", CacheTtl::k5m, newest);
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
    case BreakpointAt::kNewest:
      break;
  }
  return "newest_item";
}

JsonValue BreakpointPlanToJson(const BreakpointPlan& plan) {
  JsonValue out = JsonValue::Array();
  for (const auto& c : plan.candidates) {
    JsonValue entry = JsonValue::Object();
    SetString(&entry, "at", BreakpointAtName(c.at));
    entry.Set("placed", JsonValue::Bool(c.placed));
    SetString(&entry, "reason", c.reason);
    if (c.placed) SetString(&entry, "ttl", ToWire(c.ttl));
    SetInt(&entry, "prefix_tokens", static_cast<std::int64_t>(c.prefix_tokens));
    if (c.at == BreakpointAt::kContext || c.at == BreakpointAt::kNewest) {
      SetInt(&entry, "message_index", static_cast<std::int64_t>(c.message_index));
    }
    out.Push(std::move(entry));
  }
  return out;
}

BreakpointRule BreakpointRuleOf(const BreakpointPlan& plan, std::uint64_t min_cacheable_tokens,
                                std::int64_t now_ms) {
  BreakpointRule rule;
  rule.min_cacheable_tokens = min_cacheable_tokens;
  rule.now_ms = now_ms;
  for (const PlannedBreakpoint& c : plan.candidates) {
    if (!c.placed) continue;
    CacheMark m;
    m.tokens = c.prefix_tokens;
    m.ttl_ms = c.ttl == CacheTtl::k1h ? 3600000 : 300000;
    m.tools_only = c.at == BreakpointAt::kTools;
    if (c.at == BreakpointAt::kContext || c.at == BreakpointAt::kNewest)
      m.items = c.message_index + 1;
    rule.marks.push_back(m);
  }
  return rule;
}

std::string_view CacheControlJson(CacheTtl ttl) {
  return ttl == CacheTtl::k1h ? R"({"type":"ephemeral","ttl":"1h"})" : R"({"type":"ephemeral"})";
}

std::uint64_t DefaultMinCacheableTokens(std::string_view model) {
  return model.find("haiku") != std::string_view::npos ? 2048 : 1024;
}

}  // namespace agentctx
