// SPDX-License-Identifier: MIT
// PosixFileSystem (wasi-host/guest) on all three runners: the fixture corpus
// (tests/fixtures/posix_fs) read through it, the errno mapping, path validation and the
// lexical root; under WASI the preopen sandbox itself (`/etc/passwd`, `..`, opendir("/")).
#include "posix_file_system.h"

#include <dirent.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <map>
#include <string>
#include <vector>
#ifndef __wasi__
#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#endif

#include "support/fixtures.h"

namespace agentctx {
namespace {

using testing::FixturePath;

std::string Root() { return FixturePath("posix_fs"); }

TEST(PosixFileSystem, ReadsTheFixtureCorpus) {
  PosixFileSystem fs(Root());
  auto text = fs.Read(Root() + "/hello.txt", 1 << 20);
  ASSERT_TRUE(text) << text.error().Display();
  EXPECT_EQ(*text, "hello, sandbox\n");
  auto nested = fs.Read(Root() + "/sub/deeper/leaf.txt", 100);
  ASSERT_TRUE(nested) << nested.error().Display();
  EXPECT_EQ(*nested, "leaf\n");
  auto raw = fs.Read(Root() + "/latin.txt", 100);
  ASSERT_TRUE(raw);
  EXPECT_EQ(*raw, "\xc3\xa9t\xc3\xa9 \xff end\n");  // bytes as stored, no decoding
}

TEST(PosixFileSystem, ReadStopsAtMaxBytes) {
  PosixFileSystem fs(Root());
  EXPECT_EQ(fs.Read(Root() + "/hello.txt", 5).value(), "hello");
  EXPECT_EQ(fs.Read(Root() + "/hello.txt", 0).value(), "");
  EXPECT_EQ(fs.Read(Root() + "/hello.txt", 1000).value(), "hello, sandbox\n");
}

#ifndef __wasi__
// A scratch directory of the native runner (the WASI runner's only preopen is the fixtures).
class PosixFileSystemScratch : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/agentctx-posix-fs-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override {
    for (const std::string& name : made_) unlink((dir_ + "/" + name).c_str());
    rmdir(dir_.c_str());
  }
  std::string Make(const std::string& name, const std::string& bytes) {
    std::FILE* f = std::fopen((dir_ + "/" + name).c_str(), "wb");
    EXPECT_NE(f, nullptr);
    if (f != nullptr) {
      EXPECT_EQ(std::fwrite(bytes.data(), 1, bytes.size(), f), bytes.size());
      std::fclose(f);
    }
    made_.push_back(name);
    return dir_ + "/" + name;
  }
  static std::string Bytes(std::size_t n) {
    std::string out(n, '\0');
    for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<char>('a' + (i * 7 + i / 13) % 26);
    return out;
  }
  std::string dir_;
  std::vector<std::string> made_;
};

// Regular files are read whole (one read when the size still holds) at every size around the
// 64 KiB chunk, and cut exactly at max_bytes.
TEST_F(PosixFileSystemScratch, ReadsRegularFilesOfEverySizeWhole) {
  PosixFileSystem fs(dir_);
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{65535}, std::size_t{65536},
                        std::size_t{65537}, std::size_t{200000}}) {
    std::string bytes = Bytes(n);
    std::string path = Make("f" + std::to_string(n), bytes);
    auto whole = fs.Read(path, 1 << 20);
    ASSERT_TRUE(whole) << whole.error().Display();
    EXPECT_EQ(*whole, bytes) << n;
    if (n > 2) {
      EXPECT_EQ(fs.Read(path, n - 1).value(), bytes.substr(0, n - 1)) << n;
    }
    EXPECT_EQ(fs.Read(path, n).value(), bytes) << n;
  }
}

// A FIFO never makes a read wait: without a writer it is empty at once (a blocking open would
// wait for one forever); with a writer, the read answers what the pipe holds now, past any chunk.
TEST_F(PosixFileSystemScratch, ReadsAFifoWithoutWaiting) {
  std::string path = dir_ + "/fifo";
  ASSERT_EQ(mkfifo(path.c_str(), 0600), 0);
  made_.push_back("fifo");
  PosixFileSystem fs(dir_);
  auto alone = fs.Read(path, 1 << 20);
  ASSERT_TRUE(alone) << alone.error().Display();
  EXPECT_EQ(*alone, "");

  int writer = open(path.c_str(), O_RDWR | O_NONBLOCK);  // a writer that stays, never waiting
  ASSERT_GE(writer, 0);
  const std::string bytes = Bytes(60000);  // within the pipe's 64 KiB
  ASSERT_EQ(write(writer, bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
  auto held = fs.Read(path, 1 << 20);
  close(writer);
  ASSERT_TRUE(held) << held.error().Display();
  EXPECT_EQ(*held, bytes);
}

// Writing a FIFO without a reader fails at once instead of waiting for one.
TEST_F(PosixFileSystemScratch, WritesAFifoWithoutWaiting) {
  std::string path = dir_ + "/fifo";
  ASSERT_EQ(mkfifo(path.c_str(), 0600), 0);
  made_.push_back("fifo");
  auto written = PosixFileSystem(dir_).Write(path, "x", false);
#ifndef __EMSCRIPTEN__
  ASSERT_FALSE(written.has_value());  // ENXIO
  EXPECT_EQ(written.error().code, ErrorCode::kIo);
#else
  (void)written;  // Emscripten's NODERAWFS takes the write without waiting: returning is the point
#endif
  // Files are written whole as before.
  std::string file = dir_ + "/w.txt";
  made_.push_back("w.txt");
  const std::string bytes = Bytes(200000);
  ASSERT_TRUE(PosixFileSystem(dir_).Write(file, bytes, false).has_value());
  EXPECT_EQ(PosixFileSystem(dir_).Read(file, 1 << 20).value(), bytes);
}

// procfs files are regular files of size 0 that read in short pieces: the size says nothing.
TEST(PosixFileSystem, ReadsProcfsFilesWhoseSizeIsZero) {
  struct stat st;
  if (stat("/proc/self/maps", &st) != 0) GTEST_SKIP() << "no /proc on this machine";
  ASSERT_EQ(st.st_size, 0);
  auto maps = PosixFileSystem("/").Read("/proc/self/maps", 1 << 24);
  ASSERT_TRUE(maps) << maps.error().Display();
  EXPECT_GT(maps->size(), std::size_t{4096});  // more than one piece of seq_file output
  EXPECT_EQ(maps->back(), '\n');
}
#endif

TEST(PosixFileSystem, StatsFilesAndDirectories) {
  PosixFileSystem fs(Root());
  auto file = fs.Stat(Root() + "/hello.txt");
  ASSERT_TRUE(file) << file.error().Display();
  EXPECT_EQ(file->kind, FileKind::kFile);
  EXPECT_EQ(file->size, 15u);
  EXPECT_GT(file->mtime_ms, 0);
  auto dir = fs.Stat(Root() + "/sub");
  ASSERT_TRUE(dir);
  EXPECT_EQ(dir->kind, FileKind::kDir);
  EXPECT_TRUE(fs.Stat(Root()).has_value());  // the root itself is inside
}

TEST(PosixFileSystem, ListsEntriesWithKinds) {
  PosixFileSystem fs(Root());
  auto entries = fs.List(Root());
  ASSERT_TRUE(entries) << entries.error().Display();
  std::map<std::string, FileKind> by_name;
  for (const auto& e : *entries) by_name[e.name] = e.kind;
  EXPECT_EQ(by_name.size(), 3u);  // no "." or ".."
  EXPECT_EQ(by_name["hello.txt"], FileKind::kFile);
  EXPECT_EQ(by_name["latin.txt"], FileKind::kFile);
  EXPECT_EQ(by_name["sub"], FileKind::kDir);
}

TEST(PosixFileSystem, MapsErrnoPerSpec) {
  EXPECT_EQ(ErrnoToErrorCode(ENOENT), ErrorCode::kNotFound);
  EXPECT_EQ(ErrnoToErrorCode(EACCES), ErrorCode::kPermissionDenied);
  EXPECT_EQ(ErrnoToErrorCode(EPERM), ErrorCode::kPermissionDenied);
  EXPECT_EQ(ErrnoToErrorCode(EROFS), ErrorCode::kPermissionDenied);
  EXPECT_EQ(ErrnoToErrorCode(ENOTDIR), ErrorCode::kNotADirectory);
  EXPECT_EQ(ErrnoToErrorCode(EISDIR), ErrorCode::kIsADirectory);
  EXPECT_EQ(ErrnoToErrorCode(EINVAL), ErrorCode::kInvalidPath);
  EXPECT_EQ(ErrnoToErrorCode(ENAMETOOLONG), ErrorCode::kInvalidPath);
  EXPECT_EQ(ErrnoToErrorCode(ELOOP), ErrorCode::kIo);
  EXPECT_EQ(ErrnoToErrorCode(EIO), ErrorCode::kIo);
#ifdef __wasi__
  EXPECT_EQ(ErrnoToErrorCode(ENOTCAPABLE), ErrorCode::kNotCapable);
#endif
}

TEST(PosixFileSystem, MissingPathIsNotFound) {
  PosixFileSystem fs(Root());
  auto st = fs.Stat(Root() + "/nope.txt");
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().code, ErrorCode::kNotFound);
  EXPECT_EQ(st.error().message, "stat " + Root() + "/nope.txt");
  ASSERT_EQ(st.error().details.size(), 1u);
  EXPECT_EQ(st.error().details[0].first, "path");
  EXPECT_EQ(fs.Read(Root() + "/nope.txt", 10).error().code, ErrorCode::kNotFound);
  EXPECT_EQ(fs.List(Root() + "/nope").error().code, ErrorCode::kNotFound);
  // No create_parents: the missing directory is not made, nothing is written.
  EXPECT_EQ(fs.Write(Root() + "/nope/new.txt", "x", false).error().code, ErrorCode::kNotFound);
  EXPECT_EQ(fs.Stat(Root() + "/nope").error().code, ErrorCode::kNotFound);
}

TEST(PosixFileSystem, FileAsDirectoryIsNotADirectory) {
  PosixFileSystem fs(Root());
  EXPECT_EQ(fs.Stat(Root() + "/hello.txt/x").error().code, ErrorCode::kNotADirectory);
  EXPECT_EQ(fs.List(Root() + "/hello.txt").error().code, ErrorCode::kNotADirectory);
  // create_parents refuses to go through a file (and writes nothing).
  auto w = fs.Write(Root() + "/hello.txt/x/y.txt", "x", true);
  ASSERT_FALSE(w);
  EXPECT_EQ(w.error().code, ErrorCode::kNotADirectory);
}

TEST(PosixFileSystem, DirectoryAsFileIsADirectory) {
  PosixFileSystem fs(Root());
  EXPECT_EQ(fs.Read(Root() + "/sub", 10).error().code, ErrorCode::kIsADirectory);
  EXPECT_EQ(fs.Write(Root() + "/sub", "x", false).error().code, ErrorCode::kIsADirectory);
}

// RemoveFile's refusals (nothing is removed: the corpus is read-only; removal itself is covered
// by wasi-host/test's CLI runs on temp workspaces).
TEST(PosixFileSystem, RemoveFileRefusals) {
  PosixFileSystem fs(Root());
  EXPECT_EQ(fs.RemoveFile(Root() + "/sub").error().Display(),
            "is_a_directory: remove " + Root() + "/sub");
  EXPECT_EQ(fs.RemoveFile(Root() + "/missing.txt").error().code, ErrorCode::kNotFound);
  EXPECT_EQ(fs.RemoveFile(Root() + "/../x").error().code, ErrorCode::kInvalidPath);
  EXPECT_EQ(fs.RemoveFile("/etc/passwd").error().code, ErrorCode::kNotCapable);
  EXPECT_TRUE(fs.Stat(Root() + "/sub").has_value());
}

TEST(PosixFileSystem, RejectsUnnormalisedPaths) {
  PosixFileSystem fs("/");
  for (const char* bad : {"", "relative.txt", "/a//b", "/a/./b", "/a/../b", "/a/", "/..", "/."}) {
    auto st = fs.Stat(bad);
    ASSERT_FALSE(st) << bad;
    EXPECT_EQ(st.error().code, ErrorCode::kInvalidPath) << bad;
  }
  EXPECT_EQ(fs.Read(std::string("/a\0b", 4), 1).error().code, ErrorCode::kInvalidPath);
  EXPECT_EQ(fs.Write(Root() + "/../x", "x", true).error().code, ErrorCode::kInvalidPath);
}

TEST(PosixFileSystem, RootConfinesLexically) {
  PosixFileSystem fs(Root());
  for (const std::string& outside : {std::string("/etc/passwd"), Root() + "-sibling/x",
                                     FixturePath("codec/config.json"), std::string("/")}) {
    auto st = fs.Stat(outside);
    ASSERT_FALSE(st) << outside;
    EXPECT_EQ(st.error().code, ErrorCode::kNotCapable) << outside;
    EXPECT_EQ(st.error().Display(), "not_capable: stat " + outside);
  }
  EXPECT_EQ(fs.Write("/tmp/agentctx-never.txt", "x", true).error().code, ErrorCode::kNotCapable);
}

TEST(PosixFileSystem, SandboxedFlag) {
#ifdef __wasi__
  EXPECT_TRUE(PosixFileSystem("/", false).Sandboxed());  // the preopens always confine
#else
  EXPECT_FALSE(PosixFileSystem("/").Sandboxed());
  EXPECT_TRUE(PosixFileSystem("/", true).Sandboxed());
#endif
}

#ifdef __wasi__
// The WASI sandbox itself, with no lexical root: only the preopen (/fixtures) is reachable.
TEST(PosixFileSystemWasi, OutsideThePreopensIsNotCapable) {
  PosixFileSystem fs("/");
  EXPECT_EQ(fs.Stat("/etc/passwd").error().code, ErrorCode::kNotCapable);
  EXPECT_EQ(fs.Read("/etc/passwd", 10).error().code, ErrorCode::kNotCapable);
  EXPECT_EQ(fs.List("/").error().code, ErrorCode::kNotCapable);
  EXPECT_EQ(fs.Write("/escape.txt", "x", false).error().code, ErrorCode::kNotCapable);
  EXPECT_TRUE(fs.Stat("/fixtures/posix_fs/hello.txt").has_value());
}

TEST(PosixFileSystemWasi, DotDotEscapesAreNotCapable) {
  // PosixFileSystem rejects `..` itself (invalid_path); the raw calls show that the
  // preopen would refuse it anyway, and how that errno maps.
  PosixFileSystem fs("/");
  EXPECT_EQ(fs.Stat("/fixtures/../x").error().code, ErrorCode::kInvalidPath);
  errno = 0;
  std::FILE* f = std::fopen("/fixtures/../x", "rb");
  EXPECT_EQ(f, nullptr);
  EXPECT_EQ(ErrnoToErrorCode(errno), ErrorCode::kNotCapable);
  struct stat st;
  errno = 0;
  EXPECT_NE(stat("/fixtures/../../etc/passwd", &st), 0);
  EXPECT_EQ(ErrnoToErrorCode(errno), ErrorCode::kNotCapable);
  errno = 0;
  EXPECT_EQ(opendir("/"), nullptr);
  EXPECT_EQ(ErrnoToErrorCode(errno), ErrorCode::kNotCapable);
}
#endif

}  // namespace
}  // namespace agentctx
