// SPDX-License-Identifier: MIT
// Tests for rollout timestamps: formatting and parsing, before and after 1970.
#include "rollout/timestamp.h"

#include <gtest/gtest.h>

namespace agentctx {
namespace {

TEST(RolloutTimestamp, SpecVectors) {
  EXPECT_EQ(FormatTimestamp(0), "1970-01-01T00:00:00.000Z");
  EXPECT_EQ(FormatTimestamp(1767225600123), "2026-01-01T00:00:00.123Z");
}

TEST(RolloutTimestamp, CalendarEdges) {
  EXPECT_EQ(FormatTimestamp(951782400000), "2000-02-29T00:00:00.000Z");   // leap day, 400-rule
  EXPECT_EQ(FormatTimestamp(4107542400000), "2100-03-01T00:00:00.000Z");  // 2100 not leap
  EXPECT_EQ(FormatTimestamp(1709251199999), "2024-02-29T23:59:59.999Z");
  EXPECT_EQ(FormatTimestamp(1735689599999), "2024-12-31T23:59:59.999Z");
  EXPECT_EQ(FormatTimestamp(253402300799999), "9999-12-31T23:59:59.999Z");
}

TEST(RolloutTimestamp, BeforeEpoch) {
  EXPECT_EQ(FormatTimestamp(-1), "1969-12-31T23:59:59.999Z");
  EXPECT_EQ(FormatTimestamp(-86400000), "1969-12-31T00:00:00.000Z");
}

TEST(RolloutTimestamp, ParseIsTheInverse) {
  for (std::int64_t t : {std::int64_t{0}, std::int64_t{1767225600123}, std::int64_t{951782400000},
                         std::int64_t{4107542400000}, std::int64_t{253402300799999},
                         std::int64_t{-1}, std::int64_t{-86400000}}) {
    EXPECT_EQ(ParseTimestamp(FormatTimestamp(t)), t) << FormatTimestamp(t);
  }
}

TEST(RolloutTimestamp, ParseFractionsAndRejects) {
  // Codex writes milliseconds; other writers use none or more digits.
  EXPECT_EQ(ParseTimestamp("2026-01-01T00:00:00Z"), 1767225600000);
  EXPECT_EQ(ParseTimestamp("2026-01-01T00:00:00.5Z"), 1767225600500);
  EXPECT_EQ(ParseTimestamp("2026-01-01T00:00:00.123456789Z"), 1767225600123);
  for (const char* bad :
       {"", "2026-01-01", "2026-01-01T00:00:00.000", "2026-13-01T00:00:00Z", "2026-01-01T24:00:00Z",
        "2026-01-01T00:00:00.Z", "2026-01-01T00:00:00.12aZ", "2026-01-01 00:00:00Z",
        "2026-01-01T00:00:00+01:00"}) {
    EXPECT_FALSE(ParseTimestamp(bad).has_value()) << bad;
  }
}

}  // namespace
}  // namespace agentctx
