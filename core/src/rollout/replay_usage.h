// SPDX-License-Identifier: MIT
// Replay: the provider's usage, one event per response. Pure.
// Algorithm:
//  1. Source: `token_usage_record` lines when the rollout has any (Codex ≥ 0.15x writes one per
//     response), else `event_msg` `token_count` events. Never both, so nothing counts twice.
//  2. token_usage_record: `payload.usage` (or the line's own `usage` when it has no payload);
//     a record of another thread (`thread_id` ≠ the session id, e.g. a fork's copied parent
//     history) or with a response id already seen is skipped. The last `thread_token_usage` is
//     the rollout's own total.
//  3. token_count: events with `info: null` carry rate limits only. With
//     `info.total_token_usage`, an event whose total equals the previous total is a repeat
//     (Codex re-sends the last usage with every rate-limit update) and is skipped; otherwise the
//     event's usage is `info.last_token_usage` (or the growth of the total when it is absent),
//     cross-checked against that growth: a disagreement warns `usage_total_mismatch` once (a
//     total that shrinks is a reset, not a disagreement). Without a total (agentctx rollouts)
//     every event is one response. The last total is the rollout's own total.
// Usage objects may carry `cache_creation_input_tokens` (cache writes, where billed) and
// `cache_creation_1h_input_tokens` (those of them written for 1 h).
// Invariants: counts are uint64; negative or missing counts read as 0.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/warning.h"
#include "rollout/replay_causes.h"
#include "rollout/rollout_reader.h"

namespace agentctx {

class UsageReader {
 public:
  /// Step 1: `usage_records` = the rollout has a token_usage_record line (HasUsageRecords).
  explicit UsageReader(bool usage_records) : records_(usage_records) {}

  /// Whether `rollout_text` has a `token_usage_record` line (only the lines that mention it are
  /// parsed).
  static bool HasUsageRecords(std::string_view rollout_text);

  /// The usage of one response if `record` reports a new one (steps 2–3), else nullopt.
  /// `session_id` filters records of other threads ("" = unknown: no filter).
  std::optional<ReplayUsage> Read(const RolloutRecord& record, std::string_view session_id);

  /// token_usage_record | token_count | none (no usage at all).
  std::string_view source() const;
  /// Lines skipped as repeats of a usage already counted.
  std::uint64_t repeated() const { return repeated_; }
  /// The rollout's own running total at its last usage line, if that line records one.
  const std::optional<ReplayUsage>& rollout_total() const { return total_; }
  /// Whether a usage read so far reports cache writes (`cache_creation_input_tokens`, even 0):
  /// the usage of a provider that bills writes, as agentctx records it.
  bool reports_cache_writes() const { return cache_writes_; }
  /// usage_total_mismatch (at most one).
  const std::vector<Warning>& warnings() const { return warnings_; }

 private:
  bool records_ = false;
  bool any_ = false;
  bool cache_writes_ = false;
  std::uint64_t repeated_ = 0;
  std::uint64_t mismatches_ = 0;
  std::optional<ReplayUsage> total_;
  std::set<std::string, std::less<>> response_ids_;
  std::vector<Warning> warnings_;
};

}  // namespace agentctx
