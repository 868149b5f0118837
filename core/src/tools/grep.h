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
// (text cut to kGrepMaxLineBytes on a character boundary); 6. stop after kGrepMaxMatches
// matches, kGrepMaxOutputBytes of output, kGrepMaxScanBytes read or kGrepMaxEntries entries,
// saying so in a last `[…]` line; 7. no match → `No matches for <pattern> in <path>`; skipped
// binary/unreadable files are reported in a final `(…)` line.
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

/// The exact tool spec bytes.
std::string_view GrepSpecJson();

/// Runs `grep` with the raw JSON `arguments`; returns the output text.
std::string RunGrep(const ToolContext& ctx, std::string_view arguments);

}  // namespace agentctx
