// SPDX-License-Identifier: MIT
// The built-in tools as a set (docs/tools.md): names and canonical spec bytes (compact JSON,
// sorted keys) in their fixed order (`read_file`, `list_dir`, `write_file`, then ours:
// `edit_file`, `apply_patch`, `grep`, `glob`), and dispatch of a call to the right tool.
// `write_file`, `edit_file` and `apply_patch` mutate and obey the sandbox write policy
// (sandbox_policy.h).
// Tools are pure apart from calls on ctx.fs; every failure is an output text, never an error.
// The caller (session) applies output truncation (output_truncation.h) on record.
#pragma once

#include <array>
#include <string>
#include <string_view>

#include "tools/tool_context.h"

namespace agentctx {

inline constexpr std::size_t kBuiltinToolCount = 7;
inline constexpr std::array<std::string_view, kBuiltinToolCount> kBuiltinToolNames = {
    "read_file", "list_dir", "write_file", "edit_file", "apply_patch", "grep", "glob"};

/// True for the names in kBuiltinToolNames.
bool IsBuiltinTool(std::string_view name);

/// The spec objects' exact bytes, in the fixed order of kBuiltinToolNames.
std::array<std::string_view, kBuiltinToolCount> BuiltinToolSpecsJson();

/// Runs built-in `name` with the raw JSON `arguments`; a non-built-in name gets
/// UnsupportedCallOutput(name).
std::string RunBuiltinTool(const ToolContext& ctx, std::string_view name,
                           std::string_view arguments);

/// `unsupported call: <name>`: the output for unknown names and custom tool calls.
std::string UnsupportedCallOutput(std::string_view name);

}  // namespace agentctx
