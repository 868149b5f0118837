// SPDX-License-Identifier: MIT
#include "support/truncate.h"

#include <gtest/gtest.h>

#include <string>

namespace agentctx {
namespace {

const std::string kEmojiText =
    "\xF0\x9F\x98\x80\xF0\x9F\x98\x80\xF0\x9F\x98\x80\xF0\x9F\x98\x80\xF0\x9F\x98\x80"
    "\xF0\x9F\x98\x80\xF0\x9F\x98\x80\xF0\x9F\x98\x80\xF0\x9F\x98\x80\xF0\x9F\x98\x80"
    "\nsecond line with text\n";
const std::string kEmoji = "\xF0\x9F\x98\x80";

// Cut `abcdef`, tokens budget 0: the marker alone.
TEST(TruncateMiddle, TokensBudgetZeroIsMarkerOnly) {
  EXPECT_EQ(TruncateMiddle("abcdef", 0, TruncationMode::kTokens),
            "\xE2\x80\xA6"
            "2 tokens truncated\xE2\x80\xA6");
  EXPECT_EQ(TruncateMiddle("abcdef", 0, TruncationMode::kBytes),
            "\xE2\x80\xA6"
            "6 chars truncated\xE2\x80\xA6");
}

// The 63-byte emoji text, tokens budget 8 (= 32 bytes).
TEST(TruncateMiddle, EmojiTextTokensBudget) {
  ASSERT_EQ(kEmojiText.size(), 63u);
  EXPECT_EQ(TruncateMiddle(kEmojiText, 8 * 4, TruncationMode::kTokens),
            kEmoji + kEmoji + kEmoji + kEmoji +
                "\xE2\x80\xA6"
                "8 tokens truncated\xE2\x80\xA6" +
                " line with text\n");
}

// The same text, bytes budget 20 (both ends shrink to char boundaries).
TEST(TruncateMiddle, EmojiTextBytesBudget) {
  EXPECT_EQ(TruncateMiddle(kEmojiText, 20, TruncationMode::kBytes),
            kEmoji + kEmoji +
                "\xE2\x80\xA6"
                "21 chars truncated\xE2\x80\xA6" +
                "with text\n");
}

TEST(TruncateMiddle, WithinBudgetIsUnchanged) {
  EXPECT_EQ(TruncateMiddle("abc", 3, TruncationMode::kBytes), "abc");
  EXPECT_EQ(TruncateMiddle("", 0, TruncationMode::kTokens), "");
  EXPECT_EQ(TruncateMiddle("abcd", 3, TruncationMode::kBytes),
            "a\xE2\x80\xA6"
            "1 chars truncated\xE2\x80\xA6"
            "cd");
}

TEST(TruncateMiddle, RightStartMovesUpInsideACharacter) {
  // "axyz\xC3\xA9b" is 7 bytes; budget 3 → left "a", the right 2 bytes would start inside
  // "\xC3\xA9", so the right part shrinks to "b".
  const std::string text =
      "axyz\xC3\xA9"
      "b";
  EXPECT_EQ(TruncateMiddle(text, 3, TruncationMode::kBytes),
            "a\xE2\x80\xA6"
            "4 chars truncated\xE2\x80\xA6"
            "b");
  EXPECT_EQ(TruncateMiddle(text, 5, TruncationMode::kBytes),
            "ax\xE2\x80\xA6"
            "2 chars truncated\xE2\x80\xA6"
            "\xC3\xA9"
            "b");
  // Tokens mode counts the removed bytes after shrinking: "xyz\xC3\xA9" = 5 → 2 tokens.
  EXPECT_EQ(TruncateMiddle(text, 3, TruncationMode::kTokens),
            "a\xE2\x80\xA6"
            "2 tokens truncated\xE2\x80\xA6"
            "b");
}

}  // namespace
}  // namespace agentctx
