// SPDX-License-Identifier: MIT
// World-state section `task_frontier` (docs/task-frontier.md): text, snapshot value, and when
// it renders (full render and goal/rule changes, not plan-only changes).
#include "world_state/sections/task_frontier_section.h"

#include <gtest/gtest.h>

#include "protocol/json_codec.h"

namespace agentctx {
namespace {

TaskFrontier Sample() {
  TaskFrontier f;
  f.goal = "Fix the flaky test";
  f.plan = {{"reproduce", PlanStatus::kCompleted}, {"fix the race", PlanStatus::kInProgress}};
  f.explanation = "the race is in the cache";
  f.rules = {"never push", "run the suite"};
  return f;
}

WorldInputs With(const TaskFrontier& f) {
  WorldInputs in;
  in.task_frontier = f;
  return in;
}

TEST(TaskFrontierSection, RendersGoalPlanNoteAndRules) {
  EXPECT_EQ(RenderTaskFrontier(Sample()),
            "<task_frontier>\n"
            "The task you are working on. This block is kept across context compactions; keep "
            "the plan current with update_plan.\n"
            "## Goal\nFix the flaky test\n"
            "## Plan\n- [completed] reproduce\n- [in_progress] fix the race\n"
            "## Latest note\nthe race is in the cache\n"
            "## Rules\n- never push\n- run the suite\n"
            "</task_frontier>");
}

TEST(TaskFrontierSection, EmptyPlanSaysSoAndOptionalPartsAreLeftOut) {
  TaskFrontier f;
  f.goal = "g";
  EXPECT_EQ(RenderTaskFrontier(f),
            "<task_frontier>\n"
            "The task you are working on. This block is kept across context compactions; keep "
            "the plan current with update_plan.\n"
            "## Goal\ng\n## Plan\nNo plan yet.\n</task_frontier>");
}

TEST(TaskFrontierSection, SnapshotIsTheFrontierJsonOrAbsent) {
  TaskFrontierSection section;
  EXPECT_TRUE(section.Snapshot(WorldInputs{}).is_null());
  EXPECT_EQ(ToSortedJson(section.Snapshot(With(Sample()))),
            R"({"explanation":"the race is in the cache","goal":"Fix the flaky test",)"
            R"("plan":[{"status":"completed","step":"reproduce"},)"
            R"({"status":"in_progress","step":"fix the race"}],)"
            R"("rules":["never push","run the suite"]})");
  EXPECT_TRUE(section.CanRestore(section.Snapshot(With(Sample()))));
  EXPECT_FALSE(section.CanRestore(JsonValue::String("x")));
  EXPECT_FALSE(section.CanRestore(*ParseJson(R"({"plan":[{"step":"a","status":"done"}]})")));
}

TEST(TaskFrontierSection, AbsentAndUnknownRenderTheFullBlock) {
  TaskFrontierSection section;
  for (const PreviousState& prev : {PreviousState::Absent(), PreviousState::Unknown()}) {
    std::optional<Fragment> f = section.RenderDiff(prev, With(Sample()));
    ASSERT_TRUE(f.has_value());
    EXPECT_EQ(f->role, Role::kDeveloper);
    EXPECT_EQ(f->text, RenderTaskFrontier(Sample()));
  }
  EXPECT_FALSE(section.RenderDiff(PreviousState::Absent(), WorldInputs{}).has_value());
}

TEST(TaskFrontierSection, PlanOnlyChangeRendersNothing) {
  TaskFrontierSection section;
  TaskFrontier before = Sample();
  before.plan = {};
  before.explanation = "";
  PreviousState prev = PreviousState::Known(TaskFrontierToJson(before));
  EXPECT_FALSE(section.RenderDiff(prev, With(Sample())).has_value());
}

TEST(TaskFrontierSection, GoalOrRuleChangeRendersTheBlockAgain) {
  TaskFrontierSection section;
  PreviousState prev = PreviousState::Known(TaskFrontierToJson(Sample()));
  TaskFrontier goal = Sample();
  goal.goal = "Another goal";
  ASSERT_TRUE(section.RenderDiff(prev, With(goal)).has_value());
  EXPECT_EQ(section.RenderDiff(prev, With(goal))->text, RenderTaskFrontier(goal));
  TaskFrontier rules = Sample();
  rules.rules.push_back("be brief");
  EXPECT_TRUE(section.RenderDiff(prev, With(rules)).has_value());
  EXPECT_FALSE(section.RenderDiff(prev, With(Sample())).has_value());
}

TEST(TaskFrontierJson, RoundTripsAndRejectsBadShapes) {
  TaskFrontier out;
  ASSERT_TRUE(TaskFrontierFromJson(TaskFrontierToJson(Sample()), &out));
  EXPECT_EQ(out, Sample());
  ASSERT_TRUE(TaskFrontierFromJson(*ParseJson("{}"), &out));
  EXPECT_EQ(out, TaskFrontier{});
  for (const char* bad : {R"([])", R"({"goal":1})", R"({"plan":{}})", R"({"plan":[1]})",
                          R"({"rules":[1]})", R"({"plan":[{"step":"a"}]})"}) {
    EXPECT_FALSE(TaskFrontierFromJson(*ParseJson(bad), &out)) << bad;
  }
  EXPECT_EQ(out, TaskFrontier{});  // untouched by the failures
}

}  // namespace
}  // namespace agentctx
