// SPDX-License-Identifier: MIT
// GuestFileSystem: the `workspace` FileSystem of every session slot in the WASI guest. It is
// the workspace PosixFileSystem plus read access to the two global AGENTS.md files of the
// agentctx home (`<home>/AGENTS.override.md`, `<home>/AGENTS.md`: discovery reads the global
// file through the primary environment's FileSystem).
// Invariants:
//  - Under `workspace_root`: everything PosixFileSystem(workspace_root) allows, nothing more.
//  - Under `home_dir`: Stat and Read of exactly `<home>/AGENTS.override.md` and
//    `<home>/AGENTS.md`; every other path there (rollouts under `<home>/sessions`, listing the
//    home, any write or removal) is kNotCapable, so the model's tools never reach the session
//    files.
//  - An empty `home_dir` disables the home part.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "agentctx/file_system.h"
#include "posix_file_system.h"

namespace agentctx {

class GuestFileSystem : public FileSystem {
 public:
  GuestFileSystem(std::string workspace_root, std::string home_dir);

  Result<FileStat> Stat(std::string_view path) override;
  Result<std::string> Read(std::string_view path, std::uint64_t max_bytes) override;
  Result<std::vector<DirEntry>> List(std::string_view path) override;
  Result<void> Write(std::string_view path, std::string_view bytes, bool create_parents) override;
  Result<void> RemoveFile(std::string_view path) override;
  bool Sandboxed() const override;

 private:
  /// True for the global AGENTS.md candidates below the home.
  bool IsHomeInstructions(std::string_view path) const;

  PosixFileSystem workspace_;
  PosixFileSystem home_;
  std::string home_dir_;
};

}  // namespace agentctx
