// SPDX-License-Identifier: MIT
// World-state section `context_budget` (docs/context-budget.md): bands, text, snapshot, and
// when it renders.
#include "world_state/sections/context_budget_section.h"

#include <gtest/gtest.h>

#include "protocol/json_codec.h"

namespace agentctx {
namespace {

WorldInputs With(std::uint64_t used) {
  WorldInputs in;
  in.context_budget = ContextBudgetInputs{used, 100000, 90000};
  return in;
}

JsonValue SnapshotAt(std::uint64_t used) { return ContextBudgetSection().Snapshot(With(used)); }

TEST(ContextBudgetSection, BandsAreTenPercentSteps) {
  EXPECT_EQ(ContextBudgetBand({0, 100000, 90000}), 0u);
  EXPECT_EQ(ContextBudgetBand({9999, 100000, 90000}), 0u);
  EXPECT_EQ(ContextBudgetBand({10000, 100000, 90000}), 1u);
  EXPECT_EQ(ContextBudgetBand({95000, 100000, 90000}), 9u);
  EXPECT_EQ(ContextBudgetBand({250000, 100000, 90000}), 10u);
  EXPECT_EQ(ContextBudgetBand({5, 0, 0}), 0u);
}

TEST(ContextBudgetSection, TextAndSnapshot) {
  EXPECT_EQ(RenderContextBudget({45210, 272000, 244800}),
            "<context_budget>\nContext in use: 45210 of 272000 tokens (16%). Automatic "
            "compaction at 244800 tokens.\n</context_budget>");
  EXPECT_EQ(ToSortedJson(SnapshotAt(45210)),
            R"({"auto_compact_at":90000,"band":4,"used":45210,"window":100000})");
  EXPECT_TRUE(ContextBudgetSection().Snapshot(WorldInputs{}).is_null());
  EXPECT_TRUE(ContextBudgetSection().CanRestore(SnapshotAt(1)));
  EXPECT_FALSE(ContextBudgetSection().CanRestore(*ParseJson(R"({"band":"x"})")));
}

TEST(ContextBudgetSection, RendersWhenANewBandIsCrossed) {
  ContextBudgetSection s;
  EXPECT_FALSE(s.RenderDiff(PreviousState::Absent(), With(9000)).has_value());  // below 10 %
  ASSERT_TRUE(s.RenderDiff(PreviousState::Absent(), With(12000)).has_value());
  EXPECT_EQ(s.RenderDiff(PreviousState::Absent(), With(12000))->text,
            RenderContextBudget({12000, 100000, 90000}));
  EXPECT_TRUE(s.RenderDiff(PreviousState::Unknown(), With(12000)).has_value());
  PreviousState at_12k = PreviousState::Known(SnapshotAt(12000));
  EXPECT_FALSE(s.RenderDiff(at_12k, With(19999)).has_value());  // same band, new numbers
  EXPECT_TRUE(s.RenderDiff(at_12k, With(20000)).has_value());   // up a band
  EXPECT_TRUE(s.RenderDiff(at_12k, With(5000)).has_value());    // down a band
  EXPECT_FALSE(s.RenderDiff(at_12k, WorldInputs{}).has_value());
}

}  // namespace
}  // namespace agentctx
