// SPDX-License-Identifier: MIT
#include "tools/regex.h"

#include <gtest/gtest.h>

#include <string>

namespace agentctx {
namespace {

// Whether `pattern` finds a match in `text`; a compile error fails the test.
bool Finds(const std::string& pattern, const std::string& text) {
  Result<Regex> regex = Regex::Compile(pattern);
  EXPECT_TRUE(regex.has_value()) << pattern << ": " << regex.error().message;
  if (!regex.has_value()) return false;
  RegexSearcher searcher(*regex);
  return searcher.Search(text);
}

std::string CompileError(const std::string& pattern) {
  Result<Regex> regex = Regex::Compile(pattern);
  return regex.has_value() ? "<compiled>" : regex.error().message;
}

TEST(Regex, LiteralsSearchAnywhere) {
  EXPECT_TRUE(Finds("TODO", "  // TODO: fix"));
  EXPECT_FALSE(Finds("TODO", "  // todo: fix"));
  EXPECT_TRUE(Finds("", "anything"));
  EXPECT_TRUE(Finds("", ""));
  EXPECT_TRUE(Finds("h\xC3\xA9llo", "say h\xC3\xA9llo"));
  ASSERT_TRUE(Regex::Compile("fn main").has_value());
  EXPECT_NE(Regex::Compile("fn main")->literal(), nullptr);
  EXPECT_EQ(Regex::Compile("fn.main")->literal(), nullptr);
}

TEST(Regex, DotClassesAndShorthands) {
  EXPECT_TRUE(Finds("a.c", "xabcx"));
  EXPECT_TRUE(Finds("a.c",
                    "a\xC3\xA9"
                    "c"));  // `.` is one character, not one byte
  EXPECT_FALSE(Finds("a.c", "ac"));
  EXPECT_TRUE(Finds("[abc]x", "bx"));
  EXPECT_FALSE(Finds("[abc]x", "dx"));
  EXPECT_TRUE(Finds("[^abc]x", "dx"));
  EXPECT_FALSE(Finds("^[^abc]x$", "ax"));
  EXPECT_TRUE(Finds("[a-f0-9]+$", "id: 3fa9"));
  EXPECT_TRUE(Finds("[]a]", "]"));
  EXPECT_TRUE(Finds("[a-]", "-"));
  EXPECT_TRUE(Finds("[\\]]", "]"));
  EXPECT_TRUE(Finds("\\d{3}-\\d{4}", "call 555-1234"));
  EXPECT_FALSE(Finds("\\d{3}-\\d{4}", "call 55-1234"));
  EXPECT_TRUE(Finds("\\w+\\s*=\\s*\\w+", "x = y"));
  EXPECT_TRUE(Finds("^\\S+$", "no-spaces"));
  EXPECT_FALSE(Finds("^\\S+$", "has space"));
  EXPECT_TRUE(Finds("[\\d.]+", "1.5"));
  EXPECT_TRUE(Finds("[[:upper:]][[:digit:]]", "xA1"));
  EXPECT_FALSE(Finds("[[:upper:]][[:digit:]]", "xa1"));
  EXPECT_TRUE(Finds("[\\D]", "x"));
  EXPECT_TRUE(Finds("\\x41\\x{e9}", "A\xC3\xA9"));
  EXPECT_TRUE(Finds("a\\.b\\(\\)", "a.b()"));
  EXPECT_FALSE(Finds("a\\.b", "axb"));
  EXPECT_TRUE(Finds("\\t", "a\tb"));
}

TEST(Regex, AnchorsAndWordBoundaries) {
  EXPECT_TRUE(Finds("^fn ", "fn main() {"));
  EXPECT_FALSE(Finds("^fn ", " fn main() {"));
  EXPECT_TRUE(Finds("\\{$", "fn main() {"));
  EXPECT_FALSE(Finds("\\{$", "fn main() { }"));
  EXPECT_TRUE(Finds("^$", ""));
  EXPECT_FALSE(Finds("^$", " "));
  EXPECT_TRUE(Finds("\\bcat\\b", "a cat sat"));
  EXPECT_FALSE(Finds("\\bcat\\b", "concatenate"));
  EXPECT_TRUE(Finds("\\Bcat\\B", "concatenate"));
  EXPECT_TRUE(Finds("\\Acat\\z", "cat"));
  EXPECT_FALSE(Finds("\\Acat\\z", "cats"));
}

TEST(Regex, AlternationGroupsAndRepetition) {
  EXPECT_TRUE(Finds("foo|bar", "xbarx"));
  EXPECT_TRUE(Finds("^(foo|bar)+$", "foobarfoo"));
  EXPECT_FALSE(Finds("^(foo|bar)+$", "foobaz"));
  EXPECT_TRUE(Finds("^(?:ab)*$", ""));
  EXPECT_TRUE(Finds("^(?:ab)*$", "abab"));
  EXPECT_FALSE(Finds("^(?:ab)*$", "aba"));
  EXPECT_TRUE(Finds("^a?b$", "b"));
  EXPECT_TRUE(Finds("^a{2,3}$", "aaa"));
  EXPECT_FALSE(Finds("^a{2,3}$", "aaaa"));
  EXPECT_FALSE(Finds("^a{2,3}$", "a"));
  EXPECT_TRUE(Finds("^a{2,}$", "aaaaa"));
  EXPECT_TRUE(Finds("^a{2}$", "aa"));
  EXPECT_TRUE(Finds("^a+?b*?$", "aabb"));  // lazy operators match the same lines
  EXPECT_TRUE(Finds("(?P<name>x)y", "xy"));
  EXPECT_TRUE(Finds("(?<name>x)y", "xy"));
  EXPECT_TRUE(Finds("^(|a)+$", "aa"));
  EXPECT_TRUE(Finds("()*x", "x"));
  EXPECT_TRUE(Finds("(a*)*b", "aaab"));
}

TEST(Regex, BracesThatAreNotRepetitionsAreLiterals) {
  EXPECT_TRUE(Finds("if (x) {", "if (x) { y }") == false);  // `(x)` is a group: "if x {"
  EXPECT_TRUE(Finds("if \\(x\\) {", "if (x) { y }"));
  EXPECT_TRUE(Finds("a{b", "a{b"));
  EXPECT_TRUE(Finds("a{1,b}", "a{1,b}"));
  EXPECT_TRUE(Finds("}", "}"));
  EXPECT_TRUE(Finds("]", "]"));
}

TEST(Regex, CaseInsensitiveFlag) {
  EXPECT_TRUE(Finds("(?i)todo", "TODO: x"));
  EXPECT_TRUE(Finds("(?i)[a-c]x", "BX"));
  EXPECT_TRUE(Finds("(?i:a)b", "Ab"));
  EXPECT_FALSE(Finds("(?i:a)b", "AB"));
  EXPECT_TRUE(Finds("(?i)a(?-i)b", "Ab"));
  EXPECT_FALSE(Finds("(?i)a(?-i)b", "AB"));
  EXPECT_FALSE(Finds("(?i)[^a]", "A"));
  EXPECT_TRUE(Finds("(?s).", "x"));
  EXPECT_TRUE(Finds("(?m)^x$", "x"));
}

TEST(Regex, NoExponentialBlowUp) {
  // (a*)*b against many a's is the classic catastrophic-backtracking case.
  std::string text(20000, 'a');
  EXPECT_FALSE(Finds("(a*)*b", text));
  EXPECT_FALSE(Finds("(a|aa)+$x", text));
  EXPECT_TRUE(Finds("(x+x+)+y|a$", text));
}

TEST(Regex, RefusesUnsupportedAndBadSyntaxClearly) {
  EXPECT_EQ(CompileError("(ab"), "at byte 0: unclosed `(`");
  EXPECT_EQ(CompileError("ab)"), "at byte 2: unmatched `)`");
  EXPECT_EQ(CompileError("[ab"), "at byte 0: unclosed `[`");
  EXPECT_EQ(CompileError("*a"), "at byte 0: repetition operator `*` has nothing to repeat");
  EXPECT_EQ(CompileError("a|+"), "at byte 2: repetition operator `+` has nothing to repeat");
  EXPECT_EQ(CompileError("{2}"), "at byte 0: repetition operator has nothing to repeat");
  EXPECT_EQ(CompileError("a**"),
            "at byte 2: a repetition operator cannot follow another (use a group)");
  EXPECT_EQ(CompileError("(a)\\1"), "at byte 3: backreferences are not supported");
  EXPECT_EQ(CompileError("a(?=b)"), "at byte 1: look-around assertions are not supported");
  EXPECT_EQ(CompileError("(?<!a)b"), "at byte 0: look-around assertions are not supported");
  EXPECT_EQ(CompileError("\\p{L}"), "at byte 0: Unicode classes (`\\p{…}`) are not supported");
  EXPECT_EQ(CompileError("\\q"), "at byte 0: unsupported escape `\\q`");
  EXPECT_EQ(CompileError("a\\"), "at byte 1: the pattern ends with a lone `\\`");
  EXPECT_EQ(CompileError("[z-a]"), "at byte 2: invalid range in a class (end before start)");
  EXPECT_EQ(CompileError("[[:bogus:]]"), "at byte 1: unknown POSIX class `[:bogus:]`");
  EXPECT_EQ(CompileError("(?x)a"), "at byte 2: unsupported flag `x` (supported: i, m, s, U)");
  EXPECT_EQ(CompileError("a{2,1}"), "at byte 1: invalid repetition range (max below min)");
  EXPECT_EQ(CompileError("a{1001}"), "at byte 1: repetition counts above 1000 are not supported");
  EXPECT_EQ(CompileError("\\x4"), "at byte 0: `\\x` needs two hex digits or `{…}`");
  EXPECT_EQ(CompileError("\\x{110000}"), "at byte 0: `\\x{…}` is not a Unicode code point");
  EXPECT_EQ(CompileError("a\xFF"), "at byte 1: the pattern is not valid UTF-8");
  EXPECT_EQ(CompileError(std::string(70, '(') + std::string(70, ')')),
            "at byte 65: groups are nested too deeply");
  EXPECT_EQ(CompileError(std::string(5000, 'a')), "the pattern is longer than 4096 bytes");
  EXPECT_EQ(CompileError("(a{1000}){1000}").substr(0, 24), "the pattern is too large");
}

}  // namespace
}  // namespace agentctx
