// SPDX-License-Identifier: MIT
// Tests for the tolerant rollout reader (rollout_reader.h): line splitting, torn last lines,
// corrupt middle lines, blank lines and a leading BOM.
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

TEST(RolloutReader, NonObjectLinesAreInvalid) {
  auto parsed = ParseRollout(Line(1) + "\n[1]\n" + Line(3));
  ASSERT_FALSE(parsed.has_value());
  EXPECT_NE(parsed.error().message.find("line 2"), std::string::npos);
  EXPECT_EQ(parsed.error().details[0].second, "2");
}

TEST(Regression, BlankRolloutLinesAreSkippedWithOneWarning) {
  // An empty line, a whitespace-only one and a CRLF blank in the middle, and one at the end.
  auto parsed = ParseRollout(Line(1) + "\n\n" + Line(3) + "\n \t \n\r\n" + Line(6) + "\n  \n");
  ASSERT_TRUE(parsed.has_value()) << parsed.error().message;
  ASSERT_EQ(parsed->records.size(), 3u);
  EXPECT_EQ(parsed->records[0].line_number, 1u);
  EXPECT_EQ(parsed->records[1].line_number, 3u);
  EXPECT_EQ(parsed->records[2].line_number, 6u);
  ASSERT_EQ(parsed->warnings.size(), 1u);
  EXPECT_EQ(ToWire(parsed->warnings[0].code), "rollout_blank_line");
  EXPECT_EQ(parsed->warnings[0].message, "skipped 4 blank rollout lines (first: line 2)");
  // One blank line: singular.
  parsed = ParseRollout(Line(1) + "\n\n" + Line(3) + "\n");
  ASSERT_TRUE(parsed.has_value());
  ASSERT_EQ(parsed->warnings.size(), 1u);
  EXPECT_EQ(parsed->warnings[0].message, "skipped 1 blank rollout line (line 2)");
  // A torn last line after a blank one is still the torn last line.
  parsed = ParseRollout(Line(1) + "\n\n" + R"({"timestamp":"2026-)");
  ASSERT_TRUE(parsed.has_value());
  ASSERT_EQ(parsed->warnings.size(), 2u);
  EXPECT_EQ(ToWire(parsed->warnings[0].code), "rollout_torn_line");
  EXPECT_EQ(ToWire(parsed->warnings[1].code), "rollout_blank_line");
  // An invalid middle line is still corrupt, named by its physical line number.
  parsed = ParseRollout(Line(1) + "\n\n{not json\n" + Line(4));
  ASSERT_FALSE(parsed.has_value());
  EXPECT_EQ(parsed.error().details[0].second, "3");
}

TEST(Regression, ALeadingUtf8BomIsDropped) {
  auto parsed = ParseRollout("\xEF\xBB\xBF" + Line(1) + "\n" + Line(2) + "\n");
  ASSERT_TRUE(parsed.has_value()) << parsed.error().message;
  ASSERT_EQ(parsed->records.size(), 2u);
  EXPECT_EQ(parsed->records[0].line_number, 1u);
  EXPECT_TRUE(parsed->warnings.empty());
  // A BOM alone is an empty rollout.
  parsed = ParseRollout("\xEF\xBB\xBF");
  ASSERT_TRUE(parsed.has_value());
  EXPECT_TRUE(parsed->records.empty());
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
