// SPDX-License-Identifier: MIT
// The mock model's side of the providers' own compaction (docs/compaction-timing.md), so the
// in-band and server strategies run offline with their cache effects (the compaction request
// goes through the same cache simulator as any other).
// Rules:
//  - Responses: the last input item `{"type":"compaction_trigger"}` → the answer is one
//    `compaction` item alone; `context_management` [{"type":"compaction","compact_threshold":N}]
//    with the prompt at ≥ N tokens → a `compaction` item before the ordinary answer.
//  - Anthropic: `compaction` {"type":"summarize"} → one compaction block alone (stop_reason
//    `compaction`); a `compact_20260112` edit of `context_management` with the prompt at ≥ its
//    trigger (150 000 tokens when absent) → a compaction block, alone when
//    `pause_after_compaction` is true, else before the ordinary answer.
//  - Items: Responses {"type":"compaction","id":"cmp_<h12>","encrypted_content":"mockcmp_<h>"}
//    (opaque); Anthropic {"type":"compaction","content":<summary>,"encrypted_content":
//    "mockcmp_<h>"} with the summary `MOCK COMPACTION of <n> items.`.
// Pure; malformed fields are read as absent.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "protocol/json_value.h"

namespace agentctx {

struct MockCompactionPlan {
  bool compact = false;  ///< answer with a compaction item
  bool only = false;     ///< and nothing else
};

/// `body`: a normalised `responses` body; `prompt_tokens`: its prompt's size in tokens.
MockCompactionPlan PlanResponsesCompaction(const JsonValue& body, std::uint64_t prompt_tokens);
/// `body`: the Anthropic Messages body as sent.
MockCompactionPlan PlanAnthropicCompaction(const JsonValue& body, std::uint64_t prompt_tokens);
/// The compaction item for a body with hash `h` and `items` input items.
JsonValue MockCompactionItem(std::string_view h, bool anthropic, std::size_t items);

}  // namespace agentctx
