// SPDX-License-Identifier: MIT
// The task frontier end to end: opt-in update_plan tool, the `<task_frontier>`
// developer block with the goal (first user message or host-set) and the latest plan, kept out
// of step diffs for plan-only changes, re-injected after every compaction (manual local,
// mid-turn local, remote), persisted in world_state lines and restored by resume.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "../compaction/compaction_session_util.h"

namespace agentctx {
namespace {

using compaction_test::AssistantJson;
using compaction_test::Config;
using compaction_test::Events;
using compaction_test::IsSummaryRequest;
using compaction_test::Seed;
using compaction_test::SessionDriver;
using compaction_test::Sse;

constexpr const char* kPlanArgs =
    R"({"explanation":"start with the tests","plan":[{"step":"read the tests","status":"completed"},)"
    R"({"step":"fix the parser","status":"in_progress"}]})";

std::string FrontierConfig(const std::string& model_extra = "", const std::string& extra = "") {
  return Config(model_extra,
                R"(,"task_frontier":{"enabled":true,"rules":["never push to main"]})" + extra);
}

std::string PlanCallJson(const std::string& call_id, const std::string& arguments) {
  return R"({"type":"function_call","name":"update_plan","arguments":)" + JsonString(arguments) +
         R"(,"call_id":")" + call_id + R"("})";
}

// In the turn whose user message is `marker`, answers the first request with an update_plan
// call and the next with a reply; everything else is left to the mock (replies, summaries).
void ScriptPlanCall(SessionDriver* d, const std::string& marker, const std::string& arguments) {
  d->respond = [marker, arguments](const std::string& endpoint,
                                   const std::string& body) -> std::optional<std::string> {
    if (endpoint != "responses" || IsSummaryRequest(endpoint, body)) return std::nullopt;
    const std::string user =
        R"({"type":"message","role":"user","content":[{"type":"input_text","text":)";
    std::size_t last_user = body.rfind(user);
    if (last_user == std::string::npos ||
        body.compare(last_user + user.size(), marker.size() + 2, "\"" + marker + "\"") != 0) {
      return std::nullopt;
    }
    if (body.find("\"call_plan\"") != std::string::npos) return Sse({AssistantJson("planned")});
    return Sse({PlanCallJson("call_plan", arguments)});
  };
}

std::size_t Count(const std::string& haystack, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t at = haystack.find(needle); at != std::string::npos;
       at = haystack.find(needle, at + 1)) {
    ++n;
  }
  return n;
}

// The JSON-escaped frontier block text as it appears inside a request body.
std::string EscapedBlock(const std::string& goal, const std::string& plan_lines) {
  return "<task_frontier>\\nThe task you are working on. This block is kept across context "
         "compactions; keep the plan current with update_plan.\\n## Goal\\n" +
         goal + "\\n## Plan\\n" + plan_lines;
}

const std::string kPlanLines =
    "- [completed] read the tests\\n- [in_progress] fix the parser\\n## Latest note\\nstart with "
    "the tests\\n## Rules\\n- never push to main\\n</task_frontier>";

TEST(TaskFrontierSession, OffByDefaultNothingChanges) {
  SessionDriver d;
  Seed(&d);
  d.Start(Config());
  d.Submit("hello", 1000);
  EXPECT_EQ(d.request_bodies()[0].find("update_plan"), std::string::npos);
  EXPECT_EQ(d.request_bodies()[0].find("task_frontier"), std::string::npos);
}

TEST(TaskFrontierSession, FirstTurnAdvertisesTheToolAndShowsTheGoal) {
  SessionDriver d;
  Seed(&d);
  d.Start(FrontierConfig());
  d.Submit("make the parser accept trailing commas", 1000);
  const std::string& body = d.request_bodies()[0];
  std::size_t write_file = body.find(R"("name":"write_file")");
  std::size_t update_plan = body.find(R"("name":"update_plan")");
  ASSERT_NE(update_plan, std::string::npos);
  EXPECT_LT(write_file, update_plan);  // after the file tools
  std::size_t block =
      body.find(EscapedBlock("make the parser accept trailing commas",
                             "No plan yet.\\n## Rules\\n- never push to main\\n</task_frontier>"));
  ASSERT_NE(block, std::string::npos) << body;
  // A developer message before the user's own.
  EXPECT_LT(body.rfind(R"("role":"developer")", block), block);
  EXPECT_LT(block, body.find(R"({"type":"input_text","text":"make the parser accept)"));
}

TEST(TaskFrontierSession, PlanUpdateIsRecordedAndNotRepeatedInTheNextStep) {
  SessionDriver d;
  Seed(&d);
  ScriptPlanCall(&d, "fix the parser bug", kPlanArgs);
  d.Start(FrontierConfig());
  auto effects = d.Submit("fix the parser bug", 1000);
  ASSERT_EQ(d.request_bodies().size(), 2u);
  const std::string& second = d.request_bodies()[1];
  EXPECT_NE(second.find(R"("call_id":"call_plan","output":"Plan updated")"), std::string::npos)
      << second;
  EXPECT_EQ(Count(second, "<task_frontier>"), 1u);  // the plan-only change renders nothing
  auto state = ParseJson(d.Call("world_state", "{}"));
  const JsonValue* frontier = state->Find("value")->Find("task_frontier");
  ASSERT_NE(frontier, nullptr) << ToJson(*state);
  EXPECT_EQ(ToJson(*frontier->Find("plan")),
            R"([{"step":"read the tests","status":"completed"},)"
            R"({"step":"fix the parser","status":"in_progress"}])");
  EXPECT_EQ(frontier->GetString("goal"), "fix the parser bug");
  // The plan is persisted: a world_state patch carries it.
  bool persisted = false;
  for (const std::string& line : d.rollout()) {
    if (line.find(R"("type":"world_state")") != std::string::npos &&
        line.find("fix the parser") != std::string::npos &&
        line.find("in_progress") != std::string::npos) {
      persisted = true;
    }
  }
  EXPECT_TRUE(persisted);
}

TEST(TaskFrontierSession, BadPlanArgumentsLeaveThePlanAsItWas) {
  SessionDriver d;
  Seed(&d);
  ScriptPlanCall(&d, "try a bad plan", R"({"plan":[{"step":"x","status":"done"}]})");
  d.Start(FrontierConfig());
  d.Submit("try a bad plan", 1000);
  ASSERT_EQ(d.request_bodies().size(), 2u);
  EXPECT_NE(d.request_bodies()[1].find("failed to parse function arguments: invalid value for "
                                       "`plan[0].status`"),
            std::string::npos);
  auto state = ParseJson(d.Call("world_state", "{}"));
  EXPECT_EQ(ToJson(*state->Find("value")->Find("task_frontier")->Find("plan")), "[]");
}

TEST(TaskFrontierSession, ManualCompactionReinjectsGoalAndLatestPlan) {
  SessionDriver d;
  Seed(&d);
  ScriptPlanCall(&d, "fix the parser bug", kPlanArgs);
  d.Start(FrontierConfig());
  d.Submit("fix the parser bug", 1000);
  d.Submit("also update the changelog", 2000);
  d.Compact(3000);
  d.Submit("carry on", 4000);
  const std::string& next = d.request_bodies().back();
  EXPECT_EQ(Count(next, "<task_frontier>"), 1u);
  EXPECT_NE(next.find(EscapedBlock("fix the parser bug", kPlanLines)), std::string::npos) << next;
}

TEST(TaskFrontierSession, MidTurnCompactionReinjectsIt) {
  SessionDriver d;
  Seed(&d);
  ScriptPlanCall(&d, "fix the parser bug", kPlanArgs);
  d.Start(FrontierConfig(R"(,"context_window":100000,"auto_compact_token_limit":1200)",
                         R"(,"max_steps_per_turn":3)"));
  d.Submit("fix the parser bug", 1000);
  std::size_t before = d.request_bodies().size();
  auto effects = d.Submit("please read notes.txt", 2000);
  auto compaction = Events(effects, "compaction");
  ASSERT_GE(compaction.size(), 2u);
  EXPECT_EQ(compaction[0].GetString("trigger"), "mid_turn");
  // The step request right after the first summary request holds the reinjected block.
  std::size_t summary = before;
  while (summary < d.request_bodies().size() &&
         !IsSummaryRequest("responses", d.request_bodies()[summary])) {
    ++summary;
  }
  ASSERT_LT(summary + 1, d.request_bodies().size());
  const std::string& after = d.request_bodies()[summary + 1];
  EXPECT_EQ(Count(after, "<task_frontier>"), 1u);
  EXPECT_NE(after.find(EscapedBlock("fix the parser bug", kPlanLines)), std::string::npos) << after;
}

TEST(TaskFrontierSession, RemoteCompactionReinjectsItAtTheNextTurn) {
  SessionDriver d;
  Seed(&d);
  ScriptPlanCall(&d, "fix the parser bug", kPlanArgs);
  d.Start(FrontierConfig("", R"(,"compaction":{"strategy":"remote"})"));
  d.Submit("fix the parser bug", 1000);
  d.Compact(2000);
  d.Submit("carry on", 3000);
  EXPECT_NE(d.request_bodies().back().find(EscapedBlock("fix the parser bug", kPlanLines)),
            std::string::npos);
}

TEST(TaskFrontierSession, ResumeAfterACompactionRestoresThePlan) {
  SessionDriver d;
  Seed(&d);
  ScriptPlanCall(&d, "fix the parser bug", kPlanArgs);
  d.Start(FrontierConfig());
  d.Submit("fix the parser bug", 1000);
  d.Compact(2000);  // clears the baseline: the plan lives on in the older world_state lines
  SessionDriver resumed;
  Seed(&resumed);
  JsonValue input = JsonValue::Object();
  input.Set("config", *ParseJson(FrontierConfig()));
  input.Set("rollout", JsonValue::String(d.RolloutText()));
  auto env = ParseJson(resumed.Call("session.resume", ToJson(input)));
  ASSERT_TRUE(env.has_value());
  ASSERT_TRUE(env->GetBool("ok").value_or(false)) << ToJson(*env);
  resumed.Submit("carry on", 3000);
  ASSERT_FALSE(resumed.request_bodies().empty());
  EXPECT_NE(resumed.request_bodies().back().find(EscapedBlock("fix the parser bug", kPlanLines)),
            std::string::npos)
      << resumed.request_bodies().back();
}

TEST(TaskFrontierSession, HostSetGoalReplacesTheBlock) {
  SessionDriver d;
  Seed(&d);
  d.Start(FrontierConfig());
  d.Submit("first message", 1000);
  d.Update(R"({"task_frontier":{"goal":"Ship release 2.0"}})", 1500);
  d.Submit("second message", 2000);
  const std::string& body = d.request_bodies().back();
  EXPECT_EQ(Count(body, "<task_frontier>"), 2u);  // the first turn's, then the new goal's
  EXPECT_NE(body.find("## Goal\\nShip release 2.0\\n"), std::string::npos);
}

}  // namespace
}  // namespace agentctx
