// SPDX-License-Identifier: MIT
// Anthropic breakpoint planner; see breakpoint_planner.h.
#include "provider/anthropic/breakpoint_planner.h"

namespace agentctx {

BreakpointPlan PlanBreakpoints(const BreakpointInputs& in) {
  std::vector<std::uint64_t> ends;  // prompt bytes up to and including message i
  std::uint64_t total = in.tools_bytes + in.system_bytes;
  for (std::uint64_t bytes : in.message_bytes) {
    total += bytes;
    ends.push_back(total);
  }
  const bool has_messages = !in.message_bytes.empty();
  const std::size_t newest = has_messages ? in.message_bytes.size() - 1 : 0;
  std::vector<MarkCandidate> candidates;
  auto add = [&](BreakpointAt at, bool exists, std::string_view missing, std::uint64_t bytes,
                 std::string_view placed_reason, CacheTtl ttl, std::size_t index, int value) {
    candidates.push_back(MarkCandidate{at, exists ? std::string_view() : missing,
                                       exists ? bytes : 0, placed_reason, ttl, index, value});
  };
  add(BreakpointAt::kTools, in.tools_bytes > 0, "no_tools", in.tools_bytes, "end_of_tools",
      in.stable_ttl, 0, 1);
  add(BreakpointAt::kSystem, in.system_bytes > 0, "no_system", in.tools_bytes + in.system_bytes,
      "end_of_system", in.stable_ttl, 0, 2);
  if (in.context_end && has_messages && *in.context_end == newest) {
    candidates.push_back(MarkCandidate{BreakpointAt::kContext, "same_as_newest", ends[newest],
                                       "end_of_session_context", in.stable_ttl, newest, 3});
  } else {
    bool exists = in.context_end && *in.context_end < ends.size();
    add(BreakpointAt::kContext, exists, "no_session_context", exists ? ends[*in.context_end] : 0,
        "end_of_session_context", in.stable_ttl, exists ? *in.context_end : 0, 3);
  }
  add(BreakpointAt::kNewest, has_messages, "no_messages", has_messages ? ends[newest] : 0,
      "newest_history_item", CacheTtl::k5m, newest, 4);
  return PlaceMarks(candidates, kMaxAnthropicBreakpoints, in.min_cacheable_tokens);
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
  // Anthropic's documented minimums (docs/providers.md lists them), first match by a part of the
  // slug, 1024 for every other model; config `anthropic.min_cacheable_tokens` overrides them.
  struct Minimum {
    std::string_view part;
    std::uint64_t tokens;
  };
  constexpr Minimum kMinimums[] = {
      {"opus-4-5", 4096},  {"opus-4-6", 4096},       {"opus-4-7", 4096},
      {"haiku-4-5", 4096}, {"mythos-preview", 4096}, {"opus-5", 512},
      {"fable-5", 512},    {"mythos-5", 512},        {"haiku", 2048}};
  for (const Minimum& m : kMinimums) {
    if (model.find(m.part) != std::string_view::npos) return m.tokens;
  }
  return 1024;
}

}  // namespace agentctx
