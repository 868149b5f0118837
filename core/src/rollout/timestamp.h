// SPDX-License-Identifier: MIT
// Rollout timestamps: `YYYY-MM-DDThh:mm:ss.mmmZ` in UTC from `now_ms`, and back
// (replay reads the times of real rollouts to measure the gaps between requests).
// Invariants: pure integer math (days ↔ civil date by Howard Hinnant's civil_from_days and
// days_from_civil), no clock, no locale; negative `now_ms` (before 1970) is formatted correctly,
// floor-divided.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace agentctx {

/// `now_ms` (milliseconds since the Unix epoch) as `YYYY-MM-DDThh:mm:ss.mmmZ`.
/// Years outside 0..9999 are written with as many digits as they need (and a `-` sign).
std::string FormatTimestamp(std::int64_t now_ms);

/// Milliseconds since the epoch of `YYYY-MM-DDThh:mm:ss[.f…]Z` (4-digit year; any number of
/// fraction digits, the first three used; `Z` required); nullopt for anything else, including
/// out-of-range fields. ParseTimestamp(FormatTimestamp(t)) == t for years 0..9999.
std::optional<std::int64_t> ParseTimestamp(std::string_view text);

}  // namespace agentctx
