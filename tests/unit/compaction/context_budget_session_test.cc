// SPDX-License-Identifier: MIT
// The opt-in `<context_budget>` block through the Engine facade (docs/context-budget.md): shown
// at a turn start when usage entered a new 10 % band since it was last shown, never mid-turn, not
// at all when off or without a context window, and fresh after a compaction.
#include <gtest/gtest.h>

#include <memory>

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

std::size_t Count(const std::string& haystack, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t at = haystack.find(needle); at != std::string::npos;
       at = haystack.find(needle, at + 1)) {
    ++n;
  }
  return n;
}

// Answers turn requests with the usage in `*input_tokens` (changeable between turns).
std::shared_ptr<std::uint64_t> ScriptUsage(SessionDriver* d, std::uint64_t first) {
  auto tokens = std::make_shared<std::uint64_t>(first);
  d->respond = [tokens](const std::string& endpoint,
                        const std::string& body) -> std::optional<std::string> {
    if (endpoint != "responses" || IsSummaryRequest(endpoint, body)) return std::nullopt;
    return Sse({AssistantJson("ok")}, *tokens, 10);
  };
  return tokens;
}

const std::string kBudgetOn = R"(,"context_budget":{"enabled":true})";

TEST(ContextBudgetSession, ShownWhenANewBandIsReachedAndNotRepeatedWithinIt) {
  SessionDriver d;
  Seed(&d);
  auto tokens = ScriptUsage(&d, 25000);
  d.Start(Config(R"(,"context_window":100000)", kBudgetOn));
  d.Submit("one", 1000);  // usage unknown yet: the estimate is tiny, below 10 %
  EXPECT_EQ(Count(d.request_bodies().back(), "<context_budget>"), 0u);
  *tokens = 26000;
  d.Submit("two", 2000);  // 25010 + a little: band 2, shown
  const std::string& second = d.request_bodies().back();
  EXPECT_EQ(Count(second, "<context_budget>"), 1u);
  EXPECT_NE(second.find("Context in use: 250"), std::string::npos);
  EXPECT_NE(second.find(" of 100000 tokens (25%). Automatic compaction at 90000 tokens."),
            std::string::npos);
  *tokens = 41000;
  d.Submit("three", 3000);  // still band 2 at this turn's start: not repeated
  EXPECT_EQ(Count(d.request_bodies().back(), "<context_budget>"), 1u);
  d.Submit("four", 4000);  // 41010: band 4, shown again
  const std::string& fourth = d.request_bodies().back();
  EXPECT_EQ(Count(fourth, "<context_budget>"), 2u);
  EXPECT_NE(fourth.find("tokens (41%)"), std::string::npos);
  // Persisted in the world state.
  auto state = ParseJson(d.Call("world_state", "{}"));
  EXPECT_EQ(state->Find("value")->Find("context_budget")->GetInt("band"), 4);
}

TEST(ContextBudgetSession, NeverAppendedMidTurn) {
  SessionDriver d;
  Seed(&d);
  d.Start(Config(R"(,"context_window":2000)", kBudgetOn));
  d.Submit("hello", 1000);
  auto effects = d.Submit("please read notes.txt", 2000);  // a read_file step, then a reply
  ASSERT_GE(d.request_bodies().size(), 3u);
  const std::string& last = d.request_bodies().back();
  const std::string& before = d.request_bodies()[d.request_bodies().size() - 2];
  EXPECT_EQ(Count(last, "<context_budget>"), Count(before, "<context_budget>"));
}

TEST(ContextBudgetSession, OffByDefaultAndNeedsAWindow) {
  SessionDriver off;
  Seed(&off);
  ScriptUsage(&off, 50000);
  off.Start(Config(R"(,"context_window":100000)"));
  off.Submit("one", 1000);
  off.Submit("two", 2000);
  EXPECT_EQ(off.request_bodies().back().find("context_budget"), std::string::npos);

  SessionDriver no_window;
  Seed(&no_window);
  ScriptUsage(&no_window, 50000);
  no_window.Start(Config("", kBudgetOn));
  no_window.Submit("one", 1000);
  no_window.Submit("two", 2000);
  EXPECT_EQ(no_window.request_bodies().back().find("context_budget"), std::string::npos);
}

TEST(ContextBudgetSession, AfterACompactionTheNextTurnShowsTheNewUsage) {
  SessionDriver d;
  Seed(&d);
  auto tokens = ScriptUsage(&d, 50000);
  d.Start(Config(R"(,"context_window":100000)", kBudgetOn));
  d.Submit("one", 1000);
  d.Submit("two", 2000);  // band 5 shown
  ASSERT_EQ(Count(d.request_bodies().back(), "<context_budget>"), 1u);
  *tokens = 12000;
  d.Compact(3000);
  d.Submit("three", 4000);  // estimate after the compaction: far below 10 % -> nothing
  EXPECT_EQ(Count(d.request_bodies().back(), "<context_budget>"), 0u);
  d.Submit("four", 5000);  // the reported 12010: band 1
  const std::string& body = d.request_bodies().back();
  EXPECT_EQ(Count(body, "<context_budget>"), 1u);
  EXPECT_NE(body.find("tokens (12%)"), std::string::npos);
}

}  // namespace
}  // namespace agentctx
