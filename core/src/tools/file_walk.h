// SPDX-License-Identifier: MIT
// The directory walk shared by `grep` and `glob` (ours), over the injected FileSystem.
// Invariants:
//  - Depth first, each directory's entries sorted by name bytes (deterministic on every
//    FileSystem); files are visited in that order with their path relative to the root.
//  - Directories named in kSkippedDirectories are not descended into (the root itself may be
//    one); symlinks are never descended into (no loops), but a symlink whose target is a file
//    is visited as a file; entries of kind `other` are skipped.
//  - At most `max_entries` directory entries are examined; then the walk stops and says so.
//  - A directory below the root that cannot be listed is skipped and counted.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "agentctx/file_system.h"

namespace agentctx {

inline constexpr std::string_view kSkippedDirectories[] = {".git", "node_modules"};
inline constexpr std::size_t kWalkMaxDepth = 64;

struct WalkOutcome {
  std::size_t entries = 0;        // directory entries examined
  std::size_t unlistable = 0;     // subdirectories that could not be listed
  bool stopped_at_limit = false;  // max_entries reached
  bool stopped_by_visitor = false;
};

/// Visits every file below directory `root` (absolute, normalised, already stat'ed as a dir).
/// `visit(path, relative)` returns false to stop the walk. Errors listing the root itself are
/// returned; errors below it are counted.
Result<WalkOutcome> WalkFiles(
    FileSystem* fs, const std::string& root, std::size_t max_entries,
    const std::function<bool(const std::string& path, std::string_view relative)>& visit);

}  // namespace agentctx
