// SPDX-License-Identifier: MIT
// The project-document byte budget of one load and what it cut (ours; docs/agents-md.md).
// Rules:
//  1. Every project file (walked document or import) is read with read(path, remaining). One
//     larger than `remaining` is cut raw to it: warning `agents_md_truncated` ``AGENTS.md
//     instructions truncated: `<path>` exceeds the remaining budget of <n> bytes``, and the
//     bytes cut off are added to `omitted`.
//  2. A file found after the budget reached 0 is not read: the same warning with <n> = 0, and
//     its whole size is added to `omitted`.
//  3. When anything was omitted, the assembled text ends with one line saying so
//     (TruncationNote), so the model knows its instructions are incomplete.
//  4. (ours) The global file is not part of that budget and is never cut to it, but
//     it is read through the FileSystem with at most kGlobalAgentsMdMaxBytes: a larger one is
//     cut raw to the limit (a split character becomes U+FFFD), warning `agents_md_truncated`
//     ``global AGENTS.md instructions truncated: `<path>` is <size> bytes, over the limit of
//     <limit> bytes``, and the global text ends with GlobalTruncationNote. A model context
//     window cannot use more (1 MiB is ~260k tokens), and reading a 50 MB file whole made
//     the package take 2.4 GB.
// Invariants: `omitted` only counts files the load found (stat'ed); environments that are not
// searched because the budget is exhausted are not counted. Integer arithmetic only.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "agents_md/types.h"

namespace agentctx {

/// Rule 4: the most bytes of a global AGENTS.md that are read (1 MiB).
inline constexpr std::uint64_t kGlobalAgentsMdMaxBytes = 1u << 20;

struct ByteBudget {
  std::uint64_t remaining = 0;
  std::uint64_t omitted = 0;  // bytes of found files that were cut off or not read
};

/// Rule 1: cuts `*raw` (read with max_bytes = remaining from `path`, whose stat size was
/// `size`) to `remaining`; on a cut, one warning and `omitted` grows. Consumes nothing (the
/// caller subtracts what it keeps). True when the file was cut.
bool CutToBudget(ByteBudget* budget, const std::string& path, std::uint64_t size, std::string* raw,
                 std::vector<AgentsMdWarning>* warnings);

/// Rule 2: `path` (stat size `size`) is not read because `remaining` is 0.
void SkipForBudget(ByteBudget* budget, const std::string& path, std::uint64_t size,
                   std::vector<AgentsMdWarning>* warnings);

/// Rule 3: `[AGENTS.md instructions truncated: <omitted> bytes omitted to fit the <max>-byte
/// limit]`.
std::string TruncationNote(std::uint64_t omitted, std::uint64_t max_bytes);

/// Rule 4: cuts `*raw` (read with max_bytes = kGlobalAgentsMdMaxBytes from `path`, stat size
/// `size`) to the limit and warns; returns the bytes omitted (0: nothing was cut, no warning).
std::uint64_t CutGlobalToLimit(const std::string& path, std::uint64_t size, std::string* raw,
                               std::vector<AgentsMdWarning>* warnings);

/// Rule 4: `[global AGENTS.md instructions truncated: <omitted> bytes omitted to fit the
/// <limit>-byte limit]`.
std::string GlobalTruncationNote(std::uint64_t omitted);

/// Appends `note` to `*text` as its own last line, after a blank line (rules 3 and 4).
void AppendNoteLine(std::string* text, const std::string& note);

/// Rule 3: appends the note to `*text` as its own last line (after a blank line).
void AppendTruncationNote(std::string* text, std::uint64_t omitted, std::uint64_t max_bytes);

}  // namespace agentctx
