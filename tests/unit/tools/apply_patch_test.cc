// SPDX-License-Identifier: MIT
#include "tools/apply_patch.h"

#include <gtest/gtest.h>

#include <string>

#include "protocol/json_codec.h"
#include "tools/patch_chunks.h"
#include "tools/patch_parser.h"
#include "unit/tools/tool_test_support.h"

namespace agentctx {
namespace {

using testing::RepoContext;

std::string Args(const std::string& patch) {
  JsonValue args = JsonValue::Object();
  args.Set("patch", JsonValue::String(patch));
  return ToJson(args);
}

class ApplyPatchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(fs_.AddFile("/repo/a.txt", "one\ntwo\nthree\nfour\nfive\n").has_value());
    ASSERT_TRUE(
        fs_.AddFile("/repo/src/lib.rs", "fn add(a: i32) -> i32 {\n    a + 1\n}\n").has_value());
    ASSERT_TRUE(fs_.AddFile("/repo/old.txt", "bye\n").has_value());
  }
  std::string Run(const std::string& patch, SandboxMode mode = SandboxMode::kWorkspaceWrite) {
    return RunApplyPatch(RepoContext(&fs_, mode), Args(patch));
  }
  std::string Contents(const std::string& path) {
    auto r = fs_.Read(path, 1 << 20);
    return r.has_value() ? *r : "<" + r.error().Display() + ">";
  }
  // Every file of the fixture, to prove a failed patch changed nothing.
  std::string Snapshot() {
    return Contents("/repo/a.txt") + "|" + Contents("/repo/src/lib.rs") + "|" +
           Contents("/repo/old.txt") + "|" + Contents("/repo/new.txt") + "|" +
           Contents("/repo/src/moved.rs");
  }
  MemoryFileSystem fs_;
};

TEST_F(ApplyPatchTest, AddDeleteUpdateAndMoveInOnePatch) {
  std::string out =
      Run("*** Begin Patch\n"
          "*** Add File: new.txt\n"
          "+hello\n"
          "+world\n"
          "*** Delete File: old.txt\n"
          "*** Update File: a.txt\n"
          "@@\n"
          " one\n"
          "-two\n"
          "+TWO\n"
          " three\n"
          "*** Update File: src/lib.rs\n"
          "*** Move to: src/moved.rs\n"
          "@@ fn add(a: i32) -> i32 {\n"
          "-    a + 1\n"
          "+    a + 2\n"
          "*** End Patch\n");
  EXPECT_EQ(out,
            "Applied patch:\nA /repo/new.txt\nD /repo/old.txt\nM /repo/a.txt\n"
            "M /repo/src/moved.rs (moved from /repo/src/lib.rs)");
  EXPECT_EQ(Contents("/repo/new.txt"), "hello\nworld\n");
  EXPECT_EQ(Contents("/repo/old.txt"), "<not_found: /repo/old.txt>");
  EXPECT_EQ(Contents("/repo/a.txt"), "one\nTWO\nthree\nfour\nfive\n");
  EXPECT_EQ(Contents("/repo/src/lib.rs"), "<not_found: /repo/src/lib.rs>");
  EXPECT_EQ(Contents("/repo/src/moved.rs"), "fn add(a: i32) -> i32 {\n    a + 2\n}\n");
}

TEST_F(ApplyPatchTest, AddCreatesParentsAndMoveWithoutChunksRenames) {
  EXPECT_EQ(Run("*** Begin Patch\n*** Add File: deep/er/x.md\n+# x\n*** End Patch"),
            "Applied patch:\nA /repo/deep/er/x.md");
  EXPECT_EQ(Contents("/repo/deep/er/x.md"), "# x\n");
  EXPECT_EQ(
      Run("*** Begin Patch\n*** Update File: old.txt\n*** Move to: renamed.txt\n*** End Patch"),
      "Applied patch:\nM /repo/renamed.txt (moved from /repo/old.txt)");
  EXPECT_EQ(Contents("/repo/renamed.txt"), "bye\n");
  EXPECT_EQ(Contents("/repo/old.txt"), "<not_found: /repo/old.txt>");
}

TEST_F(ApplyPatchTest, FailedHunkLeavesEverythingUnchanged) {
  const std::string before = Snapshot();
  // The first hunks would apply; the last one does not match: nothing may be written.
  std::string out =
      Run("*** Begin Patch\n"
          "*** Add File: new.txt\n"
          "+hello\n"
          "*** Delete File: old.txt\n"
          "*** Update File: a.txt\n"
          "@@\n"
          " one\n"
          "-2\n"
          "+TWO\n"
          "*** End Patch");
  EXPECT_EQ(out,
            "apply_patch failed: chunk 1 of /repo/a.txt does not match the file: these lines "
            "were not found:\none\n2. No files were changed.");
  EXPECT_EQ(Snapshot(), before);
}

TEST_F(ApplyPatchTest, PlanningFailuresChangeNothing) {
  const std::string before = Snapshot();
  EXPECT_EQ(Run("*** Begin Patch\n*** Add File: a.txt\n+x\n*** End Patch"),
            "apply_patch failed: cannot add /repo/a.txt: it already exists (use *** Update "
            "File). No files were changed.");
  EXPECT_EQ(
      Run("*** Begin Patch\n*** Add File: new.txt\n+x\n*** Delete File: nope.txt\n*** End Patch"),
      "apply_patch failed: cannot delete /repo/nope.txt: not_found. No files were changed.");
  EXPECT_EQ(Run("*** Begin Patch\n*** Update File: nope.txt\n@@\n-x\n+y\n*** End Patch"),
            "apply_patch failed: cannot update /repo/nope.txt: not_found. No files were changed.");
  EXPECT_EQ(Run("*** Begin Patch\n*** Update File: old.txt\n*** Move to: a.txt\n*** End Patch"),
            "apply_patch failed: cannot move /repo/old.txt to /repo/a.txt: it already exists. No "
            "files were changed.");
  EXPECT_EQ(Run("*** Begin Patch\n*** Update File: a.txt\n@@ six\n+seven\n*** End Patch"),
            "apply_patch failed: chunk 1 of /repo/a.txt: its `@@ six` line was not found. No "
            "files were changed.");
  EXPECT_EQ(Run("*** Begin Patch\n*** Update File: src\n@@\n-x\n*** End Patch"),
            "apply_patch failed: is_a_directory: /repo/src. No files were changed.");
  EXPECT_EQ(Snapshot(), before);
  // Add then delete of the same new file within one patch is allowed, and is no change.
  EXPECT_EQ(
      Run("*** Begin Patch\n*** Add File: tmp.txt\n+x\n*** Delete File: tmp.txt\n*** End Patch"),
      "Applied patch:\nA /repo/tmp.txt\nD /repo/tmp.txt");
  EXPECT_EQ(Contents("/repo/tmp.txt"), "<not_found: /repo/tmp.txt>");
}

TEST_F(ApplyPatchTest, AFileSystemRefusalMidwayIsUndone) {
  const std::string before = Snapshot();
  // Writes go first (new.txt, a.txt), then the removal of old.txt is refused.
  fs_.InjectError("/repo/old.txt", MemoryFileSystem::Op::kRemove, ErrorCode::kPermissionDenied);
  EXPECT_EQ(
      Run("*** Begin Patch\n*** Add File: new.txt\n+x\n*** Update File: a.txt\n@@\n-one\n+ONE\n"
          "*** Delete File: old.txt\n*** End Patch"),
      "apply_patch failed: permission_denied: /repo/old.txt. No files were changed.");
  EXPECT_EQ(Snapshot(), before);
  // When the undo fails too, the output says so.
  fs_.ClearErrors();
  fs_.InjectError("/repo/old.txt", MemoryFileSystem::Op::kRemove, ErrorCode::kPermissionDenied);
  fs_.InjectError("/repo/new.txt", MemoryFileSystem::Op::kRemove, ErrorCode::kPermissionDenied);
  EXPECT_EQ(
      Run("*** Begin Patch\n*** Add File: new.txt\n+x\n*** Delete File: old.txt\n*** End Patch"),
      "apply_patch failed: permission_denied: /repo/old.txt. Undoing the earlier steps "
      "failed for /repo/new.txt: the patch may be partly applied.");
}

TEST_F(ApplyPatchTest, FileSystemsWithoutRemovalRefuseDeletes) {
  testing::ReversedListFileSystem no_remove(&fs_);  // does not override RemoveFile
  ToolContext ctx = RepoContext(&no_remove);
  EXPECT_EQ(RunApplyPatch(ctx, Args("*** Begin Patch\n*** Delete File: old.txt\n*** End Patch")),
            "apply_patch failed: not_capable: /repo/old.txt. No files were changed.");
  EXPECT_EQ(Contents("/repo/old.txt"), "bye\n");
}

TEST_F(ApplyPatchTest, ReadOnlyRefusesAndChangesNothing) {
  const std::string before = Snapshot();
  EXPECT_EQ(
      Run("*** Begin Patch\n*** Add File: new.txt\n+x\n*** End Patch", SandboxMode::kReadOnly),
      "apply_patch refused: sandbox_mode is read-only");
  // Refused even before the patch is parsed.
  EXPECT_EQ(Run("not a patch", SandboxMode::kReadOnly),
            "apply_patch refused: sandbox_mode is read-only");
  EXPECT_EQ(Snapshot(), before);
}

TEST_F(ApplyPatchTest, OutsideTheWritableRootsRefusesTheWholePatch) {
  const std::string before = Snapshot();
  EXPECT_EQ(Run("*** Begin Patch\n*** Add File: new.txt\n+x\n*** Update File: a.txt\n*** Move to: "
                "/tmp/a.txt\n@@\n-one\n+1\n*** End Patch"),
            "apply_patch refused: /tmp/a.txt is outside the writable roots");
  EXPECT_EQ(Snapshot(), before);
  EXPECT_EQ(Run("*** Begin Patch\n*** Add File: ../../x\n+x\n*** End Patch"),
            "apply_patch failed: invalid_path: ../../x. No files were changed.");
}

TEST_F(ApplyPatchTest, InvalidPatchesAreExplained) {
  EXPECT_EQ(Run("*** Update File: a.txt"),
            "apply_patch failed: invalid patch: line 1: the patch must start with `*** Begin "
            "Patch`");
  EXPECT_EQ(Run("*** Begin Patch\n*** Add File: x\n+y"),
            "apply_patch failed: invalid patch: line 3: the patch must end with `*** End Patch`");
  EXPECT_EQ(Run("*** Begin Patch\n*** End Patch"),
            "apply_patch failed: the patch has no file changes");
  EXPECT_EQ(Run("*** Begin Patch\n*** Frobnicate: x\n*** End Patch"),
            "apply_patch failed: invalid patch: line 2: `*** Frobnicate: x` is not a hunk header "
            "(expected `*** Add File: <path>`, `*** Delete File: <path>` or `*** Update File: "
            "<path>`)");
  EXPECT_EQ(Run("*** Begin Patch\n*** Update File: a.txt\n*** End Patch"),
            "apply_patch failed: invalid patch: line 2: `*** Update File: a.txt` has no changes");
  EXPECT_EQ(Run("*** Begin Patch\n*** Update File: a.txt\n@@\nzzz\n*** End Patch"),
            "apply_patch failed: invalid patch: line 4: unexpected line `zzz` in a chunk: every "
            "line starts with ` ` (context), `-` (removed) or `+` (added)");
  EXPECT_EQ(Run("*** Begin Patch\n*** Update File: a.txt\n@@\n-one\nbogus\n*** End Patch"),
            "apply_patch failed: invalid patch: line 5: expected a `@@` chunk header, got `bogus`");
  EXPECT_EQ(RunApplyPatch(RepoContext(&fs_), R"({"patch":1})"),
            "failed to parse function arguments: invalid type for `patch`: expected a string");
}

TEST(PatchParser, LenientMarkersHeredocAndCrlf) {
  auto hunks = ParsePatch(
      "<<'EOF'\r\n  *** Begin Patch  \r\n*** Update File: a.txt\r\n one\r\n-two\r\n+2\r\n\r\n@@ "
      "four\r\n-five\r\n+5\r\n*** End of File\r\n*** End Patch\r\nEOF\r\n");
  ASSERT_TRUE(hunks.has_value()) << hunks.error().message;
  ASSERT_EQ(hunks->size(), 1u);
  const PatchHunk& h = (*hunks)[0];
  EXPECT_EQ(h.path, "a.txt");
  EXPECT_EQ(h.line, 3u);
  ASSERT_EQ(h.chunks.size(), 2u);
  EXPECT_FALSE(h.chunks[0].context.has_value());  // the first chunk may omit `@@`
  // As upstream, an empty line inside a chunk is an empty context line (the applier retries
  // without a trailing one).
  EXPECT_EQ(h.chunks[0].old_lines, (std::vector<std::string>{"one", "two", ""}));
  EXPECT_EQ(h.chunks[0].new_lines, (std::vector<std::string>{"one", "2", ""}));
  EXPECT_EQ(h.chunks[1].context, std::optional<std::string>("four"));
  EXPECT_TRUE(h.chunks[1].end_of_file);
}

TEST(PatchChunks, MatchingLevelsAndPlacement) {
  // Trailing whitespace, surrounding whitespace and typographic punctuation are tolerated.
  std::vector<PatchChunk> chunks(1);
  chunks[0].old_lines = {"a  ", "  b", "say \"hi\" - now"};
  chunks[0].new_lines = {"A"};
  auto out =
      ApplyPatchChunks("a\nb\nsay \xE2\x80\x9Chi\xE2\x80\x9D \xE2\x80\x94 now\n", chunks, "f");
  ASSERT_TRUE(out.has_value()) << out.error().message;
  EXPECT_EQ(*out, "A\n");
  // Additions: after the @@ line, or at the end of the file; a newline is always added.
  std::vector<PatchChunk> add(2);
  add[0].context = "x";
  add[0].new_lines = {"after x"};
  add[1].new_lines = {"at end"};
  out = ApplyPatchChunks("x\ny", add, "f");
  ASSERT_TRUE(out.has_value()) << out.error().message;
  EXPECT_EQ(*out, "x\nafter x\ny\nat end\n");
  // End of File chunks match the last lines first; CRLF files stay CRLF.
  std::vector<PatchChunk> eof(1);
  eof[0].old_lines = {"z"};
  eof[0].new_lines = {"Z"};
  eof[0].end_of_file = true;
  out = ApplyPatchChunks("z\r\nm\r\nz\r\n", eof, "f");
  ASSERT_TRUE(out.has_value()) << out.error().message;
  EXPECT_EQ(*out, "z\r\nm\r\nZ\r\n");
  // Old lines ending with an empty line match the file's final newline.
  std::vector<PatchChunk> tail(1);
  tail[0].old_lines = {"last", ""};
  tail[0].new_lines = {"LAST", ""};
  out = ApplyPatchChunks("first\nlast\n", tail, "f");
  ASSERT_TRUE(out.has_value()) << out.error().message;
  EXPECT_EQ(*out, "first\nLAST\n");
  // Chunks apply in order: a second chunk is searched after the first.
  std::vector<PatchChunk> order(2);
  order[0].old_lines = {"b"};
  order[0].new_lines = {"B"};
  order[1].old_lines = {"a"};
  order[1].new_lines = {"A"};
  out = ApplyPatchChunks("a\nb\n", order, "f");
  ASSERT_FALSE(out.has_value());
  EXPECT_EQ(out.error().message,
            "chunk 2 of f does not match the file: these lines were not found after the "
            "previous chunk:\na");
  EXPECT_EQ(FoldPunctuation("  \xE2\x80\x98x\xE2\x80\x99\xC2\xA0y  "), "'x' y");
}

}  // namespace
}  // namespace agentctx
