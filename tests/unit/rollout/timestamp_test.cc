// SPDX-License-Identifier: MIT
// Tests for rollout timestamps (SPEC §13 test vectors).
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

}  // namespace
}  // namespace agentctx
