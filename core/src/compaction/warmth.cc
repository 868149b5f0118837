// SPDX-License-Identifier: MIT
// Warmth-aware compaction; see warmth.h for the rule.
#include "compaction/warmth.h"

#include <string>

namespace agentctx {

std::uint64_t SoftLimitTokens(const CompactionThresholds& t, std::int64_t soft_limit_bp) {
  if (soft_limit_bp <= 0) return 0;
  return t.window * static_cast<std::uint64_t>(soft_limit_bp) / 10000;
}

std::optional<ColdCacheDecision> DecideColdCacheCompaction(
    std::optional<std::int64_t> previous_request_ms, std::int64_t now_ms,
    std::uint64_t context_tokens, const CompactionThresholds& thresholds,
    const WarmthPolicy& policy) {
  if (policy.cache_ttl_ms <= 0 || !previous_request_ms) return std::nullopt;
  const std::int64_t idle = now_ms - *previous_request_ms;
  if (idle <= policy.cache_ttl_ms) return std::nullopt;
  const std::uint64_t soft = SoftLimitTokens(thresholds, policy.soft_limit_bp);
  if (context_tokens < soft || LimitReached(context_tokens, thresholds)) return std::nullopt;
  return ColdCacheDecision{idle, policy.cache_ttl_ms, context_tokens, soft};
}

void AddColdCacheFields(const ColdCacheDecision& decision, JsonValue* event) {
  event->Set("reason", JsonValue::String(std::string(kCacheColdReason)));
  event->Set("idle_ms", JsonValue::Int(decision.idle_ms));
  event->Set("cache_ttl_ms", JsonValue::Int(decision.cache_ttl_ms));
  event->Set("context_tokens", JsonValue::Int(static_cast<std::int64_t>(decision.context_tokens)));
  event->Set("soft_limit_tokens",
             JsonValue::Int(static_cast<std::int64_t>(decision.soft_limit_tokens)));
}

}  // namespace agentctx
