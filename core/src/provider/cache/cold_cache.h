// SPDX-License-Identifier: MIT
// Cold prompt caches (docs/providers.md, "Cold resume"): whether the provider's cache has
// expired since the last request, what the next request costs cold and warm, and whether a
// prewarm request goes first.
// Rules:
//  - TTL (PromptCacheTtlMs): OpenAI GPT-5.6 and later keep a prefix 30 min (12 h with
//    `openai.cache_ttl` 12h under cache_breakpoints); older OpenAI models 5 min (the lower end of
//    their 5-10 min in-memory retention); Anthropic 5 min, 1 h when the stable marks use 1 h.
//  - Cold: the time of the last request is known and now − last > TTL.
//  - Costs of the prompt's P tokens, input only: cold = P at the write price (the rule's write
//    price: 1.25× input for GPT-5.6+ and Anthropic 5 m, 2× for Anthropic 1 h, input for older
//    OpenAI models, which do not bill writes); warm = P at the read price. A prewarm costs what
//    the cold request would (it writes P), then the real request pays the warm cost.
//  - Prewarm (PrewarmPays): a prewarm never lowers the bill — prewarm + warm request = cold
//    request + one read of P — so it is sent only where that premium buys something: the cache is
//    cold, the prompt reaches the provider's minimum cacheable prefix (a smaller one is never
//    written: a prewarm would be pure cost) and reads are cheaper than uncached input (else the
//    real request gains nothing from the warm cache).
// Invariants: pure; integer arithmetic (picodollars, cache_pricing.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "agentctx/wire_enums.h"
#include "protocol/json_value.h"
#include "provider/cache/cache_pricing.h"

namespace agentctx {

/// The provider's cache TTL for `model`: `openai_ttl` applies to GPT-5.6+ when
/// `openai_breakpoints` (feature cache_breakpoints) is on; `anthropic_ttl` is the stable marks'.
std::int64_t PromptCacheTtlMs(CachePricing rule, std::string_view model, bool openai_breakpoints,
                              OpenAiCacheTtl openai_ttl, CacheTtl anthropic_ttl);

struct ColdCacheInputs {
  std::optional<std::int64_t> last_request_ms;  ///< unknown: never cold
  std::int64_t now_ms = 0;
  std::int64_t ttl_ms = 0;
  std::uint64_t prompt_tokens = 0;
  CachePricing rule = CachePricing::kOpenAi;
  std::string_view model;
  bool one_hour_writes = false;  ///< Anthropic stable marks of 1 h
  TypedPrices prices;
};

struct ColdCacheEstimate {
  std::int64_t idle_ms = 0;
  std::int64_t ttl_ms = 0;
  std::uint64_t prompt_tokens = 0;
  std::uint64_t min_cacheable_tokens = 0;
  std::uint64_t cold_picousd = 0;
  std::uint64_t warm_picousd = 0;
  bool reads_discounted = false;  ///< read price < uncached input price
};

/// The estimate when the cache is cold, nullopt when it is warm or the last request is unknown.
std::optional<ColdCacheEstimate> EstimateColdCache(const ColdCacheInputs& in);

/// The prewarm rule above (the feature and `prewarm: auto` are the caller's to check).
bool PrewarmPays(const ColdCacheEstimate& e);

/// The `cache_cold` event: {type, trigger, idle_ms, cache_ttl_ms, prompt_tokens, cost_usd,
/// warm_cost_usd, prewarm}.
JsonValue ColdCacheEvent(const ColdCacheEstimate& e, std::string_view trigger, bool prewarm);

}  // namespace agentctx
