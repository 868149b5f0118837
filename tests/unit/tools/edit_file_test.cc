// SPDX-License-Identifier: MIT
#include "tools/edit_file.h"

#include <gtest/gtest.h>

#include <string>

#include "unit/tools/tool_test_support.h"

namespace agentctx {
namespace {

using testing::RepoContext;

class EditFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(
        fs_.AddFile("/repo/src/main.rs", "fn main() {\n    println!(\"hello\");\n}\n").has_value());
    ASSERT_TRUE(fs_.AddFile("/repo/dup.txt", "a = 1\nb = 1\nc = 1\n").has_value());
  }
  std::string Run(const std::string& args, SandboxMode mode = SandboxMode::kWorkspaceWrite) {
    return RunEditFile(RepoContext(&fs_, mode), args);
  }
  std::string Contents(const std::string& path) {
    auto r = fs_.Read(path, 1 << 20);
    return r.has_value() ? *r : "<" + r.error().Display() + ">";
  }
  MemoryFileSystem fs_;
};

TEST_F(EditFileTest, ReplacesTheUniqueOccurrence) {
  EXPECT_EQ(Run(R"({"path":"src/main.rs","old_string":"\"hello\"","new_string":"\"bye\""})"),
            "Edited /repo/src/main.rs: replaced 1 occurrence (line 2)");
  EXPECT_EQ(Contents("/repo/src/main.rs"), "fn main() {\n    println!(\"bye\");\n}\n");
}

TEST_F(EditFileTest, MultiLineOldStringAndDeletion) {
  EXPECT_EQ(
      Run(R"({"path":"/repo/src/main.rs","old_string":"{\n    println!(\"hello\");\n","new_string":""})"),
      "Edited /repo/src/main.rs: replaced 1 occurrence (line 1)");
  EXPECT_EQ(Contents("/repo/src/main.rs"), "fn main() }\n");
}

TEST_F(EditFileTest, NotFoundChangesNothing) {
  EXPECT_EQ(Run(R"({"path":"src/main.rs","old_string":"goodbye","new_string":"x"})"),
            "edit_file failed: old_string was not found in /repo/src/main.rs (it must match "
            "exactly, whitespace included; read the file again)");
  EXPECT_EQ(Contents("/repo/src/main.rs"), "fn main() {\n    println!(\"hello\");\n}\n");
}

TEST_F(EditFileTest, NotUniqueNeedsReplaceAll) {
  EXPECT_EQ(Run(R"({"path":"dup.txt","old_string":"= 1","new_string":"= 2"})"),
            "edit_file failed: old_string occurs 3 times in /repo/dup.txt; include more "
            "surrounding lines to make it unique, or set replace_all");
  EXPECT_EQ(Contents("/repo/dup.txt"), "a = 1\nb = 1\nc = 1\n");
  EXPECT_EQ(Run(R"({"path":"dup.txt","old_string":"b = 1","new_string":"b = 2"})"),
            "Edited /repo/dup.txt: replaced 1 occurrence (line 2)");
  EXPECT_EQ(Run(R"({"path":"dup.txt","old_string":"= 1","new_string":"= 3","replace_all":true})"),
            "Edited /repo/dup.txt: replaced 2 occurrences (lines 1, 3)");
  EXPECT_EQ(Contents("/repo/dup.txt"), "a = 3\nb = 2\nc = 3\n");
  // replace_all with a single occurrence is fine; false is the default.
  EXPECT_EQ(Run(R"({"path":"dup.txt","old_string":"b","new_string":"B","replace_all":false})"),
            "Edited /repo/dup.txt: replaced 1 occurrence (line 2)");
}

TEST_F(EditFileTest, ReplaceAllNonOverlappingAndManyLines) {
  ASSERT_TRUE(fs_.AddFile("/repo/aaa.txt", "aaaa").has_value());
  EXPECT_EQ(Run(R"({"path":"aaa.txt","old_string":"aa","new_string":"b","replace_all":true})"),
            "Edited /repo/aaa.txt: replaced 2 occurrences (lines 1, 1)");
  EXPECT_EQ(Contents("/repo/aaa.txt"), "bb");
  std::string many;
  for (int i = 0; i < 12; ++i) many += "x\n";
  ASSERT_TRUE(fs_.AddFile("/repo/many.txt", many).has_value());
  EXPECT_EQ(Run(R"({"path":"many.txt","old_string":"x","new_string":"y","replace_all":true})"),
            "Edited /repo/many.txt: replaced 12 occurrences (lines 1, 2, 3, 4, 5, 6, 7, 8, 9, "
            "10, …)");
}

TEST_F(EditFileTest, CrlfFilesMatchLfOldStrings) {
  ASSERT_TRUE(fs_.AddFile("/repo/win.txt", "one\r\ntwo\r\nthree\r\n").has_value());
  EXPECT_EQ(Run(R"({"path":"win.txt","old_string":"one\ntwo","new_string":"1\n2"})"),
            "Edited /repo/win.txt: replaced 1 occurrence (line 1)");
  EXPECT_EQ(Contents("/repo/win.txt"), "1\r\n2\r\nthree\r\n");
}

TEST_F(EditFileTest, KeepsBytesOutsideTheEdit) {
  ASSERT_TRUE(fs_.AddFile("/repo/bin.dat", std::string("\xFF\x00key=1\xFE", 8)).has_value());
  EXPECT_EQ(Run(R"({"path":"bin.dat","old_string":"key=1","new_string":"key=2"})"),
            "Edited /repo/bin.dat: replaced 1 occurrence (line 1)");
  EXPECT_EQ(Contents("/repo/bin.dat"), std::string("\xFF\x00key=2\xFE", 8));
}

TEST_F(EditFileTest, ReadOnlyRefusesAndChangesNothing) {
  fs_.InjectError("/repo/src/main.rs", MemoryFileSystem::Op::kRead, ErrorCode::kIo);
  // Refused before anything is read (the injected read error would show otherwise).
  EXPECT_EQ(Run(R"({"path":"src/main.rs","old_string":"hello","new_string":"x"})",
                SandboxMode::kReadOnly),
            "edit_file refused: sandbox_mode is read-only");
  fs_.ClearErrors();
  EXPECT_EQ(Contents("/repo/src/main.rs"), "fn main() {\n    println!(\"hello\");\n}\n");
  EXPECT_EQ(Run(R"({"path":"/etc/hosts","old_string":"a","new_string":"b"})"),
            "edit_file refused: /etc/hosts is outside the writable roots");
}

TEST_F(EditFileTest, FileSystemErrors) {
  EXPECT_EQ(Run(R"({"path":"missing.txt","old_string":"a","new_string":"b"})"),
            "edit_file failed: not_found: /repo/missing.txt");
  EXPECT_EQ(Run(R"({"path":"src","old_string":"a","new_string":"b"})"),
            "edit_file failed: is_a_directory: /repo/src");
  fs_.InjectError("/repo/dup.txt", MemoryFileSystem::Op::kWrite, ErrorCode::kPermissionDenied);
  EXPECT_EQ(Run(R"({"path":"dup.txt","old_string":"a = 1","new_string":"a = 9"})"),
            "edit_file failed: permission_denied: /repo/dup.txt");
  EXPECT_EQ(Contents("/repo/dup.txt"), "a = 1\nb = 1\nc = 1\n");
  ASSERT_TRUE(fs_.AddFile("/repo/big.txt", std::string(kEditFileMaxBytes + 1, 'a')).has_value());
  EXPECT_EQ(Run(R"({"path":"big.txt","old_string":"a","new_string":"b"})"),
            "edit_file failed: /repo/big.txt is larger than 4194304 bytes");
}

TEST_F(EditFileTest, BadArguments) {
  EXPECT_EQ(Run(R"({"path":"dup.txt","old_string":"a"})"),
            "failed to parse function arguments: missing field `new_string`");
  EXPECT_EQ(Run(R"({"path":"dup.txt","old_string":"a","new_string":"b","replace_all":"yes"})"),
            "failed to parse function arguments: invalid type for `replace_all`: expected a "
            "boolean");
  EXPECT_EQ(Run(R"({"path":"dup.txt","old_string":"","new_string":"b"})"),
            "edit_file failed: old_string is empty (use write_file to create a file)");
  EXPECT_EQ(Run(R"({"path":"dup.txt","old_string":"a","new_string":"a"})"),
            "edit_file failed: old_string and new_string are identical");
  EXPECT_EQ(Run(R"({"path":"../../x","old_string":"a","new_string":"b"})"),
            "edit_file failed: invalid_path: ../../x");
}

}  // namespace
}  // namespace agentctx
