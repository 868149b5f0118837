// SPDX-License-Identifier: MIT
// In-memory FileSystem vectors: kinds, symlinks, the write-mtime rule, injected errors.
#include "support/memory_file_system.h"

#include <gtest/gtest.h>

#include <string>

namespace agentctx {
namespace {

using Op = MemoryFileSystem::Op;

TEST(MemoryFileSystem, StatMissingIsNotFound) {
  MemoryFileSystem fs;
  auto st = fs.Stat("/nope");
  ASSERT_FALSE(st.has_value());
  EXPECT_EQ(st.error().code, ErrorCode::kNotFound);
  EXPECT_EQ(st.error().Display(), "not_found: /nope");
}

TEST(MemoryFileSystem, ReadOfDirectoryIsIsADirectory) {
  MemoryFileSystem fs;
  ASSERT_TRUE(fs.AddDir("/d").has_value());
  auto r = fs.Read("/d", 100);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code, ErrorCode::kIsADirectory);
}

TEST(MemoryFileSystem, WriteTwiceAtSameClockBumpsMtime) {
  MemoryFileSystem fs;
  fs.SetClock(5);
  ASSERT_TRUE(fs.Write("/a.txt", "one", false).has_value());
  EXPECT_EQ(fs.Stat("/a.txt")->mtime_ms, 5);
  ASSERT_TRUE(fs.Write("/a.txt", "two", false).has_value());
  EXPECT_EQ(fs.Stat("/a.txt")->mtime_ms, 6);
  fs.SetClock(100);
  ASSERT_TRUE(fs.Write("/a.txt", "three", false).has_value());
  EXPECT_EQ(fs.Stat("/a.txt")->mtime_ms, 100);
  EXPECT_EQ(fs.Stat("/a.txt")->size, 5u);
  EXPECT_EQ(*fs.Read("/a.txt", 100), "three");
}

TEST(MemoryFileSystem, IsSandboxed) {
  MemoryFileSystem fs;
  EXPECT_TRUE(fs.Sandboxed());
}

TEST(MemoryFileSystem, ReadCapsAtMaxBytes) {
  MemoryFileSystem fs;
  ASSERT_TRUE(fs.AddFile("/f", "abcdef", 7).has_value());
  EXPECT_EQ(*fs.Read("/f", 3), "abc");
  EXPECT_EQ(*fs.Read("/f", 0), "");
  EXPECT_EQ(*fs.Read("/f", UINT64_MAX), "abcdef");
  FileStat st = *fs.Stat("/f");
  EXPECT_EQ(st.kind, FileKind::kFile);
  EXPECT_EQ(st.size, 6u);
  EXPECT_EQ(st.mtime_ms, 7);
}

TEST(MemoryFileSystem, ListIsSortedByNameBytesAndDoesNotFollowLinks) {
  MemoryFileSystem fs;
  ASSERT_TRUE(fs.AddFile("/d/b", "").has_value());
  ASSERT_TRUE(fs.AddFile("/d/A", "").has_value());
  ASSERT_TRUE(fs.AddDir("/d/a").has_value());
  ASSERT_TRUE(fs.AddSymlink("/d/l", "b").has_value());
  ASSERT_TRUE(fs.AddOther("/d/o").has_value());
  auto list = fs.List("/d");
  ASSERT_TRUE(list.has_value());
  ASSERT_EQ(list->size(), 5u);
  EXPECT_EQ((*list)[0].name, "A");
  EXPECT_EQ((*list)[1].name, "a");
  EXPECT_EQ((*list)[1].kind, FileKind::kDir);
  EXPECT_EQ((*list)[2].name, "b");
  EXPECT_EQ((*list)[3].kind, FileKind::kSymlink);
  EXPECT_EQ((*list)[4].kind, FileKind::kOther);
  EXPECT_EQ(fs.List("/d/b").error().code, ErrorCode::kNotADirectory);
}

TEST(MemoryFileSystem, KindOther) {
  MemoryFileSystem fs;
  ASSERT_TRUE(fs.AddOther("/fifo", 3).has_value());
  EXPECT_EQ(fs.Stat("/fifo")->kind, FileKind::kOther);
  EXPECT_EQ(fs.Write("/fifo", "x", false).error().code, ErrorCode::kIo);
}

TEST(MemoryFileSystem, StatFollowsSymlinks) {
  MemoryFileSystem fs;
  ASSERT_TRUE(fs.AddFile("/real/f.txt", "hello", 9).has_value());
  ASSERT_TRUE(fs.AddSymlink("/abs", "/real/f.txt").has_value());
  ASSERT_TRUE(fs.AddSymlink("/real/rel", "f.txt").has_value());
  ASSERT_TRUE(fs.AddSymlink("/dirlink", "real").has_value());
  ASSERT_TRUE(fs.AddSymlink("/up", "real/../real/f.txt").has_value());
  EXPECT_EQ(fs.Stat("/abs")->size, 5u);
  EXPECT_EQ(fs.Stat("/abs")->mtime_ms, 9);
  EXPECT_EQ(*fs.Read("/real/rel", 10), "hello");
  EXPECT_EQ(*fs.Read("/dirlink/f.txt", 10), "hello");
  EXPECT_EQ(fs.Stat("/dirlink")->kind, FileKind::kDir);
  EXPECT_EQ(*fs.Read("/up", 10), "hello");
}

TEST(MemoryFileSystem, BrokenSymlinkIsNotFound) {
  MemoryFileSystem fs;
  ASSERT_TRUE(fs.AddSymlink("/dangling", "/missing").has_value());
  EXPECT_EQ(fs.Stat("/dangling").error().code, ErrorCode::kNotFound);
  // The entry itself still lists.
  EXPECT_EQ(fs.List("/")->size(), 1u);
}

TEST(MemoryFileSystem, SymlinkLoopIsIo) {
  MemoryFileSystem fs;
  ASSERT_TRUE(fs.AddSymlink("/a", "/b").has_value());
  ASSERT_TRUE(fs.AddSymlink("/b", "/a").has_value());
  ASSERT_TRUE(fs.AddSymlink("/self", "self").has_value());
  EXPECT_EQ(fs.Stat("/a").error().code, ErrorCode::kIo);
  EXPECT_EQ(fs.Read("/self", 1).error().code, ErrorCode::kIo);
  EXPECT_EQ(fs.Stat("/self/x").error().code, ErrorCode::kIo);
}

TEST(MemoryFileSystem, FileAsDirectorySegmentIsNotADirectory) {
  MemoryFileSystem fs;
  ASSERT_TRUE(fs.AddFile("/f", "x").has_value());
  EXPECT_EQ(fs.Stat("/f/g").error().code, ErrorCode::kNotADirectory);
  EXPECT_EQ(fs.Write("/f/g", "x", true).error().code, ErrorCode::kNotADirectory);
}

TEST(MemoryFileSystem, RejectsUnnormalisedPaths) {
  MemoryFileSystem fs;
  for (std::string_view p : {"", "rel", "/a/", "/a/../b", "/a//b", "/./a"}) {
    EXPECT_EQ(fs.Stat(p).error().code, ErrorCode::kInvalidPath) << p;
    EXPECT_EQ(fs.Read(p, 1).error().code, ErrorCode::kInvalidPath) << p;
    EXPECT_EQ(fs.List(p).error().code, ErrorCode::kInvalidPath) << p;
    EXPECT_EQ(fs.Write(p, "x", true).error().code, ErrorCode::kInvalidPath) << p;
  }
  EXPECT_EQ(fs.Stat(std::string_view("/a\0b", 4)).error().code, ErrorCode::kInvalidPath);
}

TEST(MemoryFileSystem, WriteParents) {
  MemoryFileSystem fs;
  fs.SetClock(3);
  EXPECT_EQ(fs.Write("/x/y/z.txt", "z", false).error().code, ErrorCode::kNotFound);
  ASSERT_TRUE(fs.Write("/x/y/z.txt", "z", true).has_value());
  EXPECT_EQ(fs.Stat("/x/y")->kind, FileKind::kDir);
  EXPECT_EQ(fs.Stat("/x/y")->mtime_ms, 3);
  EXPECT_EQ(fs.Write("/x", "z", false).error().code, ErrorCode::kIsADirectory);
  EXPECT_EQ(fs.Write("/", "z", false).error().code, ErrorCode::kIsADirectory);
}

TEST(MemoryFileSystem, WriteThroughSymlinkUpdatesTarget) {
  MemoryFileSystem fs;
  ASSERT_TRUE(fs.AddFile("/t", "old", 10).has_value());
  ASSERT_TRUE(fs.AddSymlink("/l", "t").has_value());
  fs.SetClock(4);
  ASSERT_TRUE(fs.Write("/l", "new", false).has_value());
  EXPECT_EQ(*fs.Read("/t", 10), "new");
  EXPECT_EQ(fs.Stat("/t")->mtime_ms, 11);
}

TEST(MemoryFileSystem, InjectedErrorsArePerPathAndOp) {
  MemoryFileSystem fs;
  ASSERT_TRUE(fs.AddFile("/repo/AGENTS.md", "x").has_value());
  fs.InjectError("/repo/AGENTS.md", Op::kRead, ErrorCode::kPermissionDenied);
  EXPECT_TRUE(fs.Stat("/repo/AGENTS.md").has_value());
  auto r = fs.Read("/repo/AGENTS.md", 10);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().Display(), "permission_denied: /repo/AGENTS.md");
  fs.InjectError("/missing", Op::kStat, ErrorCode::kIo);
  EXPECT_EQ(fs.Stat("/missing").error().code, ErrorCode::kIo);
  fs.InjectError("/repo", Op::kList, ErrorCode::kNotCapable);
  EXPECT_EQ(fs.List("/repo").error().code, ErrorCode::kNotCapable);
  fs.InjectError("/repo/new", Op::kWrite, ErrorCode::kPermissionDenied);
  EXPECT_EQ(fs.Write("/repo/new", "x", false).error().code, ErrorCode::kPermissionDenied);
  EXPECT_EQ(fs.Stat("/repo/new").error().code, ErrorCode::kNotFound);  // nothing written
  fs.ClearError("/repo/AGENTS.md", Op::kRead);
  EXPECT_EQ(*fs.Read("/repo/AGENTS.md", 10), "x");
  fs.ClearErrors();
  EXPECT_EQ(fs.Stat("/missing").error().code, ErrorCode::kNotFound);
}

TEST(MemoryFileSystem, RemoveAndSetMtime) {
  MemoryFileSystem fs;
  ASSERT_TRUE(fs.AddFile("/d/e/f", "x").has_value());
  ASSERT_TRUE(fs.SetMtime("/d/e", 42).has_value());
  EXPECT_EQ(fs.Stat("/d/e")->mtime_ms, 42);
  ASSERT_TRUE(fs.Remove("/d").has_value());
  EXPECT_EQ(fs.Stat("/d/e/f").error().code, ErrorCode::kNotFound);
  EXPECT_EQ(fs.Remove("/d").error().code, ErrorCode::kNotFound);
  EXPECT_EQ(fs.Remove("/").error().code, ErrorCode::kInvalidPath);
}

TEST(MemoryFileSystem, RemoveFileRemovesFilesAndLinksOnly) {
  MemoryFileSystem fs;
  ASSERT_TRUE(fs.AddFile("/d/a.txt", "a").has_value());
  ASSERT_TRUE(fs.AddSymlink("/d/link", "a.txt").has_value());
  ASSERT_TRUE(fs.RemoveFile("/d/link").has_value());  // the link itself, not its target
  EXPECT_EQ(*fs.Read("/d/a.txt", 10), "a");
  ASSERT_TRUE(fs.RemoveFile("/d/a.txt").has_value());
  EXPECT_EQ(fs.Stat("/d/a.txt").error().code, ErrorCode::kNotFound);
  EXPECT_EQ(fs.RemoveFile("/d/a.txt").error().Display(), "not_found: /d/a.txt");
  EXPECT_EQ(fs.RemoveFile("/d").error().code, ErrorCode::kIsADirectory);
  EXPECT_EQ(fs.RemoveFile("/").error().code, ErrorCode::kIsADirectory);
  EXPECT_EQ(fs.RemoveFile("/d/../x").error().code, ErrorCode::kInvalidPath);
  ASSERT_TRUE(fs.AddFile("/d/b.txt", "b").has_value());
  fs.InjectError("/d/b.txt", Op::kRemove, ErrorCode::kPermissionDenied);
  EXPECT_EQ(fs.RemoveFile("/d/b.txt").error().code, ErrorCode::kPermissionDenied);
  EXPECT_TRUE(fs.Stat("/d/b.txt").has_value());
}

// A FileSystem that does not implement RemoveFile refuses with not_capable.
TEST(FileSystemDefaults, RemoveFileIsNotCapable) {
  struct ReadOnlyFs : FileSystem {
    Result<FileStat> Stat(std::string_view) override { return FileStat{}; }
    Result<std::string> Read(std::string_view, std::uint64_t) override { return std::string(); }
    Result<std::vector<DirEntry>> List(std::string_view) override {
      return std::vector<DirEntry>();
    }
    Result<void> Write(std::string_view, std::string_view, bool) override { return {}; }
    bool Sandboxed() const override { return true; }
  } fs;
  EXPECT_EQ(fs.RemoveFile("/x").error().Display(), "not_capable: /x");
}

TEST(MemoryFileSystem, AddFileReplacesAndKeepsWriteRule) {
  MemoryFileSystem fs;
  fs.SetClock(1);
  ASSERT_TRUE(fs.AddFile("/f", "a", 50).has_value());
  ASSERT_TRUE(fs.AddFile("/f", "b").has_value());
  EXPECT_EQ(fs.Stat("/f")->mtime_ms, 51);
  ASSERT_TRUE(fs.AddDir("/f", 2).has_value());
  EXPECT_EQ(fs.Stat("/f")->kind, FileKind::kDir);
}

// Regression: a write that creates its parents walks the path once, the resolved path grown in
// place (it was copied per level); a symlink met on the way is resolved and the walk goes on.
TEST(Regression, Issue17CreateParentsWalksADeepPathAndFollowsLinks) {
  MemoryFileSystem fs;
  std::string deep = "/w";
  for (int i = 0; i < 3000; ++i) deep += "/d" + std::to_string(i % 10);
  ASSERT_TRUE(fs.Write(deep + "/f.txt", "x", /*create_parents=*/true).has_value());
  auto st = fs.Stat(deep + "/f.txt");
  ASSERT_TRUE(st.has_value());
  EXPECT_EQ(st->kind, FileKind::kFile);
  auto listing = fs.List(deep);
  ASSERT_TRUE(listing.has_value());
  ASSERT_EQ(listing->size(), 1u);
  EXPECT_EQ((*listing)[0].name, "f.txt");

  ASSERT_TRUE(fs.AddDir("/real").has_value());
  ASSERT_TRUE(fs.AddSymlink("/w/link", "/real").has_value());
  ASSERT_TRUE(fs.Write("/w/link/a/b/g.txt", "y", true).has_value());
  auto through = fs.Read("/real/a/b/g.txt", 10);
  ASSERT_TRUE(through.has_value());
  EXPECT_EQ(*through, "y");
  ASSERT_TRUE(fs.AddSymlink("/w/dangling", "/nowhere").has_value());
  auto dangling = fs.Write("/w/dangling/a/h.txt", "z", true);
  ASSERT_FALSE(dangling.has_value());
  EXPECT_EQ(dangling.error().code, ErrorCode::kNotFound);
}

}  // namespace
}  // namespace agentctx
