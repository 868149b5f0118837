// SPDX-License-Identifier: MIT
#include "support/utf8.h"

#include <gtest/gtest.h>

namespace agentctx {
namespace {

TEST(Utf8, LossyReplacesMaximalSubparts) {
  EXPECT_EQ(LossyUtf8("project\xFF doc"), "project\xEF\xBF\xBD doc");
  // Truncated 3-byte sequence E2 82 is one maximal subpart -> one U+FFFD.
  EXPECT_EQ(LossyUtf8("a\xE2\x82z"), "a\xEF\xBF\xBDz");
  // Surrogates (ED A0 80) are invalid: ED is a subpart on its own, then A0, 80.
  EXPECT_EQ(LossyUtf8("\xED\xA0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
  EXPECT_EQ(LossyUtf8("ok \xC3\xA9"), "ok \xC3\xA9");
}

TEST(Utf8, Boundaries) {
  std::string s = "a\xC3\xA9z";  // a é z
  EXPECT_EQ(FloorCharBoundary(s, 2), 1u);
  EXPECT_EQ(CeilCharBoundary(s, 2), 3u);
  EXPECT_EQ(CountChars(s), 3u);
  EXPECT_EQ(FloorCharBoundary(s, 99), s.size());
}

TEST(Utf8, TrimUnicodeWhiteSpace) {
  EXPECT_EQ(TrimUnicode(" \n\t"), "");
  EXPECT_EQ(TrimUnicode("\n  default instructions  \n"), "default instructions");
  EXPECT_EQ(TrimUnicode("\xC2\xA0x\xE3\x80\x80"), "x");  // NBSP, ideographic space
}

}  // namespace
}  // namespace agentctx
