// SPDX-License-Identifier: MIT
// PosixFileSystem: agentctx::FileSystem over POSIX calls (fopen/fread/fwrite, stat, opendir,
// mkdir, lstat/unlink for RemoveFile), for the WASI guest (paths resolve through the preopens) and
// natively (tests/abi). It is glue, not core: core/ does no I/O and never calls fopen.
// Invariants (the FileSystem contract, agentctx/file_system.h):
//  - Paths must be absolute and normalised (leading `/`, no empty/`.`/`..` segments, no
//    trailing `/` except root, no NUL); anything else is kInvalidPath before any system call.
//  - `root` confines lexically: a path that is neither `root` nor below it is kNotCapable
//    before any system call. Root "/" confines nothing here; under WASI the preopens still do
//    (wasi-libc/uvwasi answer ENOTCAPABLE for `/etc/passwd`, `..` escapes, outbound symlinks).
//  - errno mapping: ENOENT→not_found; EACCES, EPERM, EROFS→permission_denied;
//    ENOTCAPABLE→not_capable; ENOTDIR→not_a_directory; EISDIR→is_a_directory;
//    EINVAL, ENAMETOOLONG→invalid_path; anything else→io.
//  - Error messages are `<op> <path>` (deterministic on every target: no strerror text) with
//    details {"path": path}.
//  - Sandboxed() is true under WASI (the preopens confine the guest) and configurable natively.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "agentctx/file_system.h"

namespace agentctx {

/// Maps an errno value to a FileSystem error code (ENOENT → kNotFound, EACCES/EPERM/EROFS →
/// kPermissionDenied, …, anything unlisted → kIo).
ErrorCode ErrnoToErrorCode(int err);

class PosixFileSystem : public FileSystem {
 public:
  /// `root` is an absolute normalised path ("/" for no lexical confinement). `sandboxed` is
  /// what Sandboxed() answers natively; under WASI it is always true.
  explicit PosixFileSystem(std::string root, bool sandboxed = false);

  Result<FileStat> Stat(std::string_view path) override;
  Result<std::string> Read(std::string_view path, std::uint64_t max_bytes) override;
  Result<std::vector<DirEntry>> List(std::string_view path) override;
  Result<void> Write(std::string_view path, std::string_view bytes, bool create_parents) override;
  /// lstat (a directory is kIsADirectory), then unlink: a symlink itself is removed.
  Result<void> RemoveFile(std::string_view path) override;
  bool Sandboxed() const override;

  const std::string& root() const { return root_; }

 private:
  /// kInvalidPath / kNotCapable for paths this FileSystem must not pass to the system.
  Result<void> Check(std::string_view op, std::string_view path) const;
  /// Creates the missing directories between root_ and `path`'s parent.
  Result<void> MakeParents(std::string_view path) const;

  std::string root_;
  bool sandboxed_;
};

}  // namespace agentctx
