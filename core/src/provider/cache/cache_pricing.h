// SPDX-License-Identifier: MIT
// Prompt-cache pricing per provider: what a request's tokens cost under its
// provider's cache prices, in exact integers. Shared by the cache explainer's summary
// (cache_explainer.h) and the replay (rollout/replay.h).
// Units: a price is micro-USD per million tokens, which is picodollars (10⁻¹² USD) per token, so
// a cost is tokens × price picodollars: sums are exact; UsdNumber prints them as exact decimals.
// Rules (CachePricingFor):
//  - OpenAI (providers responses, chat): uncached input at `input`, cached input at
//    `cached_input`; cache writes (reported by GPT-5.6 and later, `cache_write_tokens`) at
//    `cache_write` when given, else by the model (OpenAiBillsCacheWrites): 1.25 × input for
//    GPT-5.6 and later, `input` (no premium) for older models.
//  - Anthropic (provider anthropic): reads at 0.1 × input, writes at 1.25 × input (5-minute
//    TTL) or 2 × input (1-hour TTL), the rest at `input` — Anthropic's published multipliers.
//    A `cached_input` or `cache_write` the user gave explicitly replaces the multiplier. Derived
//    prices are floored to whole micro-USD per million: exact for every price with at most four
//    decimals (USD per million), which covers every published price.
// Invariants: pure; integer math only; every part of a cost is non-negative (token counts are
// clamped: cached ≤ input, writes ≤ input − cached, 1-hour writes ≤ writes).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "agentctx/result.h"
#include "agentctx/wire_enums.h"
#include "protocol/json_value.h"

namespace agentctx {

enum class CachePricing { kOpenAi, kAnthropic };

/// Anthropic's default cache TTL; a mark (breakpoint) with a longer TTL is a 1 h mark, whose
/// writes are priced at the 1 h rate.
inline constexpr std::int64_t kAnthropicFiveMinuteTtlMs = 300000;

/// "openai" | "anthropic".
std::string_view CachePricingName(CachePricing pricing);
/// The rule of a provider: anthropic → kAnthropic, responses and chat → kOpenAi.
CachePricing CachePricingFor(Provider provider);
/// The rule of rollouts whose usage reports cache writes: only a provider that bills writes
/// reports them (Anthropic's), so a replay without a provider takes this rule for them.
inline constexpr CachePricing kWriteBillingPricing = CachePricing::kAnthropic;
/// True when the rule's cache reads the whole repeated prefix up to a mark (no 128-token
/// blocks: Anthropic's), false for OpenAI's blocks of 128 tokens from 1 024.
bool CachesWholePrefix(CachePricing rule);
/// True when the rule bills cache writes at a premium (they appear in its reports and costs).
bool BillsCacheWrites(CachePricing rule);
/// The smallest prompt the rule's provider caches for `model` (OpenAI: 1 024 tokens).
std::uint64_t MinCacheableTokensOf(CachePricing rule, std::string_view model);
/// The provider's name as a report prints it: "OpenAI" or "Anthropic".
std::string_view CachePricingLabel(CachePricing rule);

/// Prices as a user gives them, micro-USD per million tokens. Defaults are example prices (the
/// playground's). `cached_input` applies as given to the OpenAI rule; the Anthropic rule uses it
/// only when `cached_input_given` (else 0.1 × input).
struct TypedPrices {
  std::uint64_t input = 1250000;        ///< uncached input
  std::uint64_t cached_input = 125000;  ///< cached input (a cache read)
  std::uint64_t output = 10000000;
  std::optional<std::uint64_t> cache_write;  ///< unset: the rule's (input, or 1.25 × input)
  bool cached_input_given = false;
};

/// Per-token prices of one rule, picodollars each.
struct CachePrices {
  std::uint64_t input = 0;
  std::uint64_t cached = 0;
  std::uint64_t write_5m = 0;
  std::uint64_t write_1h = 0;
  std::uint64_t output = 0;
};

/// True for the OpenAI models that bill cache writes at a premium (GPT-5.6 and later, the
/// models that cache at breakpoints); `prices.cache_write` overrides the premium either way.
bool OpenAiBillsCacheWrites(std::string_view model);
/// The prices `rule` charges for `typed` (see the rules above); `openai_write_premium`: the
/// OpenAI rule's requests are of a model that bills writes.
CachePrices PricesFor(CachePricing rule, const TypedPrices& typed,
                      bool openai_write_premium = false);

/// A request's tokens: `input` counts every input token, cached and written ones included.
struct CacheTokens {
  std::uint64_t input = 0;
  std::uint64_t cached = 0;    ///< read from the cache
  std::uint64_t write = 0;     ///< written to the cache (Anthropic), 1-hour writes included
  std::uint64_t write_1h = 0;  ///< of `write`, under 1-hour marks
  std::uint64_t output = 0;
};

/// Picodollars of the input: (input − cached − write)·input + cached·cached +
/// (write − write_1h)·write_5m + write_1h·write_1h.
std::uint64_t InputCostPicoUsd(const CacheTokens& tokens, const CachePrices& prices);

/// `picousd` (10⁻¹² USD) as an exact decimal JSON number, e.g. 4961234125000 → 4.961234125.
JsonValue UsdNumber(std::uint64_t picousd);
/// A price (micro-USD per million) as USD per million, e.g. 1250000 → 1.25.
JsonValue UsdPerMillion(std::uint64_t micros);

/// Reads `prices` {input, cached_input, cache_write, output} — USD per million tokens, decimal
/// numbers ≥ 0 with at most 6 fraction digits — over `out` (absent keys keep it). `context`
/// names the method in errors ("rollout.inspect"). A `cache_write` under the input price is
/// refused (a write costs the input price plus a premium). Errors: kInvalidInput naming the key.
Result<void> ReadTypedPrices(const JsonValue& prices, std::string_view context, TypedPrices* out);

}  // namespace agentctx
