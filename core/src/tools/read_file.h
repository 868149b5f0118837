// SPDX-License-Identifier: MIT
// Built-in tool `read_file` (docs/tools.md): numbered lines of a text file.
// Algorithm: 1. parse {path, offset?≥1 (default 1), limit?≥1 (default 2000)};
// 2. resolve path against the primary cwd (lexically); 3. read at most 1 MiB;
// 4. lossy UTF-8; split on `\n` (a final empty segment is not a line), drop a `\r` before
// `\n`; 5. empty file → `(empty file)`; offset past the end →
// `read_file failed: offset <o> exceeds file length (<n> lines)`; 6. lines offset..offset+limit−1
// as `L<n>: <text>` joined by `\n`, each line cut to 500 bytes on a character boundary.
// FileSystem errors → `read_file failed: <code>: <path>`.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "tools/tool_context.h"

namespace agentctx {

inline constexpr std::uint64_t kReadFileMaxBytes = 1024 * 1024;
inline constexpr std::size_t kReadFileMaxLineBytes = 500;
inline constexpr std::int64_t kReadFileDefaultLimit = 2000;

/// The exact tool spec bytes (fixed, advertised in every request).
std::string_view ReadFileSpecJson();

/// Runs `read_file` with the raw JSON `arguments`; returns the output text.
std::string RunReadFile(const ToolContext& ctx, std::string_view arguments);

}  // namespace agentctx
