// SPDX-License-Identifier: MIT
#include "tools/read_file.h"

#include <gtest/gtest.h>

#include <string>

#include "unit/tools/tool_test_support.h"

namespace agentctx {
namespace {

using testing::RepoContext;

class ReadFileTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(fs_.AddDir("/repo").has_value()); }
  void Add(const std::string& path, const std::string& bytes) {
    ASSERT_TRUE(fs_.AddFile(path, bytes).has_value());
  }
  std::string Run(const std::string& args) { return RunReadFile(RepoContext(&fs_), args); }
  MemoryFileSystem fs_;
};

// Exact expected outputs.
TEST_F(ReadFileTest, NumberedLinesDropCrBeforeLf) {
  Add("/repo/a.txt", "one\r\ntwo\n");
  EXPECT_EQ(Run(R"({"path":"a.txt"})"), "L1: one\nL2: two");
}

TEST_F(ReadFileTest, OffsetPastEnd) {
  Add("/repo/a.txt", "one\r\ntwo\n");
  EXPECT_EQ(Run(R"({"path":"a.txt","offset":5})"),
            "read_file failed: offset 5 exceeds file length (2 lines)");
  EXPECT_EQ(Run(R"({"path":"a.txt","offset":3})"),
            "read_file failed: offset 3 exceeds file length (2 lines)");
  EXPECT_EQ(Run(R"({"path":"a.txt","offset":2})"), "L2: two");
}

TEST_F(ReadFileTest, MissingFile) {
  EXPECT_EQ(Run(R"({"path":"missing"})"), "read_file failed: not_found: /repo/missing");
}

TEST_F(ReadFileTest, BadArguments) {
  EXPECT_EQ(Run(R"({"path":1})"),
            "failed to parse function arguments: invalid type for `path`: expected a string");
  EXPECT_EQ(Run(R"({})"), "failed to parse function arguments: missing field `path`");
  EXPECT_EQ(Run(R"([])"), "failed to parse function arguments: expected a JSON object");
  EXPECT_EQ(Run(R"({"path":"a","offset":0})"),
            "failed to parse function arguments: invalid value for `offset`: expected an integer "
            ">= 1");
  EXPECT_EQ(Run(R"({"path":"a","limit":1.5})"),
            "failed to parse function arguments: invalid value for `limit`: expected an integer "
            ">= 1");
  std::string not_json = Run("{oops");
  EXPECT_EQ(not_json.rfind("failed to parse function arguments: invalid JSON at byte 1", 0), 0u)
      << not_json;
}

TEST_F(ReadFileTest, NullOptionalsAndUnknownFieldsAreIgnored) {
  Add("/repo/a.txt", "x\n");
  EXPECT_EQ(Run(R"({"path":"a.txt","offset":null,"limit":null,"extra":true})"), "L1: x");
}

TEST_F(ReadFileTest, EmptyFile) {
  Add("/repo/e.txt", "");
  EXPECT_EQ(Run(R"({"path":"e.txt"})"), "(empty file)");
  EXPECT_EQ(Run(R"({"path":"/repo/e.txt","offset":3})"), "(empty file)");
}

TEST_F(ReadFileTest, OffsetAndLimit) {
  Add("/repo/n.txt", "1\n2\n3\n4\n5");
  EXPECT_EQ(Run(R"({"path":"n.txt","offset":2,"limit":2})"), "L2: 2\nL3: 3");
  EXPECT_EQ(Run(R"({"path":"n.txt","offset":4,"limit":100})"), "L4: 4\nL5: 5");
  EXPECT_EQ(Run(R"({"path":"n.txt","limit":1})"), "L1: 1");
}

TEST_F(ReadFileTest, DefaultLimitIs2000Lines) {
  std::string text;
  for (int i = 0; i < 2005; ++i) text += "x\n";
  Add("/repo/big.txt", text);
  std::string out = Run(R"({"path":"big.txt"})");
  EXPECT_NE(out.find("\nL2000: x"), std::string::npos);
  EXPECT_EQ(out.find("L2001"), std::string::npos);
}

TEST_F(ReadFileTest, LineEndingsOtherThanCrLf) {
  Add("/repo/r.txt", "a\rb\n\n\r\nlast\r");
  // A lone `\r` is kept; an empty line is a line; a final `\r` without `\n` is kept.
  EXPECT_EQ(Run(R"({"path":"r.txt"})"), "L1: a\rb\nL2: \nL3: \nL4: last\r");
}

TEST_F(ReadFileTest, LongLinesCutTo500BytesOnCharBoundary) {
  Add("/repo/long.txt", std::string(499, 'a') + "\xC3\xA9" + "tail\nshort");
  EXPECT_EQ(Run(R"({"path":"long.txt"})"), "L1: " + std::string(499, 'a') + "\nL2: short");
  Add("/repo/exact.txt", std::string(600, 'b'));
  EXPECT_EQ(Run(R"({"path":"exact.txt"})"), "L1: " + std::string(500, 'b'));
}

TEST_F(ReadFileTest, InvalidUtf8IsReplaced) {
  Add("/repo/bin.txt",
      "a\xFF"
      "b\n");
  EXPECT_EQ(Run(R"({"path":"bin.txt"})"),
            "L1: a\xEF\xBF\xBD"
            "b");
}

TEST_F(ReadFileTest, ReadsAtMostOneMebibyte) {
  std::string text(kReadFileMaxBytes - 2, 'z');
  text += "\nafter the cap\n";
  Add("/repo/huge.txt", text);
  std::string out = Run(R"({"path":"huge.txt","offset":2})");
  EXPECT_EQ(out, "L2: a");  // only the first byte of line 2 is within 1 MiB
}

TEST_F(ReadFileTest, PathResolution) {
  Add("/repo/src/main.rs", "fn main() {}\n");
  EXPECT_EQ(Run(R"({"path":"./src/../src/main.rs"})"), "L1: fn main() {}");
  EXPECT_EQ(Run(R"({"path":"/repo/src/main.rs"})"), "L1: fn main() {}");
  EXPECT_EQ(Run(R"({"path":"../../x"})"), "read_file failed: invalid_path: ../../x");
  EXPECT_EQ(Run(R"({"path":""})"), "read_file failed: invalid_path: ");
  EXPECT_EQ(Run(R"({"path":"src"})"), "read_file failed: is_a_directory: /repo/src");
}

TEST_F(ReadFileTest, FileSystemErrorsAreReported) {
  Add("/repo/secret", "x");
  fs_.InjectError("/repo/secret", MemoryFileSystem::Op::kRead, ErrorCode::kPermissionDenied);
  EXPECT_EQ(Run(R"({"path":"secret"})"), "read_file failed: permission_denied: /repo/secret");
}

}  // namespace
}  // namespace agentctx
