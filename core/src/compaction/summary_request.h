// SPDX-License-Identifier: MIT
// The local compaction exchange: the summarization message appended
// to the request's input, and the summary read back from the response's output items.
// Invariants: pure; the request reuses the same instructions and tools array as turn steps
// (the session builds the body with tool_choice "none" and parallel_tool_calls false), so only
// this one trailing message differs from a turn's prefix.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/json_value.h"

namespace agentctx {

/// The user message `compaction.prompt` (when set) or SUMMARIZATION_PROMPT, canonical.
JsonValue SummarizationMessage(const std::optional<std::string>& custom_prompt);

/// The text of the last assistant message of `output` (its `output_text` parts concatenated),
/// or "" when there is none.
std::string LastAssistantText(const std::vector<JsonValue>& output);

/// SUMMARY_PREFIX + "\n" + summary, with `(no summary available)` for an empty summary.
std::string SummaryTextFor(std::string_view summary);

}  // namespace agentctx
