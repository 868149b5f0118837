// SPDX-License-Identifier: MIT
// The mock model's response rules: from a parsed `responses` body to the output
// items (or a failure directive). Pure: no simulator, no memory of earlier bodies.
// Invariants: ids derive from `h` = SHA-1 hex of the body bytes (`resp_`/`rs_`/`msg_` + h[:12],
// `fc_<h12>_<i>`, `call_<h12>_<i>`); items are built in canonical key order (protocol/items.h).
// Algorithm (first matching rule; `U` = last real user message, parts joined by LF; `tail` =
// items after it, or all of `input` when there is none):
//  1. Last item a user message starting with `You are performing a CONTEXT CHECKPOINT
//     COMPACTION` → MOCK SUMMARY (a line per earlier real user message, then per read_file call).
//  2. `U` contains `#mock-fail:<code>` / `#mock-fail-once:<code>` → failure (the caller decides
//     "once"; the success items are still planned for a repeated body).
//  3. `tail` has no tool output → up to 4 calls for tools present in `tools`, else a reply.
//  4. Else one summary line per tool output in `tail`; a failure is `<tool> failed: <first
//     line>`, or the first line alone when it already starts with the tool's name (ours:
//     always prefixing gave "read_file failed: read_file failed: …").
//  Rule 3/4 messages get the AGENTS.md reply directives of the last AGENTS.md part.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mock_model/mock_text.h"
#include "protocol/json_value.h"

namespace agentctx {

inline constexpr std::size_t kMaxMockCalls = 4;

struct MockPlan {
  std::optional<MockFailDirective> failure;  // rule 2
  std::vector<JsonValue> items;              // the success output: reasoning first
};

/// Plans the `responses` output for `body` (an object) with body hash `h` (40 hex chars).
MockPlan PlanMockResponse(const JsonValue& body, std::string_view h);

/// The `responses/compact` output items: the real user messages of `input`, then
/// `{"type":"compaction","encrypted_content":"mockcmp_<h>"}`.
std::vector<JsonValue> PlanMockCompaction(const JsonValue& body, std::string_view h);

}  // namespace agentctx
