// SPDX-License-Identifier: MIT
#include "tools/glob.h"

#include <gtest/gtest.h>

#include <string>

#include "unit/tools/tool_test_support.h"

namespace agentctx {
namespace {

using testing::RepoContext;
using testing::ReversedListFileSystem;

class GlobTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* path :
         {"/repo/src/main.rs", "/repo/src/lib.rs", "/repo/src/util/mod.rs", "/repo/README.md",
          "/repo/a-b.rs", "/repo/.git/x.rs", "/repo/node_modules/p/q.rs", "/elsewhere/z.rs"}) {
      ASSERT_TRUE(fs_.AddFile(path, "x").has_value());
    }
    ASSERT_TRUE(fs_.AddDir("/repo/empty.rs").has_value());  // a directory never matches
  }
  std::string Run(const std::string& args) {
    ReversedListFileSystem reversed(&fs_);
    return RunGlob(RepoContext(&reversed), args);
  }
  MemoryFileSystem fs_;
};

TEST_F(GlobTest, SortedAbsolutePaths) {
  // Byte order of whole paths: `a-b.rs` before `src/…` (and `-` before `/`).
  EXPECT_EQ(Run(R"({"pattern":"**/*.rs"})"),
            "/repo/a-b.rs\n/repo/src/lib.rs\n/repo/src/main.rs\n/repo/src/util/mod.rs");
  EXPECT_EQ(Run(R"({"pattern":"src/*.rs"})"), "/repo/src/lib.rs\n/repo/src/main.rs");
  EXPECT_EQ(Run(R"({"pattern":"*.rs","path":"src/util"})"), "/repo/src/util/mod.rs");
  EXPECT_EQ(Run(R"({"pattern":"/elsewhere/*.rs"})"), "/elsewhere/z.rs");
  EXPECT_EQ(Run(R"({"pattern":"../elsewhere/*"})"), "/elsewhere/z.rs");
  EXPECT_EQ(Run(R"({"pattern":"README.md"})"), "/repo/README.md");
}

TEST_F(GlobTest, SkippedDirectoriesOnlyWhenDescending) {
  EXPECT_EQ(Run(R"({"pattern":"**/q.rs"})"), "No files match **/q.rs in /repo");
  EXPECT_EQ(Run(R"({"pattern":"node_modules/**/q.rs"})"), "/repo/node_modules/p/q.rs");
}

TEST_F(GlobTest, NoMatchesAndErrors) {
  EXPECT_EQ(Run(R"({"pattern":"*.py"})"), "No files match *.py in /repo");
  EXPECT_EQ(Run(R"({"pattern":"nope/*.rs"})"), "No files match nope/*.rs in /repo/nope");
  EXPECT_EQ(Run(R"({"pattern":"*.rs","path":"nope"})"), "glob failed: not_found: /repo/nope");
  EXPECT_EQ(Run(R"({"pattern":"*.rs","path":"README.md"})"),
            "glob failed: not_a_directory: /repo/README.md");
  EXPECT_EQ(Run(R"({"pattern":"[x"})"),
            "glob failed: invalid pattern: unclosed `[` at byte 0 (write `\\[` for a literal)");
  EXPECT_EQ(Run(R"({"path":"."})"), "failed to parse function arguments: missing field `pattern`");
}

TEST_F(GlobTest, OutputIsBounded) {
  for (std::size_t i = 0; i < kGlobMaxResults + 3; ++i) {
    ASSERT_TRUE(fs_.AddFile("/repo/many/f" + std::to_string(1000 + i) + ".txt", "").has_value());
  }
  std::string out = Run(R"({"pattern":"many/*.txt"})");
  EXPECT_TRUE(out.starts_with("/repo/many/f1000.txt\n/repo/many/f1001.txt\n"));
  EXPECT_TRUE(out.ends_with("/repo/many/f1499.txt\n[3 more files not shown; narrow the pattern]"));
}

}  // namespace
}  // namespace agentctx
