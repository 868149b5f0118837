// SPDX-License-Identifier: MIT
// Torn rollouts: a host that crashed mid-write leaves a partial last
// line. Resume skips it with one `rollout_torn_line` warning and continues exactly as from the
// rollout without it; an invalid line anywhere else is `rollout_corrupt` naming the line.
#include <gtest/gtest.h>

#include <string>

#include "protocol/json_codec.h"
#include "support/session_driver.h"

namespace agentctx {
namespace {

using testing::SessionDriver;

const char* const kConfig =
    R"({"session_id":"tr-1","model":{"slug":"mock-1","instructions":"Be helpful."},)"
    R"("approval_policy":"never","sandbox":{"mode":"read-only"},"agents_md":{"refresh":"probe"},)"
    R"("environments":[{"id":"local","cwd":"/repo","shell":"bash","fs":"workspace"}]})";

void Seed(SessionDriver* d) {
  ASSERT_TRUE(d->fs()->AddFile("/repo/AGENTS.md", "reply prefix: [t]").has_value());
  ASSERT_TRUE(d->fs()->AddFile("/repo/notes.txt", "a\nb\nc\n").has_value());
}

std::string ResumeInput(const std::string& rollout) {
  return std::string("{\"config\":") + kConfig + ",\"rollout\":" + JsonString(rollout) +
         ",\"now_ms\":9000}";
}

// The original session's rollout: two turns, one with a tool call.
std::string Rollout() {
  SessionDriver d;
  Seed(&d);
  d.Start(kConfig);
  d.Submit("read notes.txt", 1000);
  d.Submit("thanks", 2000);
  return d.RolloutText();
}

// Resumes `rollout`, submits one more turn; returns the start envelope and the first body.
std::pair<std::string, std::string> ResumeAndSubmit(const std::string& rollout) {
  SessionDriver d;
  Seed(&d);
  std::string env = d.Call("session.resume", ResumeInput(rollout));
  if (env.find("\"ok\":true") == std::string::npos) return {env, ""};
  d.Submit("one more", 10000);
  return {env, d.request_bodies().empty() ? "" : d.request_bodies().front()};
}

TEST(SessionTornRollout, PartialLastLineIsSkippedWithAWarning) {
  std::string rollout = Rollout();
  auto [clean_env, clean_body] = ResumeAndSubmit(rollout);
  ASSERT_NE(clean_body, "") << clean_env;
  EXPECT_EQ(clean_env.find("rollout_torn_line"), std::string::npos);

  // A crash while appending the next line: every prefix of a line is torn the same way.
  const std::string next_line =
      R"({"timestamp":"1970-01-01T00:00:03.000Z","type":"event_msg","payload":{"type":"task_started","turn_id":"turn-3"}})";
  for (std::size_t n : {std::size_t{1}, std::size_t{14}, std::size_t{40}, next_line.size() - 1}) {
    auto [env, body] = ResumeAndSubmit(rollout + next_line.substr(0, n));
    EXPECT_NE(env.find("\"code\":\"rollout_torn_line\""), std::string::npos) << env;
    EXPECT_EQ(body, clean_body) << "torn after " << n << " bytes";
  }
}

TEST(SessionTornRollout, TornFinalResponseItemLosesOnlyThatItem) {
  std::string rollout = Rollout();
  // Cut the last line in half (no trailing LF): it is skipped, everything before it is kept.
  std::string without_last = rollout.substr(0, rollout.rfind('\n', rollout.size() - 2) + 1);
  std::string last = rollout.substr(without_last.size());
  auto [clean_env, clean_body] = ResumeAndSubmit(without_last);
  ASSERT_NE(clean_body, "") << clean_env;
  auto [env, body] = ResumeAndSubmit(without_last + last.substr(0, last.size() / 2));
  EXPECT_NE(env.find("rollout_torn_line"), std::string::npos) << env;
  EXPECT_EQ(body, clean_body);
}

TEST(SessionTornRollout, InvalidLineBeforeTheEndIsCorruptWithItsLineNumber) {
  std::string rollout = Rollout();
  std::size_t second_line = rollout.find('\n') + 1;
  std::size_t third_line = rollout.find('\n', second_line) + 1;
  std::string corrupt =
      rollout.substr(0, third_line) + "{\"timestamp\":\"2026-\n" + rollout.substr(third_line);
  SessionDriver d;
  Seed(&d);
  auto env = ParseJson(d.Call("session.resume", ResumeInput(corrupt)));
  EXPECT_EQ(env->GetBool("ok"), false);
  EXPECT_EQ(env->Find("error")->GetString("code"), "rollout_corrupt");
  EXPECT_EQ(env->Find("error")->GetString("message").value_or("").substr(0, 21),
            "rollout line 3 is inv")
      << ToJson(*env);
  // Nothing was created on the handle.
  EXPECT_NE(d.Call("history", "{}").find("invalid_state"), std::string::npos);
}

}  // namespace
}  // namespace agentctx
