// SPDX-License-Identifier: MIT
// Built-in tool `list_dir` (docs/tools.md): a depth-limited directory listing.
// Algorithm: 1. parse {path, depth? in 1..3 (default 1)}; 2. resolve against the primary cwd;
// 3. list the directory (a failure → `list_dir failed: <code>: <path>`); 4. output
// `Absolute path: <path>`, then entries depth-first, sorted by name bytes, two spaces of
// indent per level below the first, directories suffixed `/` and descended while the level
// is < depth (symlinks are listed, never followed); 5. after 500 entries, if any remain,
// `[more entries omitted]`. A subdirectory that fails to list shows no children.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "tools/tool_context.h"

namespace agentctx {

inline constexpr std::size_t kListDirMaxEntries = 500;
inline constexpr std::int64_t kListDirMaxDepth = 3;

/// The exact tool spec bytes (fixed, advertised in every request).
std::string_view ListDirSpecJson();

/// Runs `list_dir` with the raw JSON `arguments`; returns the output text.
std::string RunListDir(const ToolContext& ctx, std::string_view arguments);

}  // namespace agentctx
