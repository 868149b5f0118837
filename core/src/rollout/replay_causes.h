// SPDX-License-Identifier: MIT
// Replay: why each uncached input token was not cached, and what it cost. Pure
// integer math over the requests a replay reconstructed (replay.h) and their reported usage.
// Algorithm, per request k with usage (I = input, C = cached tokens, U = I − C), in order:
//  1. prev = the latest earlier request with usage; none → all of U is `new_input`.
//  2. raw = min(I_prev, I) — the tokens of the previous prompt an append-only client repeats;
//     ideal = raw below the provider's minimum (1024), else Cacheable(raw) (prompt_bytes.h);
//     lost = max(0, ideal − C); new_input = U − lost (appended tokens, the previous response's
//     output, and the sub-block remainder: never cacheable). So lost ≤ I_prev and
//     predicted ≤ ideal ≤ I: no impossible number.
//  3. A client-side change (the cache-explainer break of the reconstructed prompt:
//     provider_changed, model_changed, cache_key_changed, instructions_changed, tools_changed,
//     history_rewritten_by_compaction, item_edited) explains at most the tokens of the previous
//     prompt after the break: after = I_prev for a namespace change (IsNamespaceChange), else
//     I_prev · (|P_prev| − shared) / |P_prev|;
//     before = min(I_prev − after, I); expected = before below the minimum, else
//     Cacheable(before); client = min(lost, ideal − expected), or 0 below the minimum (nothing
//     was cacheable whatever the client sent; ideal and predicted then count repeated tokens);
//     predicted_cached_tokens = ideal − (ideal − expected) when there is a break, else ideal.
//     After provider_changed the new provider's cache held nothing of the session: ideal and
//     predicted are 0 (best possible 0) while the repeated tokens still count as lost, to it.
//  4. The rest of lost (lost − client) gets ProviderSideCause (provider/cache/miss_cause.h, the
//     rule shared with every reader of usage): `below_minimum` (raw < 1024: the previous prompt
//     was never stored), `idle_past_ttl` (gap = sent − previous done > ttl), `concurrent`
//     (gap < 0), `context_edited` (the session recorded that the provider cleared earlier tool
//     uses of this request: a `context_edit` line), `block_rounding` (at most one cache block,
//     128 tokens), else `server_miss` (more than a block of an intact prefix).
//  5. cause = the cause with the most lost tokens (ties: kReplayCauses order), `new_input`
//     when nothing was lost but some input was uncached, null when all was cached.
// Σ over causes (new_input included) = U for every request, hence for the summary.
// Costs: a token at price p (micro-USD per million) costs p picodollars, so sums are exact;
// JSON shows them in USD as exact decimals (UsdNumber). Per provider's pricing rule
// (provider/cache/cache_pricing.h): cached tokens at the rule's read price, every uncached token
// at the input price, plus, where the rule bills cache writes, the writes at their premium
// (cache_write − input each); the causes (tokens) are the same under every rule but for a cache
// that reads the whole prefix up to its marks (CachesWholePrefix).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "agentctx/wire_enums.h"
#include "protocol/json_value.h"
#include "provider/cache/cache_explainer.h"
#include "provider/cache/cache_pricing.h"
#include "rollout/replay.h"

namespace agentctx {

/// The causes in output order (ReplayCause, core/protocol.json); index 0 is new_input, then the
/// explainer's client-side reasons, then the provider-side causes.
inline constexpr std::array<std::string_view, WireTable<ReplayCause>::kValues.size()>
    kReplayCauses = WireTable<ReplayCause>::kValues;

/// The provider's cacheable minimum: a prompt under 1024 tokens is never cached.
inline constexpr std::uint64_t kMinCacheableTokens = 1024;

struct ReplayUsage {
  std::uint64_t input = 0;
  std::uint64_t cached = 0;
  std::uint64_t output = 0;
  std::uint64_t reasoning = 0;
  std::uint64_t cache_write = 0;     ///< cache writes, where billed (part of input)
  std::uint64_t cache_write_1h = 0;  ///< of the writes, the 1 h ones (agentctx ≥ 0.1 records them)
};

/// The cache rule and prices a replay applies (ReplayOptions::provider, resolved).
struct ReplayPricing {
  CachePricing rule = CachePricing::kOpenAi;
  CachePrices prices;         ///< PricesFor(rule, options.prices)
  bool bills_writes = false;  ///< the writes are reported and priced (Anthropic, OpenAI GPT-5.6+)
};

/// The options' provider's rule, or — unset — when the usage reports writes: OpenAI's when the
/// rollout's model bills writes at OpenAI (`openai_write_model`: a GPT-5.6+ slug), else
/// kWriteBillingPricing.
ReplayPricing ResolveReplayPricing(const ReplayOptions& options, bool usage_reports_cache_writes,
                                   bool openai_write_model = false);

/// One request of the replay: reconstructed before a run of model output, or usage-only.
struct ReplayRequest {
  std::string request_id;
  bool reconstructed = true;
  std::uint64_t line = 0;
  std::string model;
  std::optional<std::int64_t> sent_ms;  ///< time of the last input line before it
  std::optional<std::int64_t> done_ms;  ///< time of its usage line (or last output item)
  std::uint64_t input_items = 0;
  CacheReport report;              ///< cache-explainer metrics (reconstructed only)
  bool compaction_before = false;  ///< a `compacted` line since the previous reconstructed one
  std::optional<ReplayUsage> usage;
  /// The provider's cache verdict the session recorded (`cache_diagnosis` line), when it asked.
  std::optional<JsonValue> provider_diagnosis;
  /// The provider edited this request's prompt (a recorded `context_edit` line).
  bool context_edited = false;

  // Filled by AttributeCauses.
  std::optional<std::int64_t> gap_ms;
  std::uint64_t new_input = 0;
  std::uint64_t lost = 0;
  std::uint64_t client_lost = 0;
  std::array<std::uint64_t, kReplayCauses.size()> by_cause{};
  std::optional<std::size_t> cause;  ///< index into kReplayCauses
  std::optional<std::uint64_t> predicted_tokens;
  std::optional<std::uint64_t> ideal_tokens;
};

/// Facts of the pass that the summary reports beside the per-request sums.
struct ReplayFacts {
  std::uint64_t compactions = 0;
  std::uint64_t unrebuilt_compactions = 0;
  std::string usage_source;  ///< token_usage_record | token_count | none
  std::uint64_t repeated_usage_lines = 0;
  std::optional<ReplayUsage> rollout_total;  ///< the last total_token_usage, if any
};

/// Steps 1–5 above for every request with usage. Under a rule that caches the whole prefix a
/// repeated prefix is cacheable whole (no 128-token steps: Cacheable(t) = t) and the minimum is
/// the model's (MinCacheableTokensOf).
void AttributeCauses(const ReplayOptions& options, CachePricing rule,
                     std::vector<ReplayRequest>* requests);

/// {"request_id","line","time","model","reconstructed","after_compaction","input_items",
///  "prompt_bytes",
///  "prompt_tokens","shared_prefix_bytes","reuse_bp","max_reuse_bp","predicted_cached_tokens",
///  "ideal_cached_tokens","break","input_tokens","cached_input_tokens","output_tokens",
///  "uncached_input_tokens","new_input_tokens","lost_tokens","cause","cause_section",
///  "lost_tokens_by_cause","gap_ms","cost_usd","lost_cost_usd"} — prompt fields null for a
/// usage-only request; cost_usd = the request's cached, uncached and output tokens at their
/// prices, lost_cost_usd = its lost tokens at the uncached price;
/// usage fields null without usage; predicted/ideal in tokens of the provider when usage is
/// known (else the explainer's byte estimates); `break.lost_tokens` = the client-side share.
/// Under a rule that bills writes, "cache_write_input_tokens" follows "cached_input_tokens" (null
/// without usage), and cost_usd adds the cache-write premium.
JsonValue ReplayRequestJson(const ReplayRequest& request, const ReplayPricing& pricing);

/// {"requests","reconstructed_requests","usage_only_requests","prompt_bytes",
///  "shared_prefix_bytes","max_shared_prefix_bytes","predicted_cached_tokens",
///  "ideal_cached_tokens","reuse_bp","max_reuse_bp","breaks":{reason:{count,lost_tokens}},
///  "compactions","unrebuilt_compactions","usage_source","repeated_usage_lines",
///  "requests_with_usage","input_tokens","cached_input_tokens","output_tokens",
///  "reasoning_output_tokens","reported_cached_bp","uncached_input_tokens","new_input_tokens",
///  "lost_tokens","lost_tokens_by_cause":{cause:tokens},"rollout_total_token_usage":null|{…},
///  "usage_matches_rollout_total":null|bool,"ttl_ms","prices_per_million_usd":{"input",
///  "cached_input","output"},"cost":{"cached_input_usd",
///  "uncached_input_usd","output_usd","total_usd","by_cause_usd":{cause:usd},
///  "lost_extra_usd"}}: by_cause_usd prices each cause's tokens as uncached input (so it adds
///  up to uncached_input_usd); lost_extra_usd = lost tokens · (input − cached price), what the
///  misses cost beyond the cached price.
/// Token sums are over requests with usage (usage-only ones included); prompt sums over
/// reconstructed requests; lost_tokens_by_cause lists the causes with tokens, in
/// kReplayCauses order, and adds up to uncached_input_tokens.
/// Under a rule that bills writes (other output unchanged): "cache_write_input_tokens" after
/// "cached_input_tokens"; "pricing":<the rule's name> before the prices; the prices' cached_input
/// is the read price, "cache_write" follows it; the cost adds "cache_write_extra_usd" after
/// uncached_input_usd (the writes' premium over the input price, which uncached_input_usd
/// already counts them at) and total_usd includes it.
JsonValue ReplaySummaryJson(const std::vector<ReplayRequest>& requests, const ReplayFacts& facts,
                            const ReplayOptions& options, const ReplayPricing& pricing);

}  // namespace agentctx
