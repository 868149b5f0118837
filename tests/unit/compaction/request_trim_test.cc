// SPDX-License-Identifier: MIT
// Dropping the oldest item (with its pair) from a compaction request.
#include "compaction/request_trim.h"

#include <gtest/gtest.h>

namespace agentctx {
namespace {

TEST(RequestTrim, DropsTheOldestItem) {
  std::vector<TrimItemRef> items = {{"message", ""}, {"message", ""}};
  EXPECT_EQ(OldestItemGroup(items), (std::vector<std::size_t>{0}));
}

TEST(RequestTrim, ACallTakesItsOutputs) {
  std::vector<TrimItemRef> items = {{"function_call", "a"},
                                    {"function_call", "b"},
                                    {"function_call_output", "b"},
                                    {"function_call_output", "a"},
                                    {"custom_tool_call_output", "a"}};
  EXPECT_EQ(OldestItemGroup(items), (std::vector<std::size_t>{0, 3}));
  std::vector<TrimItemRef> custom = {{"custom_tool_call", "x"}, {"custom_tool_call_output", "x"}};
  EXPECT_EQ(OldestItemGroup(custom), (std::vector<std::size_t>{0, 1}));
}

TEST(RequestTrim, NothingLeftToTrim) {
  EXPECT_TRUE(OldestItemGroup({}).empty());
  EXPECT_TRUE(OldestItemGroup({{"message", ""}}).empty());
}

TEST(RequestTrim, WarningText) {
  EXPECT_EQ(CompactionTrimmedMessage(2),
            "Trimmed 2 oldest item(s) from the compaction request to fit the context window.");
}

}  // namespace
}  // namespace agentctx
