// SPDX-License-Identifier: MIT
// The mock model's side of Anthropic context editing (`clear_tool_uses_20250919` in
// `context_management.edits`), so its cache effect shows offline: the edit is applied to the
// request before the cache simulator reads it, like the server does before its cache lookup.
// Rules (the documented behaviour, simplified; stateless: every request is edited from the
// messages it carries, as the API receives the full history each time):
//  1. The edit applies when its trigger is reached: `input_tokens` (default 100 000) — the
//     prompt's tokens ≥ value — or `tool_uses` — the body's tool_use blocks ≥ value.
//  2. Candidates: the tool_result blocks, oldest first, of tool uses whose tool is not in
//     `exclude_tools`. All but the newest `keep` (default 3) are cleared: their `content`
//     becomes kMockClearedResult; with `clear_tool_inputs` true (or naming the tool) the
//     tool_use's `input` becomes {} too.
//  3. cleared_input_tokens = floor(bytes removed / 4); when `clear_at_least` is set
//     and more than that would not go, nothing is edited. Nothing to clear: not applied.
// The API refuses `context_management` with the on-demand `compaction`: such a body is not
// edited. Malformed parameters are read as absent. Pure.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "protocol/json_value.h"

namespace agentctx {

inline constexpr std::string_view kMockClearedResult = "[tool result cleared]";

struct MockToolClearing {
  std::uint64_t cleared_tool_uses = 0;
  std::uint64_t cleared_input_tokens = 0;
};

/// Applies rules 1–3 to the Anthropic `body` (its messages edited in place); `prompt_tokens`:
/// the prompt's size as the cache simulator counts it. nullopt: nothing was edited.
std::optional<MockToolClearing> ApplyMockContextEdits(JsonValue* body, std::uint64_t prompt_tokens);

/// The response's `context_management`: {"applied_edits":[{"type":"clear_tool_uses_20250919",
/// "cleared_tool_uses","cleared_input_tokens"}]}.
JsonValue MockContextManagement(const MockToolClearing& cleared);

}  // namespace agentctx
