// SPDX-License-Identifier: MIT
#include "tools/glob_pattern.h"

#include <gtest/gtest.h>

#include <string>

namespace agentctx {
namespace {

bool Glob(const std::string& pattern, const std::string& path) {
  Result<GlobPattern> glob = GlobPattern::Compile(pattern);
  EXPECT_TRUE(glob.has_value()) << pattern << ": " << glob.error().message;
  return glob.has_value() && glob->Matches(path);
}

TEST(GlobPattern, StarsQuestionMarksAndSets) {
  EXPECT_TRUE(Glob("*.rs", "main.rs"));
  EXPECT_FALSE(Glob("*.rs", "src/main.rs"));  // `*` stays in one segment
  EXPECT_TRUE(Glob("*", ".hidden"));          // dotfiles are not special
  EXPECT_TRUE(Glob("?.txt", "a.txt"));
  EXPECT_TRUE(Glob("?.txt", "\xC3\xA9.txt"));  // one character, not one byte
  EXPECT_FALSE(Glob("?.txt", "ab.txt"));
  EXPECT_TRUE(Glob("[ab]*.c", "beta.c"));
  EXPECT_FALSE(Glob("[!ab]*.c", "beta.c"));
  EXPECT_TRUE(Glob("[^ab]*.c", "zeta.c"));
  EXPECT_TRUE(Glob("v[0-9].md", "v7.md"));
  EXPECT_TRUE(Glob("[]]x", "]x"));
  EXPECT_TRUE(Glob("a\\*b", "a*b"));
  EXPECT_FALSE(Glob("a\\*b", "axb"));
  EXPECT_TRUE(Glob("*a*b*c*", "xxaxxbxxcxx"));
  EXPECT_FALSE(Glob("*a*b*c*", "xxaxxcxxbxx"));
}

TEST(GlobPattern, DoubleStarAndBraces) {
  EXPECT_TRUE(Glob("**/*.rs", "main.rs"));  // zero directories
  EXPECT_TRUE(Glob("**/*.rs", "a/b/c/main.rs"));
  EXPECT_TRUE(Glob("src/**/test_*.ts", "src/test_a.ts"));
  EXPECT_TRUE(Glob("src/**/test_*.ts", "src/x/y/test_a.ts"));
  EXPECT_FALSE(Glob("src/**/test_*.ts", "lib/x/test_a.ts"));
  EXPECT_TRUE(Glob("a/**", "a/b/c"));
  EXPECT_TRUE(Glob("a**b", "axxb"));  // inside a segment `**` is `*`
  EXPECT_FALSE(Glob("a**b", "ax/xb"));
  EXPECT_TRUE(Glob("*.{ts,tsx}", "app.tsx"));
  EXPECT_TRUE(Glob("{src,lib}/**/*.{c,h}", "lib/x/y.h"));
  EXPECT_FALSE(Glob("{src,lib}/**/*.{c,h}", "doc/y.h"));
  EXPECT_TRUE(Glob("{a,{b,c}}.md", "c.md"));
  EXPECT_TRUE(Glob("{x}.md", "{x}.md"));  // no comma: literal braces
  EXPECT_TRUE(GlobPattern::Compile("*.md")->single_segment());
  EXPECT_FALSE(GlobPattern::Compile("docs/*.md")->single_segment());
}

TEST(GlobPattern, BadPatternsAreRefused) {
  EXPECT_EQ(GlobPattern::Compile("[ab").error().message,
            "unclosed `[` at byte 0 (write `\\[` for a literal)");
  EXPECT_EQ(GlobPattern::Compile("a\\").error().message, "the pattern ends with a lone `\\`");
  EXPECT_EQ(GlobPattern::Compile("").error().message, "the pattern is empty");
  EXPECT_EQ(GlobPattern::Compile("[a/b]").error().message,
            "a `[…]` set cannot contain `/` (at byte 0)");
  EXPECT_EQ(GlobPattern::Compile("{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}").error().message,
            "the pattern expands to more than 64 alternatives");
}

TEST(GlobPattern, LiteralPrefix) {
  GlobSplit s = SplitGlobLiteralPrefix("src/app/**/*.ts");
  EXPECT_EQ(s.prefix, "src/app");
  EXPECT_EQ(s.rest, "**/*.ts");
  s = SplitGlobLiteralPrefix("/repo/src/*.rs");
  EXPECT_EQ(s.prefix, "/repo/src");
  EXPECT_EQ(s.rest, "*.rs");
  s = SplitGlobLiteralPrefix("README.md");
  EXPECT_EQ(s.prefix, "");
  EXPECT_EQ(s.rest, "README.md");
  s = SplitGlobLiteralPrefix("{a,b}/x");
  EXPECT_EQ(s.prefix, "");
  EXPECT_EQ(s.rest, "{a,b}/x");
}

}  // namespace
}  // namespace agentctx
