// SPDX-License-Identifier: MIT
// The directory walk shared by `grep` and `glob` (ours); see file_walk.h.
#include "tools/file_walk.h"

#include <algorithm>
#include <vector>

#include "support/paths.h"

namespace agentctx {
namespace {

struct Walker {
  FileSystem* fs;
  std::size_t max_entries;
  const std::function<bool(const std::string&, std::string_view)>* visit;
  WalkOutcome outcome;

  bool Skipped(std::string_view name) const {
    for (std::string_view skipped : kSkippedDirectories) {
      if (name == skipped) return true;
    }
    return false;
  }

  // Returns false when the walk must stop.
  bool Dir(const std::string& dir, const std::string& relative, std::vector<DirEntry> entries,
           std::size_t depth) {
    std::sort(entries.begin(), entries.end(),
              [](const DirEntry& a, const DirEntry& b) { return a.name < b.name; });
    for (const DirEntry& entry : entries) {
      if (outcome.entries == max_entries) {
        outcome.stopped_at_limit = true;
        return false;
      }
      ++outcome.entries;
      std::string path = Join(dir, entry.name);
      std::string rel = relative.empty() ? entry.name : relative + "/" + entry.name;
      FileKind kind = entry.kind;
      if (kind == FileKind::kSymlink) {
        Result<FileStat> target = fs->Stat(path);
        if (!target.has_value() || target->kind != FileKind::kFile) continue;
        kind = FileKind::kFile;
      }
      if (kind == FileKind::kFile) {
        if (!(*visit)(path, rel)) {
          outcome.stopped_by_visitor = true;
          return false;
        }
        continue;
      }
      if (kind != FileKind::kDir || Skipped(entry.name) || depth >= kWalkMaxDepth) continue;
      Result<std::vector<DirEntry>> children = fs->List(path);
      if (!children.has_value()) {
        ++outcome.unlistable;
        continue;
      }
      if (!Dir(path, rel, std::move(children).value(), depth + 1)) return false;
    }
    return true;
  }
};

}  // namespace

Result<WalkOutcome> WalkFiles(
    FileSystem* fs, const std::string& root, std::size_t max_entries,
    const std::function<bool(const std::string& path, std::string_view relative)>& visit) {
  ACTX_TRY(std::vector<DirEntry> entries, fs->List(root));
  Walker walker{fs, max_entries, &visit, {}};
  walker.Dir(root, "", std::move(entries), 0);
  return walker.outcome;
}

}  // namespace agentctx
