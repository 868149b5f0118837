// SPDX-License-Identifier: MIT
// Built-in tool `write_file` (docs/tools.md): create or replace a UTF-8 text file.
// Algorithm: 1. parse {path, content}; 2. resolve against the primary cwd (lexically);
// 3. the sandbox write policy (sandbox_policy.h) may refuse with its exact text; 4. write with
// parents created; → `Wrote <n> bytes to <path>` (n = content bytes), or
// `write_file failed: <code>: <path>` when the FileSystem refuses (e.g. a read-only preopen).
#pragma once

#include <string>
#include <string_view>

#include "tools/tool_context.h"

namespace agentctx {

/// The exact tool spec bytes (fixed, advertised in every request).
std::string_view WriteFileSpecJson();

/// Runs `write_file` with the raw JSON `arguments`; returns the output text.
std::string RunWriteFile(const ToolContext& ctx, std::string_view arguments);

}  // namespace agentctx
