// SPDX-License-Identifier: MIT
// AGENTS.md discovery and reading: one load, from inputs to assembled text (docs/agents-md.md).
// Algorithm:
//  1. Global: with `home_dir`, stat `<home>/AGENTS.override.md` then `<home>/AGENTS.md` through
//     the primary environment's FileSystem; not_found/not_capable or a non-file -> next; other
//     errors -> warning `agents_md_read_warning` and next. At most kGlobalAgentsMdMaxBytes
//     (budget.h rule 4; a cut is warned and noted), lossy UTF-8, trimmed; the first non-empty one
//     wins. A cached GlobalDoc read from the same home/fs is reused instead (selection mode: read
//     on the first load only).
//  2. Gates: untrusted or max_bytes == 0 -> no project docs.
//  3. Per ready environment (config order, primary first) while budget remains:
//     a. root: from cwd up to `/`, stat `<dir>/<marker>` per marker; the nearest success wins
//        (errors = absent); no root -> [cwd], else root..cwd; (ours) at most
//        kMaxAgentsMdSearchDirs directories are searched for a marker: past that, warning
//        `agents_md_read_warning` and no root ([cwd]), so a deep tree costs bounded stats;
//     b. per directory, the first candidate (override, AGENTS.md, fallbacks) whose stat kind is
//        `file`; not_found/dir/other -> next; other stat errors fail the environment; then
//        (ours) `AGENTS.local.md` under the same stat rules, kept as the directory's second
//        document (kind `local`), whether or not a team file was selected;
//     c. read each with read(path, remaining): not_found -> skip; errors fail the environment;
//        larger than remaining -> raw cut + warning `agents_md_truncated`; (ours) a document
//        found once the budget is 0 is not read but warned about the same way (budget.h);
//        lossy UTF-8, not trimmed; whitespace-only -> dropped, consumes nothing; else
//        remaining -= raw bytes,
//        then (ours) its `@path` import lines are expanded (imports.h), each imported file
//        read once and counted in the same budget. A document an earlier import already read
//        is skipped (each file is read at most once per environment).
//     d. failure: sandboxed -> the load fails (kAgentsMdLoadFailed); host -> warning, the
//        environment contributes nothing (its budget is restored).
//  4. Assembly (assembly.h); when the budget cut or skipped anything, the text ends with one
//     truncation note line (budget.h, ours). Every stat is recorded in the probe set.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "agentctx/result.h"
#include "agents_md/probe_set.h"
#include "agents_md/types.h"

namespace agentctx {

inline constexpr const char* kAgentsOverrideFilename = "AGENTS.override.md";
inline constexpr const char* kAgentsFilename = "AGENTS.md";
/// The most directories (cwd included) searched for a root marker (ours): a cwd
/// thousands of levels deep made thousands of stats, each recorded with its long path.
inline constexpr std::size_t kMaxAgentsMdSearchDirs = 256;
/// The personal, uncommitted overlay read after each directory's selected file (ours).
inline constexpr const char* kAgentsLocalFilename = "AGENTS.local.md";

/// The global instructions and what they were read from (so a reuse can be checked).
struct GlobalDoc {
  std::optional<std::string> text;  // trimmed, non-empty
  std::string path;                 // the winning candidate (when text)
  std::optional<std::string> home_dir;
  std::string fs_name;
  std::uint64_t fs_epoch = 0;
};

/// One successful load.
struct AgentsMdLoad {
  AgentsMdResult result;
  GlobalDoc global;
  bool global_reused = false;
  ProbeSet probes;
  std::vector<AgentsMdWarning> warnings;
};

/// Runs one load (the algorithm above) for `inputs`. `cached_global` (may be null) is reused
/// when it was read from the same home_dir and primary fs name/epoch. Never aborts on bad input.
/// Errors: kAgentsMdLoadFailed ``failed to load AGENTS.md instructions for environment `<id>`:
/// <err>`` when a sandboxed environment fails.
Result<AgentsMdLoad> LoadAgentsMd(const AgentsMdInputs& inputs, const GlobalDoc* cached_global);

/// The candidate names per directory: AGENTS.override.md, AGENTS.md, then `fallbacks` minus
/// empty, duplicate, `/`-containing (and, ours, `.`, `..`, NUL-containing and
/// `AGENTS.local.md`, which is always read as the overlay) names.
std::vector<std::string> CandidateNames(const std::vector<std::string>& fallbacks);

}  // namespace agentctx
