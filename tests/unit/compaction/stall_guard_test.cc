// SPDX-License-Identifier: MIT
// Stall guard vectors: freed_bp and the compaction_stalled text.
#include "compaction/stall_guard.h"

#include <gtest/gtest.h>

namespace agentctx {
namespace {

TEST(StallGuard, SpecVectors) {
  EXPECT_EQ(FreedBp(250000, 240000), 400);
  EXPECT_TRUE(IsStalled(FreedBp(250000, 240000)));
  EXPECT_EQ(FreedBp(250000, 237500), 500);
  EXPECT_FALSE(IsStalled(FreedBp(250000, 237500)));
  EXPECT_EQ(CompactionStalledMessage(400, 250000, 240000),
            "Compaction freed only 4.00% of the context (250000 \xE2\x86\x92 240000 tokens); "
            "automatic compaction is paused.");
}

TEST(StallGuard, FloorsAndEdgeCases) {
  EXPECT_EQ(FreedBp(3, 2), 3333);
  EXPECT_EQ(FreedBp(0, 10), 0);
  EXPECT_EQ(FreedBp(100, 0), 10000);
  EXPECT_EQ(FreedBp(100, 101), -100);
  EXPECT_EQ(FreedBp(3, 4), -3334);  // floor(-3333.3)
  EXPECT_TRUE(IsStalled(-100));
}

TEST(StallGuard, PercentHasTwoDecimals) {
  EXPECT_EQ(FormatBpAsPercent(0), "0.00");
  EXPECT_EQ(FormatBpAsPercent(5), "0.05");
  EXPECT_EQ(FormatBpAsPercent(499), "4.99");
  EXPECT_EQ(FormatBpAsPercent(1234), "12.34");
  EXPECT_EQ(FormatBpAsPercent(10000), "100.00");
  EXPECT_EQ(FormatBpAsPercent(-50), "-0.50");
}

TEST(StallGuard, LongThreadTextIsUpstreams) {
  EXPECT_EQ(kLongThreadMessage,
            "Heads up: Long threads and multiple compactions can cause the model to be less "
            "accurate. Start a new thread when possible to keep threads small and targeted.");
}

}  // namespace
}  // namespace agentctx
