// SPDX-License-Identifier: MIT
// Warmth-aware compaction (ours; docs/compaction-timing.md): compact early when the provider's
// prompt cache has gone cold anyway, so the rewrite of the history costs nothing extra.
// Rule, checked at a turn start (pre-turn) after the hard limit, which wins:
//  1. enabled: cache_ttl_ms > 0, and the time of the previous model request is known;
//  2. cold: now − previous request > cache_ttl_ms (the provider keeps a prefix while
//     now − last_used ≤ ttl);
//  3. over the soft limit: context_tokens ≥ soft_limit = floor(window·soft_limit_bp/10000);
//  4. below the hard limit (LimitReached false; otherwise the ordinary pre_turn rule applies).
// All four → compact now, trigger `pre_turn`, reason `cache_cold`. Pure, integer arithmetic.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "compaction/token_accounting.h"
#include "protocol/json_value.h"

namespace agentctx {

inline constexpr std::int64_t kDefaultCacheTtlMs = 300000;  // the simulator's default TTL
inline constexpr std::int64_t kDefaultSoftLimitBp = 6000;
inline constexpr std::string_view kCacheColdReason = "cache_cold";

struct WarmthPolicy {
  std::int64_t cache_ttl_ms = kDefaultCacheTtlMs;  // 0 disables the rule
  std::int64_t soft_limit_bp = kDefaultSoftLimitBp;
};

/// Why a cold-cache compaction was decided (reported in the compaction events).
struct ColdCacheDecision {
  std::int64_t idle_ms = 0;  // now − previous request
  std::int64_t cache_ttl_ms = 0;
  std::uint64_t context_tokens = 0;
  std::uint64_t soft_limit_tokens = 0;
};

/// floor(window·soft_limit_bp/10000).
std::uint64_t SoftLimitTokens(const CompactionThresholds& t, std::int64_t soft_limit_bp);

/// Steps 1-4; nullopt when the rule does not fire.
std::optional<ColdCacheDecision> DecideColdCacheCompaction(
    std::optional<std::int64_t> previous_request_ms, std::int64_t now_ms,
    std::uint64_t context_tokens, const CompactionThresholds& thresholds,
    const WarmthPolicy& policy);

/// Adds `"reason":"cache_cold","idle_ms","cache_ttl_ms","context_tokens","soft_limit_tokens"`
/// to a `compaction` event.
void AddColdCacheFields(const ColdCacheDecision& decision, JsonValue* event);

}  // namespace agentctx
