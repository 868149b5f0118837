// SPDX-License-Identifier: MIT
// PrefixTotals: the prefix-reuse totals of a run of explained requests — how many, their prompt
// bytes, the bytes shared with their predecessors, reuse in basis points and the breaks by
// reason. One writer for every summary that reports them: the session's cache_summary
// (CacheExplainer::Summary) and the rollout replay's summary.
// Invariants: sums are uint64; reuse_bp = floor(10000·Σshared/Σ|P|), max_reuse_bp =
// floor(10000·Σmin(max_shared,|P|)/Σ|P|); breaks are keyed by reason, sorted.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "protocol/json_value.h"

namespace agentctx {

struct CacheReport;

class PrefixTotals {
 public:
  /// Adds one explained request; its break (if any) counts `lost_tokens`.
  void Add(const CacheReport& report, std::uint64_t lost_tokens);
  /// Counts a break known only after the request (a provider-side context edit) under `reason`.
  void AddBreak(std::string_view reason, std::uint64_t lost_tokens);
  std::uint64_t requests() const { return requests_; }
  /// Sets "prompt_bytes", "shared_prefix_bytes", "max_shared_prefix_bytes" on `out`.
  void WriteBytes(JsonValue* out) const;
  /// Sets "reuse_bp", "max_reuse_bp", then "breaks":{reason:{"count","lost_tokens"}} on `out`.
  void WriteReuseAndBreaks(JsonValue* out) const;

 private:
  struct BreakTotals {
    std::uint64_t count = 0;
    std::uint64_t lost_tokens = 0;
  };
  std::uint64_t requests_ = 0;
  std::uint64_t prompt_bytes_ = 0;
  std::uint64_t shared_ = 0;
  std::uint64_t max_shared_ = 0;
  std::uint64_t max_shared_clamped_ = 0;
  std::map<std::string, BreakTotals, std::less<>> breaks_;
};

}  // namespace agentctx
