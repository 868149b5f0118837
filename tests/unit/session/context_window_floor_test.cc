// SPDX-License-Identifier: MIT
// A context window whose auto-compaction limit is at or below what no compaction removes (the
// instructions, the tools and the full initial context) gets one `context_window_too_small`
// warning naming both numbers, at the first turn start that sees it, once per session; a window
// with room, or none at all, gets none.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "support/session_driver.h"

namespace agentctx {
namespace {

using testing::SessionDriver;

// 20 000 bytes of instructions: 5 000 tokens on their own.
const std::string kLongInstructions(20000, 'x');

std::string Config(const std::string& model_extra) {
  return R"({"session_id":"floor-1","model":{"slug":"mock-1","instructions":")" +
         kLongInstructions + "\"" + model_extra +
         R"(},"approval_policy":"never","sandbox":{"mode":"read-only"},)"
         R"("environments":[{"id":"local","cwd":"/repo","shell":"bash","fs":"workspace"}]})";
}

std::vector<const JsonValue*> FloorWarnings(const std::vector<JsonValue>& effects) {
  std::vector<const JsonValue*> out;
  for (const JsonValue& e : effects) {
    const JsonValue* event = e.Find("event");
    if (e.GetString("type") == "event" && event != nullptr &&
        event->GetString("type") == "warning" &&
        event->GetString("code") == "context_window_too_small") {
      out.push_back(event);
    }
  }
  return out;
}

// The number after `marker` in `text` (0 when absent).
std::uint64_t NumberAfter(const std::string& text, const std::string& marker) {
  std::size_t at = text.find(marker);
  if (at == std::string::npos) return 0;
  return std::stoull(text.substr(at + marker.size()));
}

class ContextWindowFloor : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(d.fs()->AddFile("/repo/AGENTS.md", "Keep answers short.\n").has_value());
  }
  SessionDriver d;
};

TEST_F(ContextWindowFloor, ALimitBelowTheFloorWarnsOnceNamingBothNumbers) {
  d.Start(Config(R"(,"context_window":4000)"));
  std::vector<JsonValue> first = d.Submit("one", 10);
  std::vector<const JsonValue*> warnings = FloorWarnings(first);
  ASSERT_EQ(warnings.size(), 1u);
  const std::string message(warnings[0]->GetString("message").value_or(""));
  // auto_limit = min(none, 4000·9/10).
  EXPECT_EQ(NumberAfter(message, "the auto-compaction limit is "), 3600u) << message;
  EXPECT_NE(message.find("model.context_window 4000"), std::string::npos) << message;
  // The floor: the instructions' 5 000 tokens, plus the built-in tools and the context.
  const std::uint64_t floor = NumberAfter(message, "already take about ");
  EXPECT_GT(floor, 5000u) << message;
  EXPECT_LT(floor, 20000u) << message;
  // Later turns (which compact without getting under the limit) do not say it again.
  EXPECT_TRUE(FloorWarnings(d.Submit("two", 20)).empty());
  EXPECT_TRUE(FloorWarnings(d.Submit("three", 30)).empty());
}

TEST_F(ContextWindowFloor, TheConfiguredAutoLimitIsTheOneCompared) {
  // A large window, but an auto-compaction limit below the instructions alone.
  d.Start(Config(R"(,"context_window":200000,"auto_compact_token_limit":3000)"));
  std::vector<JsonValue> effects = d.Submit("one", 10);
  std::vector<const JsonValue*> warnings = FloorWarnings(effects);
  ASSERT_EQ(warnings.size(), 1u);
  const std::string message(warnings[0]->GetString("message").value_or(""));
  EXPECT_EQ(NumberAfter(message, "the auto-compaction limit is "), 3000u) << message;
  EXPECT_NE(message.find("model.context_window 200000"), std::string::npos) << message;
}

TEST_F(ContextWindowFloor, AWindowWithRoomOrNoWindowSaysNothing) {
  d.Start(Config(R"(,"context_window":200000)"));
  EXPECT_TRUE(FloorWarnings(d.Submit("one", 10)).empty());
  EXPECT_TRUE(FloorWarnings(d.Submit("two", 20)).empty());

  SessionDriver none;
  none.Start(Config(""));
  EXPECT_TRUE(FloorWarnings(none.Submit("one", 10)).empty());
}

TEST_F(ContextWindowFloor, AnUpdateThatShrinksTheWindowWarnsAtTheNextTurnOnlyOnce) {
  d.Start(Config(R"(,"context_window":200000)"));
  EXPECT_TRUE(FloorWarnings(d.Submit("one", 10)).empty());
  // The warning comes with the next turn start, not with the update itself.
  EXPECT_TRUE(FloorWarnings(d.Update(R"({"model":{"context_window":4000}})", 15)).empty());
  EXPECT_EQ(FloorWarnings(d.Submit("two", 20)).size(), 1u);
  // Once per session: a later, even smaller window is not reported again.
  d.Update(R"({"model":{"context_window":3000}})", 25);
  EXPECT_TRUE(FloorWarnings(d.Submit("three", 30)).empty());
}

}  // namespace
}  // namespace agentctx
