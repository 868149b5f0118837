// SPDX-License-Identifier: MIT
// ParseTimestamp (ours): the inverse of FormatTimestamp, and what it refuses.
#include <gtest/gtest.h>

#include "rollout/timestamp.h"

namespace agentctx {
namespace {

TEST(RolloutTimestampParse, InvertsFormatTimestamp) {
  for (std::int64_t ms : {std::int64_t{0}, std::int64_t{1}, std::int64_t{86399999},
                          std::int64_t{951782400000},        // 2000-02-29
                          std::int64_t{1772064000123},       // 2026-02-26
                          std::int64_t{4102444799999},       // 2099-12-31T23:59:59.999
                          std::int64_t{253402300799999}}) {  // 9999-12-31
    EXPECT_EQ(ParseTimestamp(FormatTimestamp(ms)), ms) << FormatTimestamp(ms);
  }
  EXPECT_EQ(ParseTimestamp("2026-01-01T00:00:01.000Z"), 1767225601000);
}

TEST(RolloutTimestampParse, RejectsOtherShapes) {
  for (const char* bad :
       {"", "2026-01-01 00:00:01.000Z", "2026-13-01T00:00:01.000Z", "2026-02-29T00:00:01.000Z",
        "2026-01-32T00:00:01.000Z", "2026-01-01T24:00:00.000Z", "2026-01-01T00:60:00.000Z",
        "2026-01-01T00:00:60.000Z", "2026-01-01T00:00:01.00aZ", "2026-01-01T00:00:01.000+",
        "+2026-01-01T00:00:01.000"}) {
    EXPECT_FALSE(ParseTimestamp(bad).has_value()) << bad;
  }
  EXPECT_TRUE(ParseTimestamp("2024-02-29T12:00:00.000Z").has_value());
  // Codex writes other fraction lengths (or none): accepted, to the millisecond.
  EXPECT_EQ(ParseTimestamp("2026-01-01T00:00:01Z"), 1767225601000);
  EXPECT_EQ(ParseTimestamp("2026-01-01T00:00:01.123456Z"), 1767225601123);
}

}  // namespace
}  // namespace agentctx
