// SPDX-License-Identifier: MIT
// Cache-miss causes; see miss_cause.h.
#include "provider/cache/miss_cause.h"

namespace agentctx {

std::uint64_t CacheBlockTokens(CachePricing) { return 128; }

bool IsNamespaceChange(std::string_view reason) {
  return reason == "provider_changed" || reason == "model_changed" || reason == "cache_key_changed";
}

ReplayCause ProviderSideCause(const UnexplainedMiss& miss) {
  if (miss.below_minimum) return ReplayCause::kBelowMinimum;
  if (miss.gap_ms && *miss.gap_ms > miss.ttl_ms) return ReplayCause::kIdlePastTtl;
  if (miss.gap_ms && *miss.gap_ms < 0) return ReplayCause::kConcurrent;
  if (miss.context_edited) return ReplayCause::kContextEdited;
  if (miss.tokens <= miss.block_tokens) return ReplayCause::kBlockRounding;
  return ReplayCause::kServerMiss;
}

}  // namespace agentctx
