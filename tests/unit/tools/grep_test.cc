// SPDX-License-Identifier: MIT
#include "tools/grep.h"

#include <gtest/gtest.h>

#include <string>

#include "unit/tools/tool_test_support.h"

namespace agentctx {
namespace {

using testing::RepoContext;
using testing::ReversedListFileSystem;

class GrepTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(fs_.AddFile("/repo/src/main.rs", "fn main() {\r\n    println!(\"hello\");\r\n}\r\n")
                    .has_value());
    ASSERT_TRUE(fs_.AddFile("/repo/src/lib.rs", "// TODO: add\npub fn add() {}\n").has_value());
    ASSERT_TRUE(fs_.AddFile("/repo/README.md", "# Demo\nTODO: docs\n").has_value());
    ASSERT_TRUE(fs_.AddFile("/repo/logo.png", std::string("PNG\0TODO", 8)).has_value());
    ASSERT_TRUE(fs_.AddFile("/repo/.git/config", "TODO in git\n").has_value());
    ASSERT_TRUE(fs_.AddFile("/repo/node_modules/x/i.js", "TODO in deps\n").has_value());
  }
  std::string Run(const std::string& args) {
    ReversedListFileSystem reversed(&fs_);  // FileSystems list in any order
    return RunGrep(RepoContext(&reversed), args);
  }
  MemoryFileSystem fs_;
};

TEST_F(GrepTest, MatchesInNameOrderWithLineNumbers) {
  EXPECT_EQ(Run(R"({"pattern":"TODO"})"),
            "/repo/README.md:2: TODO: docs\n/repo/src/lib.rs:1: // TODO: add\n"
            "(skipped 1 binary file)");
  EXPECT_EQ(Run(R"({"pattern":"fn \\w+\\(","path":"src"})"),
            "/repo/src/lib.rs:2: pub fn add() {}\n/repo/src/main.rs:1: fn main() {");
  // CR before LF is not part of the line (`$` matches before it).
  EXPECT_EQ(Run(R"({"pattern":"\\{$","path":"src/main.rs"})"), "/repo/src/main.rs:1: fn main() {");
}

TEST_F(GrepTest, IncludeMatchesNamesOrRelativePaths) {
  EXPECT_EQ(Run(R"({"pattern":"TODO","include":"*.md"})"), "/repo/README.md:2: TODO: docs");
  EXPECT_EQ(Run(R"({"pattern":"TODO","include":"src/**/*.rs"})"),
            "/repo/src/lib.rs:1: // TODO: add");
  EXPECT_EQ(Run(R"({"pattern":"TODO","include":"*.{md,rs}"})"),
            "/repo/README.md:2: TODO: docs\n/repo/src/lib.rs:1: // TODO: add");
}

TEST_F(GrepTest, SkippedDirectoriesCanStillBeSearchedExplicitly) {
  EXPECT_EQ(Run(R"({"pattern":"TODO","path":"node_modules"})"),
            "/repo/node_modules/x/i.js:1: TODO in deps");
}

TEST_F(GrepTest, NoMatchAndErrors) {
  EXPECT_EQ(Run(R"({"pattern":"FIXME","path":"src"})"), "No matches for FIXME in /repo/src");
  EXPECT_EQ(Run(R"({"pattern":"x","path":"nope"})"), "grep failed: not_found: /repo/nope");
  EXPECT_EQ(Run(R"({"pattern":"(x"})"),
            "grep failed: invalid regular expression: at byte 0: unclosed `(`");
  EXPECT_EQ(Run(R"({"pattern":"x","include":"[a"})"),
            "grep failed: invalid include pattern: unclosed `[` at byte 0 (write `\\[` for a "
            "literal)");
  EXPECT_EQ(Run(R"({"path":"src"})"),
            "failed to parse function arguments: missing field `pattern`");
  EXPECT_EQ(Run(R"({"pattern":"x","path":7})"),
            "failed to parse function arguments: invalid type for `path`: expected a string");
}

TEST_F(GrepTest, BinaryFilesAreSkippedEvenWhenNamed) {
  EXPECT_EQ(Run(R"({"pattern":"TODO","path":"logo.png"})"),
            "No matches for TODO in /repo/logo.png\n(skipped 1 binary file)");
}

TEST_F(GrepTest, UnreadableFilesAreCounted) {
  fs_.InjectError("/repo/README.md", MemoryFileSystem::Op::kRead, ErrorCode::kPermissionDenied);
  EXPECT_EQ(Run(R"({"pattern":"TODO","include":"*.{md,png}"})"),
            "No matches for TODO in /repo\n(skipped 1 binary, 1 unreadable files)");
}

TEST_F(GrepTest, OutputIsBoundedByMatchesAndBytes) {
  std::string many;
  for (std::size_t i = 0; i < kGrepMaxMatches + 5; ++i) many += "hit\n";
  ASSERT_TRUE(fs_.AddFile("/repo/many.txt", many).has_value());
  std::string out = Run(R"({"pattern":"hit","path":"many.txt"})");
  std::size_t lines = 0;
  for (char c : out) lines += c == '\n' ? 1 : 0;
  EXPECT_EQ(lines, kGrepMaxMatches);  // 200 matches + the note line
  EXPECT_TRUE(
      out.ends_with("\n[stopped after 200 matches; narrow the pattern, path or include "
                    "to see the rest]"))
      << out.substr(out.size() - 200);
  // Long lines are cut, and the byte bound stops well before 200 matches.
  std::string wide;
  for (int i = 0; i < 50; ++i) wide += std::string(1000, 'w') + "\n";
  ASSERT_TRUE(fs_.AddFile("/repo/wide.txt", wide).has_value());
  out = Run(R"({"pattern":"w","path":"wide.txt"})");
  EXPECT_LT(out.size(), kGrepMaxOutputBytes + 400);
  EXPECT_NE(out.find("/repo/wide.txt:1: " + std::string(kGrepMaxLineBytes, 'w') + "\n"),
            std::string::npos);
  EXPECT_TRUE(out.ends_with("; narrow the pattern, path or include to see the rest]"));
}

TEST_F(GrepTest, CaseInsensitiveAndUnicodeLines) {
  ASSERT_TRUE(fs_.AddFile("/repo/u.txt", "Caf\xC3\xA9 ok\nbad \xFF byte\n").has_value());
  EXPECT_EQ(Run(R"({"pattern":"(?i)CAF.","path":"u.txt"})"), "/repo/u.txt:1: Caf\xC3\xA9 ok");
  EXPECT_EQ(Run(R"({"pattern":"bad . byte","path":"u.txt"})"),
            "/repo/u.txt:2: bad \xEF\xBF\xBD byte");
}

TEST_F(GrepTest, LiteralScannerAndDfaKeepLinesAndNumbers) {
  ASSERT_TRUE(fs_.AddFile("/repo/mix.txt",
                          "alpha\r\nbeta needle\r\n\r\nNEEDLE gamma\nneedle\r\nlast needle")
                  .has_value());
  // One literal (memchr), folded literal (Aho-Corasick), a regex behind a literal, a DFA alone.
  EXPECT_EQ(Run(R"({"pattern":"needle","path":"mix.txt"})"),
            "/repo/mix.txt:2: beta needle\n/repo/mix.txt:5: needle\n/repo/mix.txt:6: last needle");
  EXPECT_EQ(Run(R"({"pattern":"(?i)needle$","path":"mix.txt"})"),
            "/repo/mix.txt:2: beta needle\n/repo/mix.txt:5: needle\n/repo/mix.txt:6: last needle");
  EXPECT_EQ(Run(R"({"pattern":"(?i)^needle","path":"mix.txt"})"),
            "/repo/mix.txt:4: NEEDLE gamma\n/repo/mix.txt:5: needle");
  EXPECT_EQ(Run(R"({"pattern":"^$","path":"mix.txt"})"), "/repo/mix.txt:3: ");
  EXPECT_EQ(Run(R"({"pattern":"a\\b|ta n","path":"mix.txt"})"),
            "/repo/mix.txt:1: alpha\n/repo/mix.txt:2: beta needle\n/repo/mix.txt:4: NEEDLE gamma");
  EXPECT_EQ(Run(R"({"pattern":"a?","path":"mix.txt"})"),
            "/repo/mix.txt:1: alpha\n/repo/mix.txt:2: beta needle\n/repo/mix.txt:3: \n"
            "/repo/mix.txt:4: NEEDLE gamma\n/repo/mix.txt:5: needle\n/repo/mix.txt:6: last needle");
}

TEST_F(GrepTest, PatternsTooCostlyAreRefusedUpFront) {
  EXPECT_EQ(Run(R"({"pattern":"(\\w{1000}\\s){5}"})"),
            "grep failed: invalid regular expression: the pattern is too costly to search: its "
            "repetitions expand to 5005 character positions (at most 4096); lower the `{n,m}` "
            "counts, or use `*` or `+` where any length will do");
}

TEST_F(GrepTest, AWorkBudgetStopsACostlySearch) {
  std::string text;
  std::uint32_t s = 1;
  for (int line = 0; line < 40; ++line) {
    for (int i = 0; i < 200; ++i) {
      s = s * 1103515245 + 12345;
      text.push_back("ab"[(s >> 16) & 1]);
    }
    text += "\n";
  }
  ASSERT_TRUE(fs_.AddFile("/repo/ab.txt", text + "zz\n").has_value());
  ReversedListFileSystem reversed(&fs_);
  // The DFA of this pattern has more states than any cache holds; the simulation runs ~14
  // threads per character.
  const std::string args = R"({"pattern":"(a|b)*a(a|b){12}(z|y)|zz","path":"ab.txt"})";
  EXPECT_EQ(RunGrepWithBudget(RepoContext(&reversed), args, 20000),
            "No matches for (a|b)*a(a|b){12}(z|y)|zz in /repo/ab.txt\n[stopped after 20000 regex "
            "steps in 1 files (the work budget of one search); narrow the pattern, path or "
            "include]");
  EXPECT_EQ(RunGrep(RepoContext(&reversed), args), "/repo/ab.txt:41: zz");
}

}  // namespace
}  // namespace agentctx
