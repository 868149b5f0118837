// SPDX-License-Identifier: MIT
// `@path` imports in project AGENTS.md documents (ours; docs/agents-md.md): a line that is only
// `@relative/path` is replaced by that file's text, recursively.
// Algorithm, per document (a walked file at depth 0, or an imported file at depth d):
//  1. Split into lines on LF. Lines inside a fenced code block (``` or ~~~, up to 3 leading
//     spaces) are never imports. An import line is `@` + a non-empty path with no space or tab,
//     with nothing before the `@` and only spaces, tabs or a CR after the path. When the
//     document was cut by the budget, its last, unterminated line is not an import.
//  2. Resolve: an absolute path is refused; a relative one is joined to the importing file's
//     directory and normalised lexically; a result outside the scope (the project root, or the
//     cwd when no root marker was found; symlinks are never resolved) is refused.
//  3. Refuse a depth beyond kMaxImportDepth; a path already on the current import chain (a
//     cycle) or already included for this environment (a second visit) is not read again.
//  4. Stat (recorded in the probe set, role `import`): not_found, another error or a kind that
//     is not `file` -> not read. No budget left -> not read (budget.h rule 2).
//  5. read(path, remaining): an error -> not read; larger than remaining -> raw cut (budget.h
//     rule 1); lossy UTF-8; remaining -= raw bytes (each file counts once).
//  6. Expand the imported text (steps 1-6, depth + 1) and put it in place of the line, keeping
//     the line's LF. Every import that is not read leaves its line as written, with one
//     `agents_md_import_warning` naming the line, the importing file and the reason.
// Invariants: never fails (problems are warnings); each file is read at most once per
// environment;
// the order of reads, stats, warnings and imported sources is the document order (depth first).
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "agents_md/budget.h"
#include "agents_md/probe_set.h"
#include "agents_md/types.h"

namespace agentctx {

/// Imports nest at most this deep: a walked document's imports are depth 1.
inline constexpr std::uint32_t kMaxImportDepth = 5;

/// Expands the imports of one environment's documents. Borrowed pointers outlive it.
class ImportExpander {
 public:
  /// `scope`: the directory imports must stay in (normalised); `scope_is_root`: it is the
  /// project root (else the cwd, no marker found), for the warning text. `included` holds the
  /// files read so far for this environment (documents and imports, IncludedKey); expansion
  /// adds to it.
  ImportExpander(const EnvironmentSelection& env, std::string scope, bool scope_is_root,
                 ProbeSet* probes, std::set<std::string>* included,
                 std::vector<AgentsMdWarning>* warnings);

  /// Expands `text`, the contents of walked document `path` (already counted in the budget).
  /// `cut`: the document was cut by the budget. `*budget` is the shared budget; imported
  /// bytes are taken from it. Imported files are appended to `*imported` in document order.
  std::string Expand(std::string_view text, const std::string& path, bool cut, ByteBudget* budget,
                     std::vector<AgentsMdImport>* imported);

 private:
  std::string ExpandAt(std::string_view text, const std::string& path, std::uint32_t depth,
                       bool cut, std::vector<std::string>* chain);
  /// Steps 2-6 for one import line: true with the imported file's expanded text in `*out`, or
  /// false (one warning; the line stays as written).
  bool Import(std::string_view line, std::string_view target, const std::string& from,
              std::uint32_t depth, std::vector<std::string>* chain, std::string* out);
  void Warn(std::string_view line, const std::string& from, const std::string& reason);

  const EnvironmentSelection& env_;
  std::string scope_;
  bool scope_is_root_;
  ProbeSet* probes_;
  std::set<std::string>* included_;
  std::vector<AgentsMdWarning>* warnings_;
  ByteBudget* budget_ = nullptr;
  std::vector<AgentsMdImport>* imported_ = nullptr;
};

/// The target of an import line (step 1), or empty when `line` (without its LF) is not one.
std::string_view ImportTarget(std::string_view line);

/// The key of `path` on FileSystem `fs_name` in the `included` set.
std::string IncludedKey(std::string_view fs_name, std::string_view path);

}  // namespace agentctx
