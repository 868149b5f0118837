// SPDX-License-Identifier: MIT
#include "tools/builtin_tools.h"

#include <gtest/gtest.h>

#include <string>

#include "protocol/json_codec.h"
#include "tools/sandbox_policy.h"
#include "unit/tools/tool_test_support.h"

namespace agentctx {
namespace {

using testing::RepoContext;

// The fixed order: read_file, list_dir, write_file, then ours.
TEST(BuiltinTools, FixedOrder) {
  EXPECT_EQ(kBuiltinToolNames, (std::array<std::string_view, kBuiltinToolCount>{
                                   "read_file", "list_dir", "write_file", "edit_file",
                                   "apply_patch", "grep", "glob"}));
}

// Exact spec bytes, in the fixed order.
TEST(BuiltinTools, ExactSpecBytes) {
  auto specs = BuiltinToolSpecsJson();
  EXPECT_EQ(
      specs[0],
      R"({"type":"function","name":"read_file","description":"Reads a text file and returns numbered lines.","strict":false,"parameters":{"additionalProperties":false,"properties":{"limit":{"description":"Maximum number of lines (default 2000).","minimum":1,"type":"integer"},"offset":{"description":"1-based first line (default 1).","minimum":1,"type":"integer"},"path":{"description":"Absolute path, or a path relative to the working directory.","type":"string"}},"required":["path"],"type":"object"}})");
  EXPECT_EQ(
      specs[1],
      R"({"type":"function","name":"list_dir","description":"Lists a directory.","strict":false,"parameters":{"additionalProperties":false,"properties":{"depth":{"description":"Directory levels to list (default 1).","maximum":3,"minimum":1,"type":"integer"},"path":{"description":"Absolute path, or a path relative to the working directory.","type":"string"}},"required":["path"],"type":"object"}})");
  EXPECT_EQ(
      specs[2],
      R"({"type":"function","name":"write_file","description":"Writes a UTF-8 text file, replacing it if it exists.","strict":false,"parameters":{"additionalProperties":false,"properties":{"content":{"description":"The complete new file content.","type":"string"},"path":{"description":"Absolute path, or a path relative to the working directory.","type":"string"}},"required":["path","content"],"type":"object"}})");
}

// The spec bytes are canonical: compact, parameters with sorted keys.
TEST(BuiltinTools, SpecsAreCanonical) {
  auto specs = BuiltinToolSpecsJson();
  for (std::size_t i = 0; i < specs.size(); ++i) {
    auto parsed = ParseJson(specs[i]);
    ASSERT_TRUE(parsed.has_value());
    EXPECT_EQ(ToJson(*parsed), specs[i]);
    EXPECT_EQ(ToSortedJson(*parsed->Find("parameters")), ToJson(*parsed->Find("parameters")));
    EXPECT_EQ(parsed->GetString("name").value_or(""), kBuiltinToolNames[i]);
  }
}

TEST(BuiltinTools, NamesAndDispatch) {
  EXPECT_TRUE(IsBuiltinTool("read_file"));
  EXPECT_TRUE(IsBuiltinTool("list_dir"));
  EXPECT_TRUE(IsBuiltinTool("write_file"));
  EXPECT_TRUE(IsBuiltinTool("edit_file"));
  EXPECT_TRUE(IsBuiltinTool("apply_patch"));
  EXPECT_TRUE(IsBuiltinTool("grep"));
  EXPECT_TRUE(IsBuiltinTool("glob"));
  EXPECT_FALSE(IsBuiltinTool("nope"));
  EXPECT_FALSE(IsBuiltinTool("Read_file"));
  MemoryFileSystem fs;
  ASSERT_TRUE(fs.AddFile("/repo/a.txt", "hi\n").has_value());
  ToolContext ctx = RepoContext(&fs);
  EXPECT_EQ(RunBuiltinTool(ctx, "read_file", R"({"path":"a.txt"})"), "L1: hi");
  EXPECT_EQ(RunBuiltinTool(ctx, "list_dir", R"({"path":"."})"), "Absolute path: /repo\na.txt");
  EXPECT_EQ(RunBuiltinTool(ctx, "write_file", R"({"path":"b.txt","content":"x"})"),
            "Wrote 1 bytes to /repo/b.txt");
  EXPECT_EQ(
      RunBuiltinTool(ctx, "edit_file", R"({"path":"b.txt","old_string":"x","new_string":"y"})"),
      "Edited /repo/b.txt: replaced 1 occurrence (line 1)");
  EXPECT_EQ(RunBuiltinTool(ctx, "grep", R"({"pattern":"^h"})"), "/repo/a.txt:1: hi");
  EXPECT_EQ(RunBuiltinTool(ctx, "glob", R"({"pattern":"*.txt"})"), "/repo/a.txt\n/repo/b.txt");
  EXPECT_EQ(RunBuiltinTool(ctx, "apply_patch",
                           R"({"patch":"*** Begin Patch\n*** Delete File: b.txt\n*** End Patch"})"),
            "Applied patch:\nD /repo/b.txt");
  // A call to an unknown name.
  EXPECT_EQ(RunBuiltinTool(ctx, "nope", "{}"), "unsupported call: nope");
  EXPECT_EQ(UnsupportedCallOutput("shell"), "unsupported call: shell");
}

TEST(SandboxPolicy, ModeNamesComeFromTheProtocolDescription) {
  EXPECT_EQ(FromWire<SandboxMode>("read-only"), SandboxMode::kReadOnly);
  EXPECT_EQ(ToWire(SandboxMode::kDangerFullAccess), "danger-full-access");
  EXPECT_EQ(FromWire<SandboxMode>("bogus"), std::nullopt);
  EXPECT_EQ(ToWire(SandboxPolicy{}.mode), "workspace-write");
}

TEST(SandboxPolicy, EffectiveWritableRootsSortedDeduplicated) {
  SandboxPolicy policy;
  policy.writable_roots = {"/scratch", "/repo/", "/a/./b", "relative", "/scratch"};
  EXPECT_EQ(EffectiveWritableRoots(policy, "/repo"),
            (std::vector<std::string>{"/a/b", "/repo", "/scratch"}));
}

TEST(SandboxPolicy, SegmentBoundary) {
  SandboxPolicy policy;
  EXPECT_FALSE(CheckWritePolicy(policy, "/repo", "/repo/x").has_value());
  EXPECT_FALSE(CheckWritePolicy(policy, "/repo", "/repo").has_value());
  EXPECT_EQ(CheckWritePolicy(policy, "/repo", "/repository/x").value_or(""),
            "write_file refused: /repository/x is outside the writable roots");
  SandboxPolicy root_policy;
  root_policy.writable_roots = {"/"};
  EXPECT_FALSE(CheckWritePolicy(root_policy, "/repo", "/etc/x").has_value());
}

TEST(SandboxPolicy, RefusalsNameTheTool) {
  SandboxPolicy policy;
  EXPECT_EQ(CheckWritePolicy(policy, "/repo", "/etc/x", "edit_file").value_or(""),
            "edit_file refused: /etc/x is outside the writable roots");
  EXPECT_FALSE(CheckReadOnly(policy, "apply_patch").has_value());
  policy.mode = SandboxMode::kReadOnly;
  EXPECT_EQ(CheckWritePolicy(policy, "/repo", "/repo/x", "apply_patch").value_or(""),
            "apply_patch refused: sandbox_mode is read-only");
  EXPECT_EQ(CheckReadOnly(policy, "edit_file").value_or(""),
            "edit_file refused: sandbox_mode is read-only");
  policy.mode = SandboxMode::kDangerFullAccess;
  EXPECT_FALSE(CheckWritePolicy(policy, "/repo", "/etc/x", "edit_file").has_value());
}

}  // namespace
}  // namespace agentctx
