// SPDX-License-Identifier: MIT
// Tests for the tolerant rollout reader (SPEC §13.3 step 1 and its test vectors).
#include "rollout/rollout_reader.h"

#include <gtest/gtest.h>

#include <string>

namespace agentctx {
namespace {

std::string Line(int n) {
  return R"({"timestamp":"2026-01-01T00:00:00.000Z","type":"event_msg","payload":{"type":"x","n":)" +
         std::to_string(n) + "}}";
}

TEST(RolloutReader, SplitsLinesAndIgnoresEmptyFinalSegment) {
  auto parsed = ParseRollout(Line(1) + "\n" + Line(2) + "\n");
  ASSERT_TRUE(parsed.has_value()) << parsed.error().message;
  ASSERT_EQ(parsed->records.size(), 2u);
  EXPECT_EQ(parsed->records[1].line_number, 2u);
  EXPECT_EQ(parsed->records[1].type(), "event_msg");
  EXPECT_EQ(parsed->records[1].event_type(), "x");
  EXPECT_EQ(parsed->records[1].payload()->GetInt("n"), 2);
  EXPECT_TRUE(parsed->warnings.empty());
  // No final LF: the last line still counts.
  parsed = ParseRollout(Line(1) + "\n" + Line(2));
  ASSERT_TRUE(parsed.has_value());
  EXPECT_EQ(parsed->records.size(), 2u);
  parsed = ParseRollout("");
  ASSERT_TRUE(parsed.has_value());
  EXPECT_TRUE(parsed->records.empty());
}

TEST(RolloutReader, StripsCrBeforeLf) {
  auto parsed = ParseRollout(Line(1) + "\r\n" + Line(2) + "\r\n");
  ASSERT_TRUE(parsed.has_value());
  ASSERT_EQ(parsed->records.size(), 2u);
  EXPECT_TRUE(parsed->warnings.empty());
}

TEST(RolloutReader, TornLastLineIsSkippedWithWarning) {
  auto parsed = ParseRollout(Line(1) + "\n" + Line(2) + "\n" + R"({"timestamp":"2026-)");
  ASSERT_TRUE(parsed.has_value());
  EXPECT_EQ(parsed->records.size(), 2u);
  ASSERT_EQ(parsed->warnings.size(), 1u);
  EXPECT_EQ(ToWire(parsed->warnings[0].code), "rollout_torn_line");
  // Also when the torn line is followed by LF.
  parsed = ParseRollout(Line(1) + "\n" + R"({"timestamp":"2026-)" + "\n");
  ASSERT_TRUE(parsed.has_value());
  EXPECT_EQ(parsed->records.size(), 1u);
  EXPECT_EQ(parsed->warnings.size(), 1u);
}

TEST(RolloutReader, InvalidMiddleLineIsCorrupt) {
  std::string text;
  for (int i = 1; i <= 10; ++i) text += (i == 3 ? std::string("{not json") : Line(i)) + "\n";
  auto parsed = ParseRollout(text);
  ASSERT_FALSE(parsed.has_value());
  EXPECT_EQ(parsed.error().code, ErrorCode::kRolloutCorrupt);
  EXPECT_NE(parsed.error().message.find("rollout line 3 "), std::string::npos)
      << parsed.error().message;
  ASSERT_EQ(parsed.error().details.size(), 1u);
  EXPECT_EQ(parsed.error().details[0].first, "line");
  EXPECT_EQ(parsed.error().details[0].second, "3");
}

TEST(RolloutReader, NonObjectAndBlankLinesAreInvalid) {
  auto parsed = ParseRollout(Line(1) + "\n[1]\n" + Line(3));
  ASSERT_FALSE(parsed.has_value());
  EXPECT_NE(parsed.error().message.find("line 2"), std::string::npos);
  parsed = ParseRollout(Line(1) + "\n\n" + Line(3));
  ASSERT_FALSE(parsed.has_value());
  EXPECT_EQ(parsed.error().details[0].second, "2");
}

TEST(RolloutReader, UnknownTypesAndFieldsAreKept) {
  auto parsed = ParseRollout(
      R"({"ordinal":7,"timestamp":"t","type":"future_thing","payload":{"a":1},"extra":true})"
      "\n"
      R"({"record_type":"state"})");
  ASSERT_TRUE(parsed.has_value());
  ASSERT_EQ(parsed->records.size(), 2u);
  EXPECT_EQ(parsed->records[0].type(), "future_thing");
  EXPECT_EQ(parsed->records[0].event_type(), "");
  EXPECT_EQ(parsed->records[1].type(), "");
  EXPECT_EQ(parsed->records[1].payload(), nullptr);
}

}  // namespace
}  // namespace agentctx
