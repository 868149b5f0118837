// SPDX-License-Identifier: MIT
// Cold prompt caches; see cold_cache.h.
#include "provider/cache/cold_cache.h"

#include <string>

namespace agentctx {

namespace {
constexpr std::int64_t kMinuteMs = 60000;
}  // namespace

std::int64_t PromptCacheTtlMs(CachePricing rule, std::string_view model, bool openai_breakpoints,
                              OpenAiCacheTtl openai_ttl, CacheTtl anthropic_ttl) {
  if (rule == CachePricing::kAnthropic) {
    return anthropic_ttl == CacheTtl::k1h ? 60 * kMinuteMs : 5 * kMinuteMs;
  }
  if (!OpenAiBillsCacheWrites(model)) return 5 * kMinuteMs;
  return openai_breakpoints && openai_ttl == OpenAiCacheTtl::k12h ? 12 * 60 * kMinuteMs
                                                                  : 30 * kMinuteMs;
}

std::optional<ColdCacheEstimate> EstimateColdCache(const ColdCacheInputs& in) {
  if (!in.last_request_ms || in.ttl_ms <= 0) return std::nullopt;
  const std::int64_t idle = in.now_ms - *in.last_request_ms;
  if (idle <= in.ttl_ms) return std::nullopt;
  const CachePrices p = PricesFor(in.rule, in.prices, OpenAiBillsCacheWrites(in.model));
  const std::uint64_t write =
      in.rule == CachePricing::kAnthropic && in.one_hour_writes ? p.write_1h : p.write_5m;
  ColdCacheEstimate e;
  e.idle_ms = idle;
  e.ttl_ms = in.ttl_ms;
  e.prompt_tokens = in.prompt_tokens;
  e.min_cacheable_tokens = MinCacheableTokensOf(in.rule, in.model);
  e.cold_picousd = in.prompt_tokens * write;
  e.warm_picousd = in.prompt_tokens * p.cached;
  e.reads_discounted = p.cached < p.input;
  return e;
}

bool PrewarmPays(const ColdCacheEstimate& e) {
  return e.reads_discounted && e.prompt_tokens >= e.min_cacheable_tokens;
}

JsonValue ColdCacheEvent(const ColdCacheEstimate& e, std::string_view trigger, bool prewarm) {
  JsonValue out = JsonValue::Object();
  out.Set("type", JsonValue::String("cache_cold"));
  out.Set("trigger", JsonValue::String(std::string(trigger)));
  out.Set("idle_ms", JsonValue::Int(e.idle_ms));
  out.Set("cache_ttl_ms", JsonValue::Int(e.ttl_ms));
  out.Set("prompt_tokens", JsonValue::Int(static_cast<std::int64_t>(e.prompt_tokens)));
  out.Set("cost_usd", UsdNumber(e.cold_picousd));
  out.Set("warm_cost_usd", UsdNumber(e.warm_picousd));
  out.Set("prewarm", JsonValue::Bool(prewarm));
  return out;
}

}  // namespace agentctx
