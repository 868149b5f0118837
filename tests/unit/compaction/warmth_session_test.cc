// SPDX-License-Identifier: MIT
// Warmth-aware compaction through the Engine facade (docs/compaction-timing.md): a session idle
// past the cache TTL at 70 % usage compacts at the next turn start, with the decision and its
// reason in both compaction events and in cache_summary; one that does not idle does not; below
// the soft limit nothing happens; the hard limit still forces it; resume restores the previous
// request's time.
#include <gtest/gtest.h>

#include "compaction_session_util.h"

namespace agentctx {
namespace {

using compaction_test::AssistantJson;
using compaction_test::Config;
using compaction_test::Events;
using compaction_test::IsSummaryRequest;
using compaction_test::Seed;
using compaction_test::SessionDriver;
using compaction_test::Sse;

constexpr std::int64_t kTtl = 300000;

// Turn answers report `input_tokens` of usage (window 100000); summaries come from the mock.
void ScriptUsage(SessionDriver* d, std::uint64_t input_tokens) {
  d->respond = [input_tokens](const std::string& endpoint,
                              const std::string& body) -> std::optional<std::string> {
    if (endpoint != "responses" || IsSummaryRequest(endpoint, body)) return std::nullopt;
    return Sse({AssistantJson("ok")}, input_tokens, 10);
  };
}

std::string WindowConfig(const std::string& compaction = "") {
  return Config(R"(,"context_window":100000)", compaction);
}

TEST(WarmthSession, IdlePastTheTtlAtSeventyPercentCompactsAtTheNextTurnStart) {
  SessionDriver d;
  Seed(&d);
  ScriptUsage(&d, 70000);
  d.Start(WindowConfig());
  d.Submit("first", 1000);
  auto effects = d.Submit("after a long break", 1000 + kTtl + 1);
  auto compaction = Events(effects, "compaction");
  ASSERT_EQ(compaction.size(), 2u);
  for (const JsonValue& e : compaction) {
    EXPECT_EQ(e.GetString("trigger"), "pre_turn");
    EXPECT_EQ(e.GetString("reason"), "cache_cold");
    EXPECT_EQ(e.GetInt("idle_ms"), kTtl + 1);
    EXPECT_EQ(e.GetInt("cache_ttl_ms"), kTtl);
    EXPECT_EQ(e.GetInt("soft_limit_tokens"), 60000);
    EXPECT_GE(*e.GetInt("context_tokens"), 70010);
  }
  // The compaction ran before the turn's input: the turn's request comes after the summary.
  ASSERT_GE(d.request_bodies().size(), 3u);
  EXPECT_TRUE(IsSummaryRequest("responses", d.request_bodies()[1]));
  EXPECT_NE(d.request_bodies()[2].find("after a long break"), std::string::npos);
  auto summary = ParseJson(d.Call("cache_summary", "{}"));
  const JsonValue* decisions = summary->Find("value")->Find("compaction_decisions");
  ASSERT_NE(decisions, nullptr) << ToJson(*summary);
  ASSERT_EQ(decisions->items().size(), 1u);
  EXPECT_EQ(decisions->items()[0].GetString("reason"), "cache_cold");
  EXPECT_EQ(decisions->items()[0].GetString("trigger"), "pre_turn");
}

TEST(WarmthSession, WithoutIdlingThereIsNoCompaction) {
  SessionDriver d;
  Seed(&d);
  ScriptUsage(&d, 70000);
  d.Start(WindowConfig());
  d.Submit("first", 1000);
  auto effects = d.Submit("right away", 1000 + kTtl);  // still warm: live while idle <= ttl
  EXPECT_TRUE(Events(effects, "compaction").empty());
  auto summary = ParseJson(d.Call("cache_summary", "{}"));
  EXPECT_EQ(summary->Find("value")->Find("compaction_decisions"), nullptr);
}

TEST(WarmthSession, BelowTheSoftLimitIdlingChangesNothing) {
  SessionDriver d;
  Seed(&d);
  ScriptUsage(&d, 50000);
  d.Start(WindowConfig());
  d.Submit("first", 1000);
  EXPECT_TRUE(Events(d.Submit("much later", 10 * kTtl), "compaction").empty());
}

TEST(WarmthSession, ZeroTtlTurnsTheRuleOffAndASoftLimitMovesIt) {
  SessionDriver off;
  Seed(&off);
  ScriptUsage(&off, 70000);
  off.Start(WindowConfig(R"(,"compaction":{"cache_ttl_ms":0})"));
  off.Submit("first", 1000);
  EXPECT_TRUE(Events(off.Submit("much later", 10 * kTtl), "compaction").empty());

  SessionDriver high;
  Seed(&high);
  ScriptUsage(&high, 70000);
  high.Start(WindowConfig(R"(,"compaction":{"soft_limit_bp":8000})"));
  high.Submit("first", 1000);
  EXPECT_TRUE(Events(high.Submit("much later", 10 * kTtl), "compaction").empty());
}

TEST(WarmthSession, TheHardLimitStillForcesACompactionWithoutAReason) {
  SessionDriver d;
  Seed(&d);
  ScriptUsage(&d, 95000);
  d.Start(WindowConfig());
  d.Submit("first", 1000);
  auto compaction = Events(d.Submit("right away", 2000), "compaction");
  ASSERT_EQ(compaction.size(), 2u);
  EXPECT_EQ(compaction[0].GetString("trigger"), "pre_turn");
  EXPECT_EQ(compaction[0].Find("reason"), nullptr);
}

TEST(WarmthSession, ResumeKnowsWhenTheLastRequestWas) {
  SessionDriver d;
  Seed(&d);
  ScriptUsage(&d, 70000);
  d.Start(WindowConfig());
  d.Submit("first", 1000);
  const std::string rollout = d.RolloutText();
  for (std::int64_t later : {std::int64_t{2000}, 1000 + kTtl + 5000}) {
    SessionDriver resumed;
    Seed(&resumed);
    ScriptUsage(&resumed, 70000);
    auto env = ParseJson(resumed.Call(
        "session.resume", "{\"config\":" + WindowConfig() + ",\"rollout\":" + JsonString(rollout) +
                              ",\"now_ms\":" + std::to_string(later) + "}"));
    ASSERT_TRUE(env->GetBool("ok").value_or(false)) << ToJson(*env);
    auto compaction = Events(resumed.Submit("back again", later), "compaction");
    if (later == 2000) {
      EXPECT_TRUE(compaction.empty());
    } else {
      ASSERT_EQ(compaction.size(), 2u);
      EXPECT_EQ(compaction[0].GetString("reason"), "cache_cold");
      EXPECT_EQ(compaction[0].GetInt("idle_ms"), kTtl + 5000);
    }
  }
}

TEST(WarmthSession, ConfigIsValidated) {
  for (const char* bad :
       {R"(,"compaction":{"soft_limit_bp":0})", R"(,"compaction":{"soft_limit_bp":10001})",
        R"(,"compaction":{"cache_ttl_ms":-1})"}) {
    SessionDriver d;
    auto env = ParseJson(d.Start(WindowConfig(bad)));
    EXPECT_EQ(env->Find("error")->GetString("code"), "invalid_config") << bad;
  }
}

}  // namespace
}  // namespace agentctx
