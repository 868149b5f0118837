// SPDX-License-Identifier: MIT
// JsFileSystem: agentctx::FileSystem over a JS object (ARCHITECTURE §6 "JS FileSystem"; SPEC §3).
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
// shape, unknown code, oversized data) becomes kIo; bytes cross the boundary with exactly one
// typed_memory_view(...).set() copy each way. The TS layer wraps user objects so JS exceptions
// become {ok:false, code:"io"} before they reach this class.
#pragma once

#include <emscripten/val.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "agentctx/file_system.h"

namespace agentctx {

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
