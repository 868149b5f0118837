// SPDX-License-Identifier: MIT
// Built-in tool `glob` (ours): files whose paths match a glob pattern, sorted.
// Algorithm: 1. parse {pattern, path? (default: the primary cwd)}; 2. resolve and stat `path`
// (`glob failed: <code>: <path>`; it must be a directory); 3. move the pattern's literal leading
// directories into the search root (`src/**/*.rs` searches `<path>/src` for `**/*.rs`; an
// absolute pattern replaces `path`); 4. compile the rest (glob_pattern.h; `glob failed:
// invalid pattern: …`); 5. walk the root (file_walk.h: `.git`, `node_modules` skipped, at most
// kGlobMaxEntries entries) and keep the files whose path relative to the root matches;
// 6. sort by path bytes; print absolute paths, one per line, at most kGlobMaxResults, then
// `[<n> more files not shown]`; a walk cut short says so; none → `No files match <pattern>
// in <root>`. A root missing because of the pattern's literal prefix is simply no match.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "tools/tool_context.h"

namespace agentctx {

inline constexpr std::size_t kGlobMaxResults = 500;
inline constexpr std::size_t kGlobMaxEntries = 20000;

/// The exact tool spec bytes.
std::string_view GlobSpecJson();

/// Runs `glob` with the raw JSON `arguments`; returns the output text.
std::string RunGlob(const ToolContext& ctx, std::string_view arguments);

}  // namespace agentctx
