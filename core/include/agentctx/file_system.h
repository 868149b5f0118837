// SPDX-License-Identifier: MIT
// The injected, synchronous FileSystem: the core's only outbound calls (it does no I/O itself).
// Implementations: MemoryFileSystem (core, tests + browser), PosixFileSystem (native and WASI
// preopens), JsFileSystem (Embind bridge).
// Contract: paths are absolute, normalised POSIX paths (else kInvalidPath); errors use the
// file-system codes of error_codes.def; Stat follows symlinks, List and RemoveFile do not.
// RemoveFile (ours, for `apply_patch` deletes and moves) is optional: the default answers
// kNotCapable, so a FileSystem that cannot delete refuses cleanly.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "agentctx/result.h"

namespace agentctx {

enum class FileKind { kFile, kDir, kSymlink, kOther };

/// "file" | "dir" | "symlink" | "other".
std::string_view FileKindName(FileKind kind);

struct FileStat {
  FileKind kind = FileKind::kFile;
  std::uint64_t size = 0;
  std::int64_t mtime_ms = 0;
};

struct DirEntry {
  std::string name;
  FileKind kind = FileKind::kFile;
};

class FileSystem {
 public:
  virtual ~FileSystem() = default;
  /// Follows symlinks; a broken link is kNotFound.
  virtual Result<FileStat> Stat(std::string_view path) = 0;
  /// The first min(size, max_bytes) bytes; kIsADirectory for a directory.
  virtual Result<std::string> Read(std::string_view path, std::uint64_t max_bytes) = 0;
  /// Entries in any order (the core sorts by name bytes); symlinks are not followed.
  virtual Result<std::vector<DirEntry>> List(std::string_view path) = 0;
  /// Creates or truncates; `create_parents` makes missing directories.
  virtual Result<void> Write(std::string_view path, std::string_view bytes,
                             bool create_parents) = 0;
  /// Removes the file at `path` (a symlink itself, never its target). kIsADirectory for a
  /// directory, kNotFound when absent. Default: kNotCapable (removal not supported).
  virtual Result<void> RemoveFile(std::string_view path);
  /// True when the FileSystem confines itself (WASI preopens, the in-memory workspace).
  virtual bool Sandboxed() const = 0;
};

}  // namespace agentctx
