// SPDX-License-Identifier: MIT
// Reading rollout timestamps back (ours; the inverse of FormatTimestamp, SPEC §13.1): resume
// uses the time of the newest request (warmth-aware compaction, issue 16).
// Accepts exactly `YYYY-MM-DDThh:mm:ss.mmmZ` (4-digit year, in range fields); anything else is
// none. Pure integer math (days_from_civil, the inverse of timestamp.cc's civil_from_days).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace agentctx {

/// Milliseconds since the Unix epoch, or none when `text` is not in the format above.
std::optional<std::int64_t> ParseTimestamp(std::string_view text);

}  // namespace agentctx
