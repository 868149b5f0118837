// SPDX-License-Identifier: MIT
// Built-in tool `grep` (ours): lines of text files matching a regular expression.
// Algorithm: 1. parse {pattern, path? (default: the primary cwd), include?}; 2. compile the
// pattern (regex.h; `grep failed: invalid regular expression: …`) and the include glob
// (glob_pattern.h; matched against the file name when it has no `/`, else against the path
// relative to `path`); 3. resolve and stat `path` (`grep failed: <code>: <path>`); a file is
// searched alone (include ignored), a directory is walked (file_walk.h: name order, depth
// first, `.git` and `node_modules` skipped); 4. per file: read at most kGrepMaxFileBytes; a NUL
// byte in the first kGrepBinaryProbeBytes makes it binary (skipped, counted); lossy UTF-8;
// lines split on LF, a CR before LF dropped; 5. each matching line → `<path>:<n>: <text>`
// (text cut to kGrepMaxLineBytes on a character boundary); lines are found by
// RegexSearcher::NextLine, which skips lines without a required literal; 6. stop after
// kGrepMaxMatches matches, kGrepMaxOutputBytes of output, kGrepMaxScanBytes read,
// kGrepMaxEntries entries or kGrepMaxSteps regex steps, saying so in a last `[…]` line; 7. no match
// → `No matches for <pattern> in <path>`; skipped binary/unreadable files are reported in a final
// `(…)` line.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "tools/tool_context.h"

namespace agentctx {

inline constexpr std::size_t kGrepMaxMatches = 200;
inline constexpr std::size_t kGrepMaxOutputBytes = 8000;
inline constexpr std::size_t kGrepMaxLineBytes = 300;
inline constexpr std::uint64_t kGrepMaxFileBytes = 1024 * 1024;
inline constexpr std::uint64_t kGrepMaxScanBytes = 32 * 1024 * 1024;
inline constexpr std::size_t kGrepMaxEntries = 20000;
inline constexpr std::size_t kGrepBinaryProbeBytes = 8192;
/// The work budget of one call, in regex steps (RegexSearcher::steps()): a bound on time that
/// reads no clock. Searching 32 MiB with the DFA takes about 33 million.
inline constexpr std::uint64_t kGrepMaxSteps = 150'000'000;

/// The exact tool spec bytes.
std::string_view GrepSpecJson();

/// Runs `grep` with the raw JSON `arguments`; returns the output text.
std::string RunGrep(const ToolContext& ctx, std::string_view arguments);
/// RunGrep with a work budget of `max_steps` instead of kGrepMaxSteps (tests).
std::string RunGrepWithBudget(const ToolContext& ctx, std::string_view arguments,
                              std::uint64_t max_steps);

}  // namespace agentctx
