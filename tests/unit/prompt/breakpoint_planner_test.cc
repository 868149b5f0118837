// SPDX-License-Identifier: MIT
// Anthropic breakpoint planner (docs/providers.md): at most four marks at the stability
// boundaries, the minimum, 1 h before 5 min, and a reason for every candidate.
#include "provider/anthropic/breakpoint_planner.h"

#include <gtest/gtest.h>

#include "protocol/json_value.h"

namespace agentctx {
namespace {

BreakpointInputs Big() {
  BreakpointInputs in;
  in.tools_bytes = 8000;   // 2000 tokens
  in.system_bytes = 4000;  // +1000
  in.message_bytes = {400, 400, 400, 4000};
  in.context_end = 1;
  return in;
}

TEST(BreakpointPlanner, PlacesFourMarksInPromptOrder) {
  BreakpointPlan plan = PlanBreakpoints(Big());
  ASSERT_EQ(plan.candidates.size(), 4u);
  EXPECT_EQ(plan.placed(), 4u);
  EXPECT_EQ(plan.candidates[0].reason, "end_of_tools");
  EXPECT_EQ(plan.candidates[0].prefix_tokens, 2000u);
  EXPECT_EQ(plan.candidates[1].reason, "end_of_system");
  EXPECT_EQ(plan.candidates[1].prefix_tokens, 3000u);
  EXPECT_EQ(plan.candidates[2].reason, "end_of_session_context");
  EXPECT_EQ(plan.candidates[2].prefix_tokens, 3200u);
  EXPECT_EQ(plan.candidates[3].reason, "newest_history_item");
  EXPECT_EQ(plan.candidates[3].message_index, 3u);
  EXPECT_EQ(plan.candidates[3].prefix_tokens, 4300u);
}

TEST(BreakpointPlanner, SkipsBoundariesUnderTheMinimum) {
  BreakpointInputs in = Big();
  in.tools_bytes = 400;
  in.system_bytes = 400;
  in.min_cacheable_tokens = 1024;
  BreakpointPlan plan = PlanBreakpoints(in);
  EXPECT_EQ(plan.candidates[0].reason, "below_minimum");
  EXPECT_EQ(plan.candidates[1].reason, "below_minimum");
  EXPECT_EQ(plan.candidates[2].reason, "below_minimum");
  EXPECT_TRUE(plan.candidates[3].placed);
  EXPECT_EQ(plan.placed(), 1u);
  in.min_cacheable_tokens = 2048;  // a Haiku model
  EXPECT_EQ(PlanBreakpoints(in).placed(), 0u);
  EXPECT_EQ(DefaultMinCacheableTokens("claude-3-5-haiku-latest"), 2048u);
  EXPECT_EQ(DefaultMinCacheableTokens("claude-sonnet-4-5"), 1024u);
  EXPECT_EQ(DefaultMinCacheableTokens("claude-opus-4-5"), 4096u);
  EXPECT_EQ(DefaultMinCacheableTokens("claude-haiku-4-5"), 4096u);
  EXPECT_EQ(DefaultMinCacheableTokens("claude-opus-4-6"), 4096u);
  EXPECT_EQ(DefaultMinCacheableTokens("claude-opus-4-7"), 4096u);
  EXPECT_EQ(DefaultMinCacheableTokens("claude-mythos-preview"), 4096u);
  EXPECT_EQ(DefaultMinCacheableTokens("claude-opus-4-8"), 1024u);
  EXPECT_EQ(DefaultMinCacheableTokens("claude-sonnet-5"), 1024u);
  EXPECT_EQ(DefaultMinCacheableTokens("claude-opus-5"), 512u);
  EXPECT_EQ(DefaultMinCacheableTokens("claude-fable-5"), 512u);
  EXPECT_EQ(DefaultMinCacheableTokens("claude-mythos-5"), 512u);
  EXPECT_EQ(DefaultMinCacheableTokens("claude-3-haiku-20240307"), 2048u);
}

TEST(BreakpointPlanner, ReportsMissingBoundariesAndTheNewestCoveringTheContext) {
  BreakpointInputs in;
  in.message_bytes = {8000};
  in.context_end = 0;
  BreakpointPlan plan = PlanBreakpoints(in);
  EXPECT_EQ(plan.candidates[0].reason, "no_tools");
  EXPECT_EQ(plan.candidates[1].reason, "no_system");
  EXPECT_EQ(plan.candidates[2].reason, "same_as_newest");
  EXPECT_TRUE(plan.candidates[3].placed);
  EXPECT_EQ(PlanBreakpoints(BreakpointInputs{}).candidates[3].reason, "no_messages");
  in.context_end.reset();
  EXPECT_EQ(PlanBreakpoints(in).candidates[2].reason, "no_session_context");
}

TEST(BreakpointPlanner, OneHourMarksComeBeforeFiveMinuteMarks) {
  BreakpointInputs in = Big();
  in.stable_ttl = CacheTtl::k1h;
  BreakpointPlan plan = PlanBreakpoints(in);
  bool seen_5m = false;
  for (const auto& c : plan.candidates) {
    if (!c.placed) continue;
    if (c.ttl == CacheTtl::k5m) seen_5m = true;
    if (c.ttl == CacheTtl::k1h) {
      EXPECT_FALSE(seen_5m);
    }
  }
  EXPECT_EQ(plan.candidates[3].ttl, CacheTtl::k5m);
  EXPECT_EQ(
      ToJson(BreakpointPlanToJson(plan).items()[0]),
      R"({"at":"tools","placed":true,"reason":"end_of_tools","ttl":"1h","prefix_tokens":2000})");
  EXPECT_EQ(CacheControlJson(CacheTtl::k1h), R"({"type":"ephemeral","ttl":"1h"})");
}

}  // namespace
}  // namespace agentctx
