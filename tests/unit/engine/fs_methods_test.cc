// SPDX-License-Identifier: MIT
// The fs.* inspection methods on a session handle (core/src/engine/fs_methods.h), over a small
// in-test FileSystem: output shapes, sorting, errors and input validation.
#include "engine/fs_methods.h"

#include <gtest/gtest.h>

#include "agentctx/engine.h"

namespace agentctx {
namespace {

class FakeFileSystem : public FileSystem {
 public:
  Result<FileStat> Stat(std::string_view path) override {
    if (path == "/w/a.txt") return FileStat{FileKind::kFile, 3, 1700000000123};
    return Fail(ErrorCode::kNotFound, "stat " + std::string(path));
  }
  Result<std::string> Read(std::string_view path, std::uint64_t max_bytes) override {
    if (path != "/w/a.txt") return Fail(ErrorCode::kIsADirectory, "read " + std::string(path));
    std::string data = "ab\xff";
    return data.substr(0, static_cast<std::size_t>(max_bytes));
  }
  Result<std::vector<DirEntry>> List(std::string_view) override {
    return std::vector<DirEntry>{
        {"b", FileKind::kFile}, {"A", FileKind::kDir}, {"a", FileKind::kSymlink}};
  }
  Result<void> Write(std::string_view path, std::string_view bytes, bool create_parents) override {
    last_write = std::string(path) + "|" + std::string(bytes) + "|" + (create_parents ? "p" : "-");
    return {};
  }
  bool Sandboxed() const override { return true; }
  std::string last_write;
};

struct Fixture {
  Engine engine;
  std::shared_ptr<FakeFileSystem> fs = std::make_shared<FakeFileSystem>();
  std::uint32_t handle = 0;
  Fixture() {
    handle = engine.Open();
    engine.AddFileSystem(handle, "w", fs);
  }
};

TEST(EngineFsMethods, StatReadListWrite) {
  Fixture f;
  EXPECT_EQ(f.engine.Call(f.handle, "fs.stat", R"({"fs":"w","path":"/w/a.txt"})"),
            R"({"v":1,"ok":true,"value":{"kind":"file","size":3,"mtime_ms":1700000000123}})");
  EXPECT_EQ(f.engine.Call(f.handle, "fs.read", R"({"fs":"w","path":"/w/a.txt"})"),
            "{\"v\":1,\"ok\":true,\"value\":{\"text\":\"ab\xef\xbf\xbd\",\"bytes\":3}}");
  EXPECT_EQ(f.engine.Call(f.handle, "fs.read", R"({"fs":"w","path":"/w/a.txt","max_bytes":1})"),
            R"({"v":1,"ok":true,"value":{"text":"a","bytes":1}})");
  EXPECT_EQ(
      f.engine.Call(f.handle, "fs.list", R"({"fs":"w","path":"/w"})"),
      R"({"v":1,"ok":true,"value":{"entries":[{"name":"A","kind":"dir"},{"name":"a","kind":"symlink"},{"name":"b","kind":"file"}]}})");
  EXPECT_EQ(f.engine.Call(f.handle, "fs.write",
                          R"({"fs":"w","path":"/w/n.txt","text":"hé","create_parents":true})"),
            R"({"v":1,"ok":true,"value":{"bytes":3}})");
  EXPECT_EQ(f.fs->last_write, "/w/n.txt|hé|p");
}

TEST(EngineFsMethods, FileSystemErrorsBecomeEnvelopes) {
  Fixture f;
  EXPECT_EQ(f.engine.Call(f.handle, "fs.stat", R"({"fs":"w","path":"/nope"})"),
            R"({"v":1,"ok":false,"error":{"code":"not_found","message":"stat /nope"}})");
  EXPECT_NE(f.engine.Call(f.handle, "fs.read", R"({"fs":"w","path":"/w"})")
                .find(R"("code":"is_a_directory")"),
            std::string::npos);
}

TEST(EngineFsMethods, RejectsBadInput) {
  Fixture f;
  auto code = [&](std::string_view method, std::string_view input) {
    std::string out = f.engine.Call(f.handle, method, input);
    auto at = out.find("\"code\":\"");
    return at == std::string::npos ? out : out.substr(at + 8, out.find('"', at + 8) - at - 8);
  };
  EXPECT_EQ(code("fs.stat", "{"), "invalid_json");
  EXPECT_EQ(code("fs.stat", "[]"), "invalid_input");
  EXPECT_EQ(code("fs.stat", R"({"fs":"w"})"), "invalid_input");
  EXPECT_EQ(code("fs.stat", R"({"fs":"other","path":"/w/a.txt"})"), "invalid_input");
  EXPECT_EQ(code("fs.read", R"({"fs":"w","path":"/w/a.txt","max_bytes":-1})"), "invalid_input");
  EXPECT_EQ(code("fs.read", R"({"fs":"w","path":"/w/a.txt","max_bytes":"1"})"), "invalid_input");
  EXPECT_EQ(code("fs.write", R"({"fs":"w","path":"/w/a.txt"})"), "invalid_input");
  EXPECT_EQ(code("fs.write", R"({"fs":"w","path":"/w/a","text":"","create_parents":1})"),
            "invalid_input");
  EXPECT_EQ(f.fs->last_write, "");
  EXPECT_EQ(code("fs.nope", R"({"fs":"w","path":"/w/a.txt"})"), "unknown_method");
  // The engine handle has no file systems.
  EXPECT_NE(f.engine.Call(0, "fs.stat", R"({"fs":"w","path":"/w/a.txt"})").find("unknown_method"),
            std::string::npos);
}

}  // namespace
}  // namespace agentctx
