// SPDX-License-Identifier: MIT
// Rollout timestamps (SPEC §13.1): `YYYY-MM-DDThh:mm:ss.mmmZ` in UTC from `now_ms`.
// Invariants: pure integer math (days → civil date by Howard Hinnant's civil_from_days), no
// clock, no locale; negative `now_ms` (before 1970) is formatted correctly, floor-divided.
#pragma once

#include <cstdint>
#include <string>

namespace agentctx {

/// `now_ms` (milliseconds since the Unix epoch) as `YYYY-MM-DDThh:mm:ss.mmmZ`.
/// Years outside 0..9999 are written with as many digits as they need (and a `-` sign).
std::string FormatTimestamp(std::int64_t now_ms);

}  // namespace agentctx
