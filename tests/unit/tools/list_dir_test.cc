// SPDX-License-Identifier: MIT
#include "tools/list_dir.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "unit/tools/tool_test_support.h"

namespace agentctx {
namespace {

using testing::RepoContext;
using testing::ReversedListFileSystem;

class ListDirTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(fs_.AddDir("/repo").has_value()); }
  std::string Run(const std::string& args) {
    ReversedListFileSystem unsorted(&fs_);
    return RunListDir(RepoContext(&unsorted), args);
  }
  MemoryFileSystem fs_;
};

// Entries sorted by name bytes, directories suffixed `/`.
TEST_F(ListDirTest, SortedByNameBytesWithDirSuffix) {
  ASSERT_TRUE(fs_.AddDir("/repo/src").has_value());
  ASSERT_TRUE(fs_.AddFile("/repo/b.txt", "").has_value());
  ASSERT_TRUE(fs_.AddFile("/repo/A.md", "").has_value());
  ASSERT_TRUE(fs_.AddFile("/repo/src/main.rs", "").has_value());
  EXPECT_EQ(Run(R"({"path":"."})"), "Absolute path: /repo\nA.md\nb.txt\nsrc/");
}

TEST_F(ListDirTest, DepthFirstWithTwoSpacesPerLevel) {
  ASSERT_TRUE(fs_.AddFile("/repo/a/b/c/deep.txt", "").has_value());
  ASSERT_TRUE(fs_.AddFile("/repo/a/b/x.txt", "").has_value());
  ASSERT_TRUE(fs_.AddFile("/repo/a/y.txt", "").has_value());
  ASSERT_TRUE(fs_.AddFile("/repo/z.txt", "").has_value());
  EXPECT_EQ(Run(R"({"path":"/repo","depth":2})"), "Absolute path: /repo\na/\n  b/\n  y.txt\nz.txt");
  EXPECT_EQ(Run(R"({"path":"/repo","depth":3})"),
            "Absolute path: /repo\na/\n  b/\n    c/\n    x.txt\n  y.txt\nz.txt");
  EXPECT_EQ(Run(R"({"path":"a"})"), "Absolute path: /repo/a\nb/\ny.txt");
}

TEST_F(ListDirTest, DepthIsLimitedToThree) {
  EXPECT_EQ(Run(R"({"path":".","depth":4})"),
            "failed to parse function arguments: invalid value for `depth`: expected an integer "
            "from 1 to 3");
  EXPECT_EQ(Run(R"({"path":".","depth":0})"),
            "failed to parse function arguments: invalid value for `depth`: expected an integer "
            "from 1 to 3");
}

TEST_F(ListDirTest, SymlinksAreListedNotFollowed) {
  ASSERT_TRUE(fs_.AddDir("/repo/real").has_value());
  ASSERT_TRUE(fs_.AddFile("/repo/real/f", "").has_value());
  ASSERT_TRUE(fs_.AddSymlink("/repo/link", "real").has_value());
  ASSERT_TRUE(fs_.AddOther("/repo/fifo").has_value());
  EXPECT_EQ(Run(R"({"path":".","depth":2})"), "Absolute path: /repo\nfifo\nlink\nreal/\n  f");
}

TEST_F(ListDirTest, EmptyDirectory) { EXPECT_EQ(Run(R"({"path":"."})"), "Absolute path: /repo"); }

TEST_F(ListDirTest, At500EntriesMoreAreOmitted) {
  for (int i = 0; i < 501; ++i) {
    char name[32];
    std::snprintf(name, sizeof(name), "/repo/f%03d", i);
    ASSERT_TRUE(fs_.AddFile(name, "").has_value());
  }
  std::string out = Run(R"({"path":"."})");
  EXPECT_NE(out.find("\nf499\n[more entries omitted]"), std::string::npos);
  EXPECT_EQ(out.find("f500"), std::string::npos);
  // Exactly 500 entries: no notice.
  ASSERT_TRUE(fs_.Remove("/repo/f500").has_value());
  std::string full = Run(R"({"path":"."})");
  EXPECT_EQ(full.find("[more entries omitted]"), std::string::npos);
  EXPECT_EQ(full.substr(full.size() - 5), "\nf499");
}

TEST_F(ListDirTest, CapCountsNestedEntries) {
  ASSERT_TRUE(fs_.AddDir("/repo/d").has_value());
  for (int i = 0; i < 500; ++i) {
    char name[32];
    std::snprintf(name, sizeof(name), "/repo/d/f%03d", i);
    ASSERT_TRUE(fs_.AddFile(name, "").has_value());
  }
  std::string out = Run(R"({"path":".","depth":2})");
  EXPECT_NE(out.find("\n  f498\n[more entries omitted]"), std::string::npos);
}

TEST_F(ListDirTest, Errors) {
  ASSERT_TRUE(fs_.AddFile("/repo/file", "").has_value());
  EXPECT_EQ(Run(R"({"path":"missing"})"), "list_dir failed: not_found: /repo/missing");
  EXPECT_EQ(Run(R"({"path":"file"})"), "list_dir failed: not_a_directory: /repo/file");
  EXPECT_EQ(Run(R"({"path":"/.."})"), "list_dir failed: invalid_path: /..");
  EXPECT_EQ(Run(R"({"depth":1})"), "failed to parse function arguments: missing field `path`");
}

TEST_F(ListDirTest, UnlistableSubdirectoryShowsNoChildren) {
  ASSERT_TRUE(fs_.AddFile("/repo/locked/inner", "").has_value());
  ASSERT_TRUE(fs_.AddFile("/repo/open/inner", "").has_value());
  fs_.InjectError("/repo/locked", MemoryFileSystem::Op::kList, ErrorCode::kPermissionDenied);
  EXPECT_EQ(Run(R"({"path":".","depth":2})"), "Absolute path: /repo\nlocked/\nopen/\n  inner");
}

}  // namespace
}  // namespace agentctx
