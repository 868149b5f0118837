// SPDX-License-Identifier: MIT
// Tool output truncation, applied on record to every tool output.
// Invariants: budget = ceil(limit × 1.2) bytes (bytes mode) or ceil(limit × 1.2) tokens =
// ×4 bytes (tokens mode), in integer arithmetic and saturating; text within budget is
// unchanged; longer text is middle-cut by TruncateMiddle (support/truncate.h).
// Part arrays: walk `input_text` parts with a running budget (bytes, or tokens with a part
// costing ceil(bytes/4)); a part that fits is kept whole; the crossing part is middle-cut to
// the remaining budget; once the budget is 0 later text parts are dropped and counted, and
// `[omitted <n> text items ...]` is appended as a last `input_text`; images are always kept.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "protocol/json_value.h"
#include "support/truncate.h"

namespace agentctx {

/// `model.truncation` (docs/config.md), default `{"mode":"bytes","limit":10000}`.
struct TruncationPolicy {
  TruncationMode mode = TruncationMode::kBytes;
  std::uint64_t limit = 10000;
};

/// ceil(limit × 1.2) in the policy's unit (bytes or tokens).
std::uint64_t TruncationBudget(const TruncationPolicy& policy);
/// The budget in bytes (tokens × 4 in tokens mode).
std::uint64_t TruncationBudgetBytes(const TruncationPolicy& policy);

/// A text output truncated under `policy`.
std::string TruncateToolText(std::string_view text, const TruncationPolicy& policy);

/// A tool output (string, or `input_text`/`input_image` parts array) truncated under `policy`;
/// other JSON kinds are returned unchanged.
JsonValue TruncateToolOutput(const JsonValue& output, const TruncationPolicy& policy);

}  // namespace agentctx
