// SPDX-License-Identifier: MIT
// Built-in `update_plan`: the spec bytes and argument validation.
#include "tools/update_plan.h"

#include <gtest/gtest.h>

#include <string>

#include "protocol/json_codec.h"
#include "tools/tool_args.h"

namespace agentctx {
namespace {

std::string ErrorOf(std::string_view arguments) {
  Result<PlanUpdate> r = ParseUpdatePlan(arguments);
  return r.has_value() ? std::string("<ok>") : ArgumentErrorOutput(r.error());
}

TEST(UpdatePlanTool, SpecIsCanonicalJsonNamedUpdatePlan) {
  Result<JsonValue> spec = ParseJson(UpdatePlanSpecJson());
  ASSERT_TRUE(spec.has_value());
  EXPECT_EQ(spec->GetString("name"), "update_plan");
  EXPECT_EQ(spec->GetString("type"), "function");
  // The parameters are already in sorted-key canonical form.
  EXPECT_EQ(ToSortedJson(*spec->Find("parameters")), ToJson(*spec->Find("parameters")));
}

TEST(UpdatePlanTool, ParsesStepsStatusesAndExplanation) {
  Result<PlanUpdate> r = ParseUpdatePlan(
      R"({"explanation":"found the bug","plan":[{"step":"read code","status":"completed"},)"
      R"({"step":"fix","status":"in_progress"},{"step":"test","status":"pending"}]})");
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_EQ(r->explanation, "found the bug");
  ASSERT_EQ(r->plan.size(), 3u);
  EXPECT_EQ(r->plan[0], (PlanStep{"read code", PlanStatus::kCompleted}));
  EXPECT_EQ(r->plan[1], (PlanStep{"fix", PlanStatus::kInProgress}));
  EXPECT_EQ(r->plan[2], (PlanStep{"test", PlanStatus::kPending}));
}

TEST(UpdatePlanTool, NullExplanationAndEmptyPlanAreAccepted) {
  Result<PlanUpdate> r = ParseUpdatePlan(R"({"explanation":null,"plan":[]})");
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->explanation, "");
  EXPECT_TRUE(r->plan.empty());
}

TEST(UpdatePlanTool, RejectsBadArgumentsWithAParseErrorOutput) {
  EXPECT_EQ(ErrorOf("not json").rfind("failed to parse function arguments: ", 0), 0u);
  EXPECT_EQ(ErrorOf("{}"), "failed to parse function arguments: missing field `plan`");
  EXPECT_EQ(ErrorOf(R"({"plan":{}})"),
            "failed to parse function arguments: invalid type for `plan`: expected an array");
  EXPECT_EQ(ErrorOf(R"({"plan":[],"explanation":3})"),
            "failed to parse function arguments: invalid type for `explanation`: expected a "
            "string");
  EXPECT_EQ(ErrorOf(R"({"plan":["x"]})"),
            "failed to parse function arguments: invalid type for `plan[0]`: expected an object");
  EXPECT_EQ(ErrorOf(R"({"plan":[{"status":"pending"}]})"),
            "failed to parse function arguments: `plan[0]`: missing field `step`");
  EXPECT_EQ(ErrorOf(R"({"plan":[{"step":"a","status":"done"}]})"),
            "failed to parse function arguments: invalid value for `plan[0].status`: expected "
            "pending, in_progress or completed");
  EXPECT_EQ(ErrorOf(R"({"plan":[{"step":"","status":"pending"}]})"),
            "failed to parse function arguments: invalid value for `plan[0].step`: expected 1 to "
            "1000 bytes");
}

TEST(UpdatePlanTool, LimitsStepsAndStepLength) {
  std::string many = R"({"plan":[)";
  for (std::size_t i = 0; i <= kMaxPlanSteps; ++i) {
    if (i > 0) many += ",";
    many += R"({"step":"s","status":"pending"})";
  }
  many += "]}";
  EXPECT_EQ(ErrorOf(many), "failed to parse function arguments: `plan` has more than 50 steps");
  std::string long_step =
      R"({"plan":[{"step":")" + std::string(kMaxPlanStepBytes, 'x') + R"(","status":"pending"}]})";
  EXPECT_EQ(ErrorOf(long_step), "<ok>");
  std::string too_long = R"({"plan":[{"step":")" + std::string(kMaxPlanStepBytes + 1, 'x') +
                         R"(","status":"pending"}]})";
  EXPECT_NE(ErrorOf(too_long), "<ok>");
}

}  // namespace
}  // namespace agentctx
