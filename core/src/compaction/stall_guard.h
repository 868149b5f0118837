// SPDX-License-Identifier: MIT
// The compaction stall guard (ours) and the fixed compaction warning texts.
// tokens_before / tokens_after are estimate_prompt (token_accounting.h) before and after a
// compaction (after includes reinjected context); freed_bp = floor(10000·(before − after)/before)
// (signed: a compaction that grew the prompt gives a negative value; before 0 → 0).
// freed_bp < 500 → stalled: automatic compaction pauses, warning `compaction_stalled`.
// Cleared by a manual compaction freeing ≥ 5 %, a model change or resume (the session's job).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace agentctx {

/// Below this many basis points freed, a compaction is stalled.
inline constexpr std::int64_t kStallThresholdBp = 500;

/// The `long_thread` warning after every compaction (upstream text).
inline constexpr std::string_view kLongThreadMessage =
    "Heads up: Long threads and multiple compactions can cause the model to be less accurate. "
    "Start a new thread when possible to keep threads small and targeted.";

/// floor(10000·(before − after)/before), 0 when before is 0.
std::int64_t FreedBp(std::uint64_t tokens_before, std::uint64_t tokens_after);

/// freed_bp < 500.
inline bool IsStalled(std::int64_t freed_bp) { return freed_bp < kStallThresholdBp; }

/// `bp / 100` with two decimals, integer arithmetic: 400 → "4.00", 1234 → "12.34", -50 → "-0.50".
std::string FormatBpAsPercent(std::int64_t bp);

/// `Compaction freed only <p>% of the context (<before> → <after> tokens); automatic compaction
/// is paused.`
std::string CompactionStalledMessage(std::int64_t freed_bp, std::uint64_t tokens_before,
                                     std::uint64_t tokens_after);

}  // namespace agentctx
