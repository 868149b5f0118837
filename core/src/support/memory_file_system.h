// SPDX-License-Identifier: MIT
// MemoryFileSystem: the in-memory FileSystem the core ships for tests and the browser
// (contract: agentctx/file_system.h).
// Invariants:
//  - Sandboxed() is true; paths must be absolute and normalised, else kInvalidPath.
//  - Nodes are file, dir, other or symlink. Stat/Read/List/Write follow symlinks (in every
//    segment; RemoveFile not in the last); a broken link is kNotFound, more than kMaxSymlinkHops
//    expansions (a loop) is kIo. List reports entries' own kinds (a symlink entry is kSymlink),
//    sorted by name bytes.
//  - Each Write sets mtime_ms = max(clock, previous + 1) (previous = the file's old mtime; a new
//    file gets the clock), so probes see every edit. The clock is the last SetClock value.
//    Directory mtimes never change implicitly; tests set them with the Add*/SetMtime helpers.
//  - Injected errors (InjectError) are returned for the exact path and operation before any
//    lookup, and stay until cleared.
// Sizes: a file's size is its byte length; dirs, other and symlinks report 0 from Stat.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "agentctx/file_system.h"

namespace agentctx {

class MemoryFileSystem : public FileSystem {
 public:
  /// Symlink expansions allowed while resolving one path (Linux's MAXSYMLINKS).
  static constexpr int kMaxSymlinkHops = 40;
  enum class Op { kStat, kRead, kList, kWrite, kRemove };

  MemoryFileSystem();
  ~MemoryFileSystem() override;
  MemoryFileSystem(const MemoryFileSystem&) = delete;
  MemoryFileSystem& operator=(const MemoryFileSystem&) = delete;

  // FileSystem (agentctx/file_system.h).
  Result<FileStat> Stat(std::string_view path) override;
  Result<std::string> Read(std::string_view path, std::uint64_t max_bytes) override;
  Result<std::vector<DirEntry>> List(std::string_view path) override;
  Result<void> Write(std::string_view path, std::string_view bytes, bool create_parents) override;
  Result<void> RemoveFile(std::string_view path) override;
  bool Sandboxed() const override { return true; }

  /// Sets the clock used for write mtimes (the host passes each now_ms).
  void SetClock(std::int64_t now_ms) { clock_ms_ = now_ms; }
  std::int64_t clock() const { return clock_ms_; }

  // Test/setup helpers: missing parents are created as dirs (mtime = clock); an existing node
  // at `path` is replaced. `mtime_ms` defaults to the clock (AddFile on an existing file: the
  // write rule). Errors: kInvalidPath, kNotADirectory (a parent is not a dir).
  Result<void> AddFile(std::string_view path, std::string_view bytes,
                       std::optional<std::int64_t> mtime_ms = std::nullopt);
  Result<void> AddDir(std::string_view path, std::optional<std::int64_t> mtime_ms = std::nullopt);
  Result<void> AddOther(std::string_view path, std::optional<std::int64_t> mtime_ms = std::nullopt);
  /// `target` is stored verbatim: absolute, or relative to the link's directory.
  Result<void> AddSymlink(std::string_view path, std::string_view target);
  /// Sets the mtime of the node at `path` (symlinks followed).
  Result<void> SetMtime(std::string_view path, std::int64_t mtime_ms);
  /// Removes the node at `path` and everything below it (a final symlink is not followed).
  /// kNotFound when absent; kInvalidPath for the root.
  Result<void> Remove(std::string_view path);

  /// Makes `op` on exactly `path` fail with `code` until cleared.
  void InjectError(std::string_view path, Op op, ErrorCode code);
  void ClearError(std::string_view path, Op op);
  void ClearErrors();

 private:
  struct Node;
  struct Resolved {
    Node* node;
    std::string path;  // the resolved (symlink-free) path
  };

  Result<void> CheckPath(std::string_view path, Op op) const;
  /// Walks `path`, following symlinks in every segment (the last only when `follow_last`).
  Result<Resolved> Lookup(std::string_view path, bool follow_last) const;
  /// Resolves the parent of `path` and returns it (creating dirs when `create`).
  Result<Resolved> ParentDir(std::string_view path, bool create);
  Result<Node*> Place(std::string_view path);

  std::unique_ptr<Node> root_;
  std::int64_t clock_ms_ = 0;
  std::map<std::pair<std::string, int>, ErrorCode> injected_;
};

}  // namespace agentctx
