// SPDX-License-Identifier: MIT
// A 200-step mock session with a small context window: it compacts several times (pre-turn and
// mid-turn), keeps AGENTS.md and permissions after every compaction and keeps going; resuming
// its rollout in the middle gives the same request bodies as the uninterrupted run.
#include <gtest/gtest.h>

#include <ostream>

#include "compaction_session_util.h"

namespace agentctx {
namespace {

using compaction_test::Config;
using compaction_test::Effects;
using compaction_test::Events;
using compaction_test::SessionDriver;
using compaction_test::WarningCodes;

// Each turn: a read_file step and a reply step (plus a re-read when a mid-turn compaction
// dropped the output the mock was answering).
struct LongCase {
  const char* strategy;
  int turns;
};
// Readable test names and parameter printing (no raw bytes in ctest names).
void PrintTo(const LongCase& c, std::ostream* os) { *os << c.strategy << "/" << c.turns; }
constexpr int kResumedTurns = 10;  // turns compared after resuming

std::string LongConfig(const std::string& strategy) {
  return Config(R"(,"context_window":6000)",
                R"(,"compaction":{"strategy":")" + strategy + R"("},"max_steps_per_turn":4)");
}

void SeedLong(SessionDriver* d) {
  EXPECT_TRUE(d->fs()->AddDir("/repo/.git").has_value());
  EXPECT_TRUE(d->fs()->AddFile("/repo/AGENTS.md", "Keep answers short.").has_value());
  for (int f = 0; f < 10; ++f) {
    std::string text;
    for (int i = 1; i <= 30; ++i) {
      text += "file " + std::to_string(f) + " line " + std::to_string(i) + " with some words\n";
    }
    EXPECT_TRUE(d->fs()->AddFile("/repo/f" + std::to_string(f) + ".txt", text).has_value());
  }
}

std::string TurnText(int turn) {
  return "read f" + std::to_string(turn % 10) + ".txt now (turn " + std::to_string(turn) + ")";
}

struct TurnLog {
  std::size_t bodies_after = 0;   // request bodies issued up to the end of the turn
  std::size_t rollout_after = 0;  // rollout lines up to the end of the turn
  int compactions = 0;            // compactions completed in the turn
};

struct RunLog {
  std::vector<TurnLog> turns;
  std::vector<std::string> triggers;
  int steps = 0;
};

RunLog RunTurns(SessionDriver* d, int from, int to) {
  RunLog run;
  for (int t = from; t < to; ++t) {
    auto effects = d->Submit(TurnText(t), 1000 * (t + 1));
    auto done = Effects(effects, "turn_complete");
    EXPECT_EQ(done.size(), 1u) << "turn " << t;
    if (!done.empty()) {
      EXPECT_EQ(done[0].GetString("reason"), "completed") << "turn " << t;
    }
    EXPECT_TRUE(Effects(effects, "error").empty()) << "turn " << t;
    for (const auto& code : WarningCodes(effects)) {
      EXPECT_NE(code, "compaction_stalled") << "turn " << t;
      EXPECT_NE(code, "step_limit") << "turn " << t;
    }
    TurnLog log;
    for (const auto& e : Events(effects, "compaction")) {
      if (e.GetString("phase") == "completed") {
        ++log.compactions;
        run.triggers.emplace_back(*e.GetString("trigger"));
      }
    }
    for (const auto& r : Effects(effects, "model_request")) {
      if (r.GetString("purpose") == "turn") ++run.steps;
    }
    log.bodies_after = d->request_bodies().size();
    log.rollout_after = d->rollout().size();
    run.turns.push_back(log);
  }
  return run;
}

void CheckContextAfterCompactions(const SessionDriver& d, int turns) {
  std::size_t checked = 0;
  for (const auto& body : d.request_bodies()) {
    if (body.find("\"tool_choice\":\"auto\"") == std::string::npos) continue;  // compaction
    EXPECT_NE(body.find("<permissions instructions>"), std::string::npos);
    EXPECT_NE(body.find("# AGENTS.md instructions for /repo"), std::string::npos);
    EXPECT_NE(body.find("<environment_context>"), std::string::npos);
    ++checked;
  }
  EXPECT_GE(checked, static_cast<std::size_t>(2 * turns));
}

class LongSession : public ::testing::TestWithParam<LongCase> {};

TEST_P(LongSession, CompactsSeveralTimesKeepsGoingAndResumesIdentically) {
  const std::string strategy = GetParam().strategy;
  const int turns = GetParam().turns;
  SessionDriver a;
  SeedLong(&a);
  a.Start(LongConfig(strategy));
  RunLog run = RunTurns(&a, 0, turns);
  EXPECT_GE(run.steps, 2 * turns);
  EXPECT_GE(run.triggers.size(), 3u) << strategy;
  bool mid = false;
  for (const auto& t : run.triggers) mid = mid || t == "mid_turn";
  EXPECT_TRUE(mid) << strategy;
  CheckContextAfterCompactions(a, turns);
  auto stats = ParseJson(a.Call("stats", "{}"));
  EXPECT_EQ(stats->Find("value")->GetInt("compactions"),
            static_cast<std::int64_t>(run.triggers.size()));

  // Resume after the first turn past the middle that compacted: the next turns are
  // byte-identical.
  int cut = -1;
  for (int t = turns / 2; t < turns - kResumedTurns; ++t) {
    if (run.turns[static_cast<std::size_t>(t)].compactions > 0) {
      cut = t;
      break;
    }
  }
  ASSERT_GE(cut, 0);
  const TurnLog& at = run.turns[static_cast<std::size_t>(cut)];
  std::string rollout;
  for (std::size_t i = 0; i < at.rollout_after; ++i) rollout += a.rollout()[i] + "\n";
  SessionDriver b;
  SeedLong(&b);
  auto env = ParseJson(
      b.Call("session.resume", "{\"config\":" + LongConfig(strategy) +
                                   ",\"rollout\":" + JsonString(rollout) +
                                   ",\"now_ms\":" + std::to_string(1000 * (cut + 1)) + "}"));
  ASSERT_TRUE(env->GetBool("ok").value_or(false)) << ToJson(*env);
  RunTurns(&b, cut + 1, cut + 1 + kResumedTurns);
  const TurnLog& end = run.turns[static_cast<std::size_t>(cut + kResumedTurns)];
  std::vector<std::string> expected(
      a.request_bodies().begin() + static_cast<long>(at.bodies_after),
      a.request_bodies().begin() + static_cast<long>(end.bodies_after));
  ASSERT_EQ(b.request_bodies().size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    ASSERT_EQ(b.request_bodies()[i], expected[i]) << strategy << " request " << i;
  }
}

// 100 local turns = 200+ steps; shorter remote and in-band runs.
INSTANTIATE_TEST_SUITE_P(Strategies, LongSession,
                         ::testing::Values(LongCase{"local", 100}, LongCase{"remote", 40},
                                           LongCase{"inband", 40}),
                         [](const ::testing::TestParamInfo<LongCase>& info) {
                           return std::string(info.param.strategy);
                         });

}  // namespace
}  // namespace agentctx
