// SPDX-License-Identifier: MIT
// Anthropic context editing: the `clear_tool_uses_20250919` edit of `context_management`
// (beta context-management-2025-06-27), opt-in by config, and the `applied_edits` a response
// reports (docs/providers.md, "Context editing").
// Rules:
//  - Config `anthropic.context_editing`: null or absent = off; an object with any of
//    `trigger` {type input_tokens|tool_uses, value ≥ 1}, `keep` {type tool_uses, value ≥ 0},
//    `clear_at_least` {type input_tokens, value ≥ 0}, `exclude_tools` [names] and
//    `clear_tool_inputs` (a boolean or [names]): the SDK's BetaClearToolUses20250919Edit.
//    Anything else is invalid_config naming the parameter. Absent parameters are not sent (the
//    provider's defaults apply: trigger 100 000 input tokens, keep 3 tool uses).
//  - Rendered once, at config time: {"type":"clear_tool_uses_20250919", then the parameters
//    present, in the order above}; so every request carries the same bytes.
//  - Applied: the `clear_tool_uses_20250919` entries of a response's
//    `context_management.applied_edits`, summed; malformed entries are skipped.
// Pure; no I/O.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "agentctx/result.h"
#include "protocol/json_value.h"

namespace agentctx {

inline constexpr std::string_view kClearToolUsesEdit = "clear_tool_uses_20250919";
inline constexpr std::string_view kContextManagementBeta = "context-management-2025-06-27";

/// The rendered edit for the config value `value` at key path `path` ("" for null);
/// kInvalidConfig naming the bad parameter otherwise.
Result<std::string> RenderClearToolUsesEdit(const JsonValue& value, const std::string& path);

/// What a response says the provider cleared.
struct AppliedToolClearing {
  std::uint64_t cleared_tool_uses = 0;
  std::uint64_t cleared_input_tokens = 0;
};

/// The tool-use clearing in a response's `context_management` (null or absent: none);
/// nullopt when no such edit was applied or it cleared nothing.
std::optional<AppliedToolClearing> ReadAppliedToolClearing(const JsonValue* context_management);

}  // namespace agentctx
