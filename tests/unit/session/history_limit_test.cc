// SPDX-License-Identifier: MIT
// The session's memory bound (config max_history_bytes): a response that would take the
// recorded history past it fails with session_too_large (not retryable, nothing of it recorded,
// the turn ends `failed`), a submit that would is refused before anything happens, and in both
// cases history is kept and the next turn that fits runs as usual. Without the bound a few
// maximal responses once trapped the WASI guest.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../compaction/compaction_session_util.h"
#include "protocol/json_codec.h"
#include "support/session_driver.h"

namespace agentctx {
namespace {

using compaction_test::AssistantJson;
using compaction_test::Config;
using compaction_test::Effects;
using compaction_test::Seed;
using compaction_test::Sse;
using testing::SessionDriver;

constexpr std::int64_t kLimit = 64 * 1024;

struct Bounded {
  Bounded() {
    Seed(&d);
    // A reply of `reply_bytes` bytes when set, else the mock's.
    d.respond = [this](const std::string& endpoint,
                       const std::string&) -> std::optional<std::string> {
      if (endpoint != "responses" || reply_bytes == 0) return std::nullopt;
      return Sse({AssistantJson(std::string(reply_bytes, 'r'))});
    };
    const std::string started =
        d.Start(Config("", ",\"max_history_bytes\":" + std::to_string(kLimit)));
    EXPECT_NE(started.find("\"ok\":true"), std::string::npos) << started;
  }
  std::string History() { return d.Call("history", "{}"); }

  SessionDriver d;
  std::size_t reply_bytes = 0;
};

TEST(HistoryLimit, AResponsePastTheBoundFailsClearlyAndTheSessionGoesOn) {
  Bounded b;
  b.d.Submit("first", 1000);
  const std::string after_first = b.History();
  ASSERT_NE(after_first.find("Mock reply to: first"), std::string::npos);

  b.reply_bytes = static_cast<std::size_t>(kLimit);  // alone as large as the bound
  auto effects = b.d.Submit("second", 2000);
  auto errors = Effects(effects, "error");
  ASSERT_EQ(errors.size(), 1u) << b.History();
  EXPECT_EQ(errors[0].GetString("code"), "session_too_large");
  EXPECT_EQ(errors[0].GetBool("retryable"), false);
  const std::string message(errors[0].GetString("message").value_or(""));
  EXPECT_NE(message.find("past max_history_bytes (65536)"), std::string::npos) << message;
  EXPECT_NE(message.find("nothing of it was recorded"), std::string::npos) << message;
  auto done = Effects(effects, "turn_complete");
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0].GetString("reason"), "failed");
  // History kept: everything before, and the turn's own message; no byte of the response.
  const std::string after_second = b.History();
  EXPECT_EQ(after_second.find("rrrrrrrr"), std::string::npos);
  EXPECT_NE(after_second.find("Mock reply to: first"), std::string::npos);
  EXPECT_NE(after_second.find("\"text\":\"second\""), std::string::npos);

  // The session stays usable: the next turn that fits completes.
  b.reply_bytes = 0;
  auto third = b.d.Submit("third", 3000);
  ASSERT_EQ(Effects(third, "turn_complete").size(), 1u);
  EXPECT_EQ(Effects(third, "turn_complete")[0].GetString("reason"), "completed");
  EXPECT_TRUE(Effects(third, "error").empty());
  EXPECT_NE(b.History().find("Mock reply to: third"), std::string::npos);
}

TEST(HistoryLimit, ASubmitPastTheBoundIsRefusedAndChangesNothing) {
  Bounded b;
  b.d.Submit("first", 1000);
  const std::string before = b.History();
  const std::size_t rollout_lines = b.d.rollout().size();
  const std::string refused =
      b.d.Call("submit", "{\"text\":" + JsonString(std::string(kLimit, 'u')) + ",\"now_ms\":2000}");
  auto parsed = ParseJson(refused);
  ASSERT_TRUE(parsed.has_value());
  const JsonValue* error = parsed->Find("error");
  ASSERT_NE(error, nullptr) << refused;
  EXPECT_EQ(error->GetString("code"), "session_too_large");
  EXPECT_NE(std::string(error->GetString("message").value_or("")).find("this message adds 65536"),
            std::string::npos)
      << refused;
  EXPECT_EQ(b.History(), before);
  EXPECT_EQ(b.d.rollout().size(), rollout_lines);
  auto next = b.d.Submit("next", 3000);
  ASSERT_EQ(Effects(next, "turn_complete").size(), 1u);
  EXPECT_EQ(Effects(next, "turn_complete")[0].GetString("reason"), "completed");
}

TEST(HistoryLimit, TheBoundIsAPositiveInteger) {
  for (const char* bad : {"0", "-1", "\"big\"", "1.5"}) {
    SessionDriver d;
    Seed(&d);
    const std::string started = d.Start(Config("", std::string(",\"max_history_bytes\":") + bad));
    EXPECT_NE(started.find("max_history_bytes must be an integer >= 1"), std::string::npos)
        << bad << ": " << started;
  }
}

}  // namespace
}  // namespace agentctx
