// SPDX-License-Identifier: MIT
// The pieces behind RegexSearcher: literal extraction, the literal scanner, the alphabet, and
// the refusal of patterns too costly to search.
#include "tools/regex_literals.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tools/regex.h"
#include "tools/regex_parser.h"
#include "tools/regex_prefilter.h"

namespace agentctx {
namespace {

// "abc" or "~abc" (folded), sorted, and whether the set is exact.
struct Extracted {
  std::vector<std::string> literals;
  bool exact = false;
  bool everything = false;
};

Extracted Extract(const std::string& pattern) {
  Result<RegexAst> ast = ParseRegex(pattern);
  EXPECT_TRUE(ast.has_value()) << pattern;
  Extracted out;
  if (!ast.has_value()) return out;
  RegexLiteralSet set = ExtractLiterals(*ast);
  for (const RegexLiteral& lit : set.literals)
    out.literals.push_back((lit.fold ? "~" : "") + lit.bytes);
  std::sort(out.literals.begin(), out.literals.end());
  out.exact = set.exact;
  out.everything = set.matches_everything;
  return out;
}

using Strings = std::vector<std::string>;

TEST(RegexLiterals, PlainLiteralsAndAlternationsAreExact) {
  Extracted e = Extract("needle");
  EXPECT_EQ(e.literals, Strings({"needle"}));
  EXPECT_TRUE(e.exact);
  e = Extract("foo|bar|(?:baz)");
  EXPECT_EQ(e.literals, Strings({"bar", "baz", "foo"}));
  EXPECT_TRUE(e.exact);
  e = Extract("ab(c|d)e");  // cross product
  EXPECT_EQ(e.literals, Strings({"abce", "abde"}));
  EXPECT_TRUE(e.exact);
  e = Extract("colou?r");
  EXPECT_EQ(e.literals, Strings({"color", "colour"}));
  EXPECT_TRUE(e.exact);
  e = Extract("x[12]");
  EXPECT_EQ(e.literals, Strings({"x1", "x2"}));
  EXPECT_TRUE(e.exact);
}

TEST(RegexLiterals, CharactersAppendToEveryStringOfARun) {
  // One character after a set of several: appended to each (in place), then sorted again.
  Extracted e = Extract("(a|ab)c");
  EXPECT_EQ(e.literals, Strings({"abc", "ac"}));
  EXPECT_TRUE(e.exact);
  e = Extract("(b|ab)x(y|z)");
  EXPECT_EQ(e.literals, Strings({"abxy", "abxz", "bxy", "bxz"}));
  // A long literal is one literal of every byte (built by appending, not prefix by prefix).
  const std::string long_literal(4000, 'q');
  e = Extract(long_literal + "z");
  EXPECT_EQ(e.literals, Strings({long_literal + "z"}));
  EXPECT_TRUE(e.exact);
}

TEST(RegexLiterals, CaseFoldingIsOneFoldedLiteral) {
  Extracted e = Extract("(?i)deadbeef");
  EXPECT_EQ(e.literals, Strings({"~deadbeef"}));
  EXPECT_TRUE(e.exact);
  e = Extract("(?i)a_1");
  EXPECT_EQ(e.literals, Strings({"~a_1"}));
  EXPECT_TRUE(e.exact);
  // One case-sensitive letter beside folded ones: still a needle, but verified.
  e = Extract("(?i:a)b");
  EXPECT_EQ(e.literals, Strings({"~ab"}));
  EXPECT_FALSE(e.exact);
  e = Extract("(?i)ab|CD");
  EXPECT_TRUE(e.exact);
  e = Extract("(?i:ab)|CD");  // two case modes
  EXPECT_FALSE(e.exact);
}

TEST(RegexLiterals, RequiredLiteralsOfRegexes) {
  Extracted e = Extract(".{0,200}x");
  EXPECT_EQ(e.literals, Strings({"x"}));
  EXPECT_FALSE(e.exact);
  e = Extract("\\bTODO\\b");  // assertions: verified
  EXPECT_EQ(e.literals, Strings({"TODO"}));
  EXPECT_FALSE(e.exact);
  e = Extract("fn \\w+\\(");
  EXPECT_EQ(e.literals, Strings({"fn "}));
  e = Extract("^\\s+return\\b");
  EXPECT_EQ(e.literals, Strings({"return"}));
  e = Extract("(foo|bar)\\d+baz");  // the longer shortest string wins
  EXPECT_EQ(e.literals, Strings({"baz"}));
  e = Extract("(foo\\d|bar\\w)x");
  EXPECT_EQ(e.literals, Strings({"bar", "foo"}));
  e = Extract("(ab)+c");
  EXPECT_EQ(e.literals, Strings({"ab"}));
}

TEST(RegexLiterals, NothingUsefulMeansNoScanner) {
  for (const char* pattern : {"[a-z]{1000}", "(\\w+\\s?)+$", "a*", ".", "\\d", "(a|\\w)b?",
                              "[a-z]x?", "a\\xEF\\xBF\\xBDb|\\x{FFFD}"}) {
    Extracted e = Extract(pattern);
    EXPECT_TRUE(e.literals.empty()) << pattern;
    EXPECT_FALSE(e.exact) << pattern;
  }
  EXPECT_TRUE(Extract("").everything);
  EXPECT_TRUE(Extract("a?").everything);
  EXPECT_TRUE(Extract("x|").everything);
  EXPECT_FALSE(Extract("^").everything);
  // LF, CR and U+FFFD never make an exact scanner.
  EXPECT_FALSE(Extract("a\\nb").exact);
  EXPECT_FALSE(Extract("ab\\r").exact);
}

std::size_t FindIn(const std::vector<RegexLiteral>& literals, const std::string& text,
                   std::size_t from = 0) {
  RegexLiteralSet set;
  set.literals = literals;
  std::unique_ptr<RegexPrefilter> p = RegexPrefilter::Build(set);
  EXPECT_NE(p, nullptr);
  return p == nullptr ? std::string::npos : p->Find(text, from);
}

TEST(RegexPrefilter, OneLiteralFindsEveryOccurrence) {
  const std::vector<RegexLiteral> needle = {{"needle", false}};
  EXPECT_EQ(FindIn(needle, "hay needle hay"), 4u);
  EXPECT_EQ(FindIn(needle, "needle"), 0u);
  EXPECT_EQ(FindIn(needle, "hay needl"), std::string::npos);
  EXPECT_EQ(FindIn(needle, "needle needle", 1), 7u);
  EXPECT_EQ(FindIn(needle, "need", 0), std::string::npos);
  EXPECT_EQ(FindIn(needle, "xneedle", 8), std::string::npos);
  EXPECT_EQ(FindIn(needle, "NEEDLE"), std::string::npos);
}

TEST(RegexPrefilter, AhoCorasickReportsAPlaceInsideTheFirstOccurrence) {
  const std::vector<RegexLiteral> words = {{"he", false}, {"she", false}, {"hers", false}};
  EXPECT_EQ(FindIn(words, "ushers"), 3u);  // "she" ends at 3 (and "he" too)
  EXPECT_EQ(FindIn(words, "xxhxhexx"), 5u);
  EXPECT_EQ(FindIn(words, "h e s"), std::string::npos);
  EXPECT_EQ(FindIn(words, "he", 1), std::string::npos);
  const std::vector<RegexLiteral> folded = {{"deadbeef", true}};
  EXPECT_EQ(FindIn(folded, "0xDeAdBeEf"), 9u);
  EXPECT_EQ(FindIn(folded, "dead beef"), std::string::npos);
  // Uncommon first bytes: the start state skips ahead to them.
  const std::vector<RegexLiteral> rare = {{"#x", false}, {"qq", false}, {"zz", true}};
  EXPECT_EQ(FindIn(rare, "the text # #y q x #x"), 19u);
  EXPECT_EQ(FindIn(rare, "q q qq"), 5u);
  EXPECT_EQ(FindIn(rare, "...ZZ"), 4u);
  EXPECT_EQ(FindIn(rare, "aZbQ q#"), std::string::npos);
  EXPECT_EQ(FindIn(rare, "Qq"), 1u);  // one folded literal folds the scan: callers verify
  EXPECT_EQ(FindIn(rare, "#x", 1), std::string::npos);
  const std::vector<RegexLiteral> utf8 = {{"caf\xC3\xA9", false}, {"\xC3\xA9t\xC3\xA9", false}};
  EXPECT_EQ(FindIn(utf8, "un caf\xC3\xA9"), 7u);
}

TEST(RegexAlphabet, ClassesSeparateWhatTheProgramTellsApart) {
  Result<Regex> regex = Regex::Compile("a[b-d]\\w");
  ASSERT_TRUE(regex.has_value());
  const RegexAlphabet& a = regex->alphabet();
  EXPECT_EQ(a.ClassOf('b'), a.ClassOf('d'));
  EXPECT_NE(a.ClassOf('a'), a.ClassOf('b'));
  EXPECT_NE(a.ClassOf('e'), a.ClassOf('d'));
  EXPECT_EQ(a.ClassOf('e'), a.ClassOf('Z'));
  EXPECT_NE(a.ClassOf('e'), a.ClassOf(' '));
  EXPECT_NE(a.ClassOf(0xE9), a.ClassOf(' '));  // non-ASCII never shares with ASCII
  EXPECT_EQ(a.ClassOf(0xE9), a.ClassOf(0x10FFFF));
  for (std::uint32_t c = 0; c < a.size; ++c) EXPECT_EQ(a.ClassOf(a.representative[c]), c);
}

TEST(RegexCompile, PatternsTooCostlyToSearchAreRefusedWithAWayOut) {
  Result<Regex> regex = Regex::Compile("(.{0,1000}x){5}");
  ASSERT_FALSE(regex.has_value());
  EXPECT_EQ(regex.error().message,
            "the pattern is too costly to search: its repetitions expand to 5005 character "
            "positions (at most 4096); lower the `{n,m}` counts, or use `*` or `+` where any "
            "length will do");
  EXPECT_TRUE(Regex::Compile(".{0,1000}x").has_value());
  EXPECT_TRUE(Regex::Compile("[a-z]{1000}[a-z]{1000}[a-z]{1000}[a-z]{1000}").has_value());
}

}  // namespace
}  // namespace agentctx
