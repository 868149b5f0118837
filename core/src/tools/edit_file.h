// SPDX-License-Identifier: MIT
// Built-in tool `edit_file` (ours): exact text replacement in one file.
// Algorithm: 1. parse {path, old_string, new_string, replace_all? (default false)};
// 2. resolve against the primary cwd (lexically); 3. the sandbox write policy may refuse
// (`edit_file refused: …`, nothing is read); 4. read the whole file (at most kEditFileMaxBytes);
// 5. count non-overlapping occurrences of old_string; when there are none and the file uses
// CRLF line endings while old_string has bare LFs, retry with old/new_string converted to CRLF;
// 6. none → `edit_file failed: old_string was not found in <path>`; more than one without
// replace_all → `edit_file failed: old_string occurs <n> times in <path>; …`; 7. replace
// (all, or the one) and write the file back (parents are not created: it exists);
// → `Edited <path>: replaced <n> occurrence(s) (line(s) …)` naming the first kEditMaxLinesShown
// starting lines (1-based, in the original file).
// Invariants: on every failure nothing is written; bytes outside the replaced ranges (invalid
// UTF-8 included) are kept as they are.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "tools/tool_context.h"

namespace agentctx {

inline constexpr std::uint64_t kEditFileMaxBytes = 4 * 1024 * 1024;
inline constexpr std::size_t kEditMaxLinesShown = 10;

/// The exact tool spec bytes.
std::string_view EditFileSpecJson();

/// Runs `edit_file` with the raw JSON `arguments`; returns the output text.
std::string RunEditFile(const ToolContext& ctx, std::string_view arguments);

}  // namespace agentctx
