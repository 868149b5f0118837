// SPDX-License-Identifier: MIT
#include "tools/write_file.h"

#include <gtest/gtest.h>

#include <string>

#include "unit/tools/tool_test_support.h"

namespace agentctx {
namespace {

using testing::RepoContext;

class WriteFileTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(fs_.AddDir("/repo").has_value()); }
  std::string Run(const std::string& args, SandboxMode mode = SandboxMode::kWorkspaceWrite,
                  std::vector<std::string> roots = {}) {
    return RunWriteFile(RepoContext(&fs_, mode, std::move(roots)), args);
  }
  std::string Contents(const std::string& path) {
    auto r = fs_.Read(path, 1 << 20);
    return r.has_value() ? *r : "<" + r.error().Display() + ">";
  }
  MemoryFileSystem fs_;
};

TEST_F(WriteFileTest, WritesAndCreatesParents) {
  EXPECT_EQ(Run(R"({"path":"src/new/a.txt","content":"h\u00e9llo\n"})"),
            "Wrote 7 bytes to /repo/src/new/a.txt");
  EXPECT_EQ(Contents("/repo/src/new/a.txt"), "h\xC3\xA9llo\n");
  EXPECT_EQ(Run(R"({"path":"/repo/src/new/a.txt","content":""})"),
            "Wrote 0 bytes to /repo/src/new/a.txt");
  EXPECT_EQ(Contents("/repo/src/new/a.txt"), "");
}

// Read-only sandbox mode refuses.
TEST_F(WriteFileTest, ReadOnlyRefuses) {
  EXPECT_EQ(Run(R"({"path":"a.txt","content":"x"})", SandboxMode::kReadOnly),
            "write_file refused: sandbox_mode is read-only");
  EXPECT_EQ(Contents("/repo/a.txt"), "<not_found: /repo/a.txt>");
}

// A path outside the writable roots (segment boundary).
TEST_F(WriteFileTest, WorkspaceWriteRefusesOutsideRoots) {
  EXPECT_EQ(Run(R"({"path":"/etc/x","content":"x"})"),
            "write_file refused: /etc/x is outside the writable roots");
  EXPECT_EQ(Run(R"({"path":"/repo2/x","content":"x"})"),
            "write_file refused: /repo2/x is outside the writable roots");
  EXPECT_EQ(Run(R"({"path":"../repo2/x","content":"x"})"),
            "write_file refused: /repo2/x is outside the writable roots");
  EXPECT_EQ(Contents("/repo2/x"), "<not_found: /repo2/x>");
}

TEST_F(WriteFileTest, WorkspaceWriteAllowsCwdAndExtraRoots) {
  EXPECT_EQ(Run(R"({"path":"/scratch/out.txt","content":"ab"})", SandboxMode::kWorkspaceWrite,
                {"/scratch/"}),
            "Wrote 2 bytes to /scratch/out.txt");
  EXPECT_EQ(Run(R"({"path":"x","content":"1"})"), "Wrote 1 bytes to /repo/x");
  // The root itself is "equal to" a writable root; the FileSystem then refuses a directory.
  EXPECT_EQ(Run(R"({"path":"/repo","content":"1"})"), "write_file failed: is_a_directory: /repo");
}

TEST_F(WriteFileTest, DangerFullAccessAllowsAnyPath) {
  EXPECT_EQ(Run(R"({"path":"/etc/x","content":"x"})", SandboxMode::kDangerFullAccess),
            "Wrote 1 bytes to /etc/x");
  EXPECT_EQ(Contents("/etc/x"), "x");
}

// A read-only preopen refuses by itself.
TEST_F(WriteFileTest, FileSystemRefusalIsAFailure) {
  fs_.InjectError("/repo/x", MemoryFileSystem::Op::kWrite, ErrorCode::kPermissionDenied);
  EXPECT_EQ(Run(R"({"path":"/repo/x","content":"x"})"),
            "write_file failed: permission_denied: /repo/x");
}

TEST_F(WriteFileTest, BadArgumentsAndPaths) {
  EXPECT_EQ(Run(R"({"path":"a"})"), "failed to parse function arguments: missing field `content`");
  EXPECT_EQ(Run(R"({"path":"a","content":5})"),
            "failed to parse function arguments: invalid type for `content`: expected a string");
  EXPECT_EQ(Run(R"({"path":"../../x","content":""})"), "write_file failed: invalid_path: ../../x");
}

}  // namespace
}  // namespace agentctx
