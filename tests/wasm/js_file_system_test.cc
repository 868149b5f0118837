// SPDX-License-Identifier: MIT
// JsFileSystem (wasm/src/js_file_system.*) against a scripted JS FileSystem object, inside the
// Emscripten gtest binary only (tests/CMakeLists.txt adds this file for that target). Checks the
// answer decoding: kinds, sizes, codes (non-FileSystem codes become io), byte copies in both
// directions, and that malformed answers are io errors, never aborts.
#include "js_file_system.h"

#include <emscripten/em_js.h>
#include <emscripten/emscripten.h>
#include <emscripten/val.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "agentctx/engine.h"

// A scripted FileSystem; globalThis.__actxLastWrite records the last write call.
// clang-format off
EM_JS(emscripten::EM_VAL, ActxMakeFakeFs, (), {
  const file = new TextEncoder().encode("h\u00e9llo");
  const binary = new Uint8Array(256).map((_, i) => i);
  const fs = {
    stat(path) {
      switch (path) {
        case "/w/a.txt": return {ok: true, kind: "file", size: 6, mtime_ms: 42};
        case "/w": return {ok: true, kind: "dir", size: 0, mtime_ms: 1};
        case "/no-mtime": return {ok: true, kind: "other", size: 3};
        case "/weird-kind": return {ok: true, kind: "socket", size: 1, mtime_ms: 0};
        case "/negative": return {ok: true, kind: "file", size: -1, mtime_ms: 0};
        case "/fraction": return {ok: true, kind: "file", size: 1.5, mtime_ms: 0};
        case "/foreign-code": return {ok: false, code: "invalid_json"};
        case "/no-code": return {ok: false};
        case "/denied": return {ok: false, code: "permission_denied", message: "EACCES"};
        case "/null": return null;
        case "/truthy": return {ok: 1, kind: "file", size: 1};
        default: return {ok: false, code: "not_found"};
      }
    },
    read(path, maxBytes) {
      switch (path) {
        case "/w/a.txt": return {ok: true, data: file};
        case "/binary": return {ok: true, data: binary};
        case "/string": return {ok: true, data: "text"};
        case "/array": return {ok: true, data: [1, 2]};
        case "/w": return {ok: false, code: "is_a_directory"};
        default: return "nonsense";
      }
    },
    list(path) {
      switch (path) {
        case "/w": return {ok: true, entries: [{name: "b", kind: "file"}, {name: "A", kind: "dir"},
                                               {name: "l", kind: "symlink"},
                                               {name: "\u00e9", kind: "other"}]};
        case "/empty": return {ok: true, entries: []};
        case "/dotdot": return {ok: true, entries: [{name: "..", kind: "dir"}]};
        case "/slash": return {ok: true, entries: [{name: "a/b", kind: "file"}]};
        case "/nameless": return {ok: true, entries: [{kind: "file"}]};
        case "/object": return {ok: true, entries: {}};
        case "/sparse": { const huge = []; huge.length = 4294967295; return {ok: true, entries: huge}; }
        default: return {ok: false, code: "not_a_directory"};
      }
    },
    write(path, bytes, createParents) {
      globalThis.__actxLastWrite = {path, bytes, createParents};
      return path === "/ro" ? {ok: false, code: "permission_denied"} : {ok: true};
    },
    removeFile(path) {
      globalThis.__actxLastRemove = path;
      return path === "/w" ? {ok: false, code: "is_a_directory"} : {ok: true};
    },
    sandboxed() { return true; },
  };
  return Emval.toHandle(fs);
});

// True when the last write got a JS-owned Uint8Array (not a view of wasm memory) equal to `text`.
EM_JS(bool, ActxLastWriteIs, (const char* path, const char* text, bool create_parents), {
  const w = globalThis.__actxLastWrite;
  const want = new TextEncoder().encode(UTF8ToString(text));
  return w !== undefined && w.path === UTF8ToString(path) && w.bytes instanceof Uint8Array &&
         w.bytes.buffer !== HEAPU8.buffer && w.createParents === !!create_parents &&
         w.bytes.length === want.length && w.bytes.every((b, i) => b === want[i]);
});
// clang-format on

namespace agentctx {
namespace {

using emscripten::val;

JsFileSystem MakeFs() { return JsFileSystem(val::take_ownership(ActxMakeFakeFs())); }

TEST(JsFileSystem, ValidatesTheObjectShape) {
  EXPECT_TRUE(JsFileSystem::IsValid(val::take_ownership(ActxMakeFakeFs())));
  EXPECT_FALSE(JsFileSystem::IsValid(val(42)));
  EXPECT_FALSE(JsFileSystem::IsValid(val::null()));
  EXPECT_FALSE(JsFileSystem::IsValid(val::undefined()));
  EXPECT_FALSE(JsFileSystem::IsValid(val::object()));
  val partial = val::take_ownership(ActxMakeFakeFs());
  partial.set("write", val("not a function"));
  EXPECT_FALSE(JsFileSystem::IsValid(partial));
}

TEST(JsFileSystem, StatDecodesKindSizeAndMtime) {
  JsFileSystem fs = MakeFs();
  EXPECT_TRUE(fs.Sandboxed());
  auto file = fs.Stat("/w/a.txt");
  ASSERT_TRUE(file.has_value());
  EXPECT_EQ(file->kind, FileKind::kFile);
  EXPECT_EQ(file->size, 6u);
  EXPECT_EQ(file->mtime_ms, 42);
  EXPECT_EQ(fs.Stat("/w")->kind, FileKind::kDir);
  auto other = fs.Stat("/no-mtime");
  ASSERT_TRUE(other.has_value());
  EXPECT_EQ(other->kind, FileKind::kOther);
  EXPECT_EQ(other->mtime_ms, 0);
}

TEST(JsFileSystem, ErrorsKeepFileSystemCodesOnly) {
  JsFileSystem fs = MakeFs();
  auto missing = fs.Stat("/nope");
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().code, ErrorCode::kNotFound);
  EXPECT_EQ(missing.error().Display(), "not_found: /nope");
  auto denied = fs.Stat("/denied");
  ASSERT_FALSE(denied.has_value());
  EXPECT_EQ(denied.error().code, ErrorCode::kPermissionDenied);
  ASSERT_EQ(denied.error().details.size(), 2u);
  EXPECT_EQ(denied.error().details[1].second, "EACCES");
  EXPECT_EQ(fs.Stat("/foreign-code").error().code, ErrorCode::kIo);
  EXPECT_EQ(fs.Stat("/no-code").error().code, ErrorCode::kIo);
}

TEST(JsFileSystem, MalformedAnswersAreIoErrors) {
  JsFileSystem fs = MakeFs();
  for (const char* path : {"/weird-kind", "/negative", "/fraction", "/null", "/truthy"}) {
    auto r = fs.Stat(path);
    ASSERT_FALSE(r.has_value()) << path;
    EXPECT_EQ(r.error().code, ErrorCode::kIo) << path;
  }
  for (const char* path : {"/string", "/array", "/other"}) {
    auto r = fs.Read(path, 10);
    ASSERT_FALSE(r.has_value()) << path;
    EXPECT_EQ(r.error().code, ErrorCode::kIo) << path;
  }
  for (const char* path : {"/dotdot", "/slash", "/nameless", "/object"}) {
    auto r = fs.List(path);
    ASSERT_FALSE(r.has_value()) << path;
    EXPECT_EQ(r.error().code, ErrorCode::kIo) << path;
  }
}

TEST(JsFileSystem, ReadCopiesBytesAndHonoursMaxBytes) {
  JsFileSystem fs = MakeFs();
  EXPECT_EQ(fs.Read("/w/a.txt", 100).value(), "h\xc3\xa9llo");
  EXPECT_EQ(fs.Read("/w/a.txt", 2).value(), "h\xc3");
  EXPECT_EQ(fs.Read("/w/a.txt", 0).value(), "");
  std::string binary = fs.Read("/binary", 1000).value();
  ASSERT_EQ(binary.size(), 256u);
  for (int i = 0; i < 256; ++i) EXPECT_EQ(static_cast<unsigned char>(binary[i]), i);
  EXPECT_EQ(fs.Read("/w", 10).error().code, ErrorCode::kIsADirectory);
}

TEST(JsFileSystem, ListDecodesEntries) {
  JsFileSystem fs = MakeFs();
  auto entries = fs.List("/w");
  ASSERT_TRUE(entries.has_value());
  ASSERT_EQ(entries->size(), 4u);
  EXPECT_EQ((*entries)[0].name, "b");
  EXPECT_EQ((*entries)[1].kind, FileKind::kDir);
  EXPECT_EQ((*entries)[2].kind, FileKind::kSymlink);
  EXPECT_EQ((*entries)[3].name, "\xc3\xa9");
  EXPECT_EQ((*entries)[3].kind, FileKind::kOther);
  EXPECT_TRUE(fs.List("/empty")->empty());
  EXPECT_EQ(fs.List("/w/a.txt").error().code, ErrorCode::kNotADirectory);
}

// A sparse array can claim 2^32 - 1 entries: refused before anything is reserved (reserving that
// many entries aborted the module).
TEST(Regression, JsListAnswerOverTheEntryLimitIsAnIoError) {
  JsFileSystem fs = MakeFs();
  auto r = fs.List("/sparse");
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code, ErrorCode::kIo);
  ASSERT_EQ(r.error().details.size(), 2u);
  EXPECT_EQ(r.error().details[1].second,
            "JS FileSystem.list answered 4294967295 entries; the limit is 1048576");
  EXPECT_TRUE(fs.List("/w").has_value());
}

TEST(JsFileSystem, WritePassesAJsOwnedCopy) {
  JsFileSystem fs = MakeFs();
  EXPECT_TRUE(fs.Write("/w/new.txt", "d\xc3\xa9j\xc3\xa0", true).has_value());
  EXPECT_TRUE(ActxLastWriteIs("/w/new.txt", "d\xc3\xa9j\xc3\xa0", true));
  EXPECT_TRUE(fs.Write("/w/empty.txt", "", false).has_value());
  EXPECT_TRUE(ActxLastWriteIs("/w/empty.txt", "", false));
  auto refused = fs.Write("/ro", "x", false);
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().code, ErrorCode::kPermissionDenied);
}

TEST(JsFileSystem, RemoveFileIsOptional) {
  JsFileSystem fs = MakeFs();
  EXPECT_TRUE(fs.RemoveFile("/w/a.txt").has_value());
  EXPECT_EQ(val::global("globalThis")["__actxLastRemove"].as<std::string>(), "/w/a.txt");
  EXPECT_EQ(fs.RemoveFile("/w").error().code, ErrorCode::kIsADirectory);
  val without = val::take_ownership(ActxMakeFakeFs());
  without.delete_("removeFile");
  ASSERT_TRUE(JsFileSystem::IsValid(without));  // still a valid FileSystem
  JsFileSystem old(without);
  EXPECT_EQ(old.RemoveFile("/w/a.txt").error().Display(), "not_capable: /w/a.txt");
}

TEST(JsFileSystem, RegistersWithTheEngine) {
  Engine engine;
  std::uint32_t handle = engine.Open();
  ASSERT_NE(handle, 0u);
  EXPECT_TRUE(engine.AddFileSystem(
      handle, "workspace", std::make_shared<JsFileSystem>(val::take_ownership(ActxMakeFakeFs()))));
  engine.Close(handle);
  EXPECT_EQ(engine.OpenHandles(), 0u);
}

}  // namespace
}  // namespace agentctx
