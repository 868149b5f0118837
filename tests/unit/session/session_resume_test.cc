// SPDX-License-Identifier: MIT
// Resume round trips: rollout -> resume -> the same next request bytes as the
// uninterrupted session; torn last lines; mismatched ids; replay of our own rollouts.
#include <gtest/gtest.h>

#include "protocol/json_codec.h"
#include "support/session_driver.h"

namespace agentctx {
namespace {

using testing::SessionDriver;

const std::string kConfig =
    R"({"session_id":"s-r","model":{"slug":"mock-1","instructions":"Be helpful."},)"
    R"("approval_policy":"never","sandbox":{"mode":"read-only"},"agents_md":{"refresh":"probe"},)"
    R"("environments":[{"id":"local","cwd":"/repo","shell":"bash","fs":"workspace"}]})";

void Seed(SessionDriver* d) {
  ASSERT_TRUE(d->fs()->AddDir("/repo/.git").has_value());
  ASSERT_TRUE(d->fs()->AddFile("/repo/AGENTS.md", "reply prefix: [r]").has_value());
  ASSERT_TRUE(d->fs()->AddFile("/repo/notes.txt", "a\nb\n").has_value());
}

std::string ResumeInput(const std::string& rollout) {
  return "{\"config\":" + kConfig + ",\"rollout\":" + JsonString(rollout) + ",\"now_ms\":5000}";
}

TEST(SessionResume, NextRequestMatchesTheUninterruptedSession) {
  SessionDriver original;
  Seed(&original);
  original.Start(kConfig);
  original.Submit("read notes.txt", 1000);
  original.Submit("thanks", 2000);
  std::string rollout = original.RolloutText();

  SessionDriver resumed;
  Seed(&resumed);
  auto env = ParseJson(resumed.Call("session.resume", ResumeInput(rollout)));
  ASSERT_TRUE(env->GetBool("ok").value_or(false)) << ToJson(*env);

  original.Submit("one more", 3000);
  resumed.Submit("one more", 3000);
  ASSERT_FALSE(resumed.request_bodies().empty());
  EXPECT_EQ(resumed.request_bodies().front(), original.request_bodies().back());
}

TEST(SessionResume, RemovedAgentsMdIsAnnouncedOnceAfterResume) {
  SessionDriver original;
  Seed(&original);
  original.Start(kConfig);
  original.Submit("hello", 1000);
  SessionDriver resumed;
  Seed(&resumed);
  ASSERT_TRUE(resumed.fs()->Remove("/repo/AGENTS.md").has_value());
  auto env = ParseJson(resumed.Call("session.resume", ResumeInput(original.RolloutText())));
  ASSERT_TRUE(env->GetBool("ok").value_or(false)) << ToJson(*env);
  resumed.Submit("again", 2000);
  resumed.Submit("and again", 3000);
  const std::string notice = "The previously provided AGENTS.md instructions no longer apply.";
  const std::string& last = resumed.request_bodies().back();
  std::size_t first = last.find(notice);
  ASSERT_NE(first, std::string::npos);
  EXPECT_EQ(last.find(notice, first + 1), std::string::npos);
}

TEST(SessionResume, TornLastLineWarnsAndResumes) {
  SessionDriver original;
  Seed(&original);
  original.Start(kConfig);
  original.Submit("hello", 1000);
  std::string rollout = original.RolloutText() + "{\"timestamp\":\"2026-";
  SessionDriver resumed;
  Seed(&resumed);
  std::string env = resumed.Call("session.resume", ResumeInput(rollout));
  EXPECT_NE(env.find("rollout_torn_line"), std::string::npos) << env;
  EXPECT_NE(env.find("\"ok\":true"), std::string::npos);
}

TEST(SessionResume, RejectsCorruptRolloutsAndOtherSessions) {
  SessionDriver original;
  Seed(&original);
  original.Start(kConfig);
  original.Submit("hello", 1000);
  std::string text = original.RolloutText();
  std::string corrupt = text;
  corrupt.insert(corrupt.find('\n') + 1, "not json\n");
  SessionDriver a;
  EXPECT_NE(a.Call("session.resume", ResumeInput(corrupt)).find("rollout_corrupt"),
            std::string::npos);
  SessionDriver b;
  std::string other = "{\"config\":" + kConfig +
                      ",\"rollout\":" + JsonString(text.substr(0, text.find('\n') + 1)) + "}";
  std::string replaced = other;
  replaced.replace(replaced.find("s-r"), 3, "zzz");
  EXPECT_NE(b.Call("session.resume", replaced).find("invalid_config"), std::string::npos);
  EXPECT_NE(b.Call("history", "{}").find("invalid_state"), std::string::npos);
}

TEST(SessionResume, ReplayReportsOurOwnRollout) {
  SessionDriver d;
  Seed(&d);
  d.Start(kConfig);
  d.Submit("read notes.txt", 1000);
  d.Submit("thanks", 2000);
  auto env = ParseJson(
      d.engine().Call(0, "rollout.inspect", "{\"text\":" + JsonString(d.RolloutText()) + "}"));
  ASSERT_TRUE(env->GetBool("ok").value_or(false)) << ToJson(*env);
  std::string report = ToJson(*env->Find("value")->Find("report"));
  EXPECT_EQ(report.find("item_edited"), std::string::npos) << report;
  EXPECT_FALSE(env->Find("value")->GetString("table").value_or("").empty());
}

}  // namespace
}  // namespace agentctx
