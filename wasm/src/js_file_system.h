// SPDX-License-Identifier: MIT
// JsFileSystem: agentctx::FileSystem over a JS object.
// The JS object has synchronous methods, each answering a plain object:
//   stat(path)                        -> {ok:true, kind:"file"|"dir"|"other", size, mtime_ms}
//   read(path, maxBytes)              -> {ok:true, data: Uint8Array}
//   list(path)                        -> {ok:true, entries: [{name, kind}]}
//   write(path, bytes, createParents) -> {ok:true}
//   removeFile(path)                  -> {ok:true}   (optional; absent: not_capable)
//   sandboxed()                       -> boolean
// and on failure {ok:false, code, message?} with code one of the snake_case FileSystem codes of
// error_codes.def (not_found … io).
// Invariants: never throws and never aborts on a malformed answer — anything unexpected (wrong
// shape, unknown code, oversized data, more than kMaxJsListEntries entries) becomes kIo. The
// object is always the TS guard of wasm/ts/file_system.ts, never a user object: its methods
// never throw and answer plain data only (plain objects of primitives, plain arrays, a plain
// Uint8Array made with the intrinsic TypedArray accessors, possibly over a buffer the JS side
// reuses — it is copied here before the call returns), so reading an answer here runs no user code
// — a getter or Proxy trap that threw here would unwind through these -fno-exceptions frames. Bytes
// are copied into wasm memory with one typed_memory_view(...).set() each way.
#pragma once

#include <emscripten/val.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "agentctx/file_system.h"

namespace agentctx {

/// The most entries one `list` answer may hold (MAX_LIST_ENTRIES in wasm/ts/file_system.ts).
inline constexpr std::uint64_t kMaxJsListEntries = std::uint64_t{1} << 20;

class JsFileSystem final : public FileSystem {
 public:
  /// True when `fs` is an object whose stat/read/list/write/sandboxed are functions.
  static bool IsValid(const emscripten::val& fs);

  /// `fs` must satisfy IsValid(); the object is kept alive until this FileSystem is destroyed.
  explicit JsFileSystem(emscripten::val fs);

  Result<FileStat> Stat(std::string_view path) override;
  Result<std::string> Read(std::string_view path, std::uint64_t max_bytes) override;
  Result<std::vector<DirEntry>> List(std::string_view path) override;
  Result<void> Write(std::string_view path, std::string_view bytes, bool create_parents) override;
  /// Calls `removeFile` when the object has one; kNotCapable otherwise.
  Result<void> RemoveFile(std::string_view path) override;
  bool Sandboxed() const override { return sandboxed_; }

 private:
  emscripten::val fs_;
  bool sandboxed_;
};

}  // namespace agentctx
