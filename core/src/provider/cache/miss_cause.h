// SPDX-License-Identifier: MIT
// The cause of a cache miss, by one rule for every reader of provider usage (the replay,
// rollout/replay_causes.h, and the tests that hold live reports and replays to the same story;
// docs/replay.md, "Every uncached token has a cause").
// A miss is the part of the previous prompt (tokens the request repeated) that the provider did
// not serve. Its client-side share is named by the cache explainer's break (cache_explainer.h:
// provider_changed, model_changed, cache_key_changed, … — IsNamespaceChange says which of those
// leave nothing of the previous prompt readable). The rest, which no client change explains,
// gets the first of:
//   below_minimum   the repeated prompt is under the provider's cacheable minimum;
//   idle_past_ttl   sent longer than the cache TTL after the previous response finished;
//   concurrent      sent before the previous response finished;
//   context_edited  the provider edited this request's prompt before reading its cache;
//   block_rounding  at most one cache block (CacheBlockTokens): the provider caches whole
//                   blocks (OpenAI: 128 tokens from 1 024 on) and reads up to the previous
//                   request's breakpoints (Anthropic), while a request never repeats the very
//                   end of the previous prompt (the tokens that opened the model's answer), so
//                   the last block is lost whenever that end crosses a block boundary;
//   server_miss     more than one block of an intact prefix: the provider missed a prefix it
//                   should have had (routing, eviction).
// Invariants: pure integer logic; no I/O.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "agentctx/wire_enums.h"
#include "provider/cache/cache_pricing.h"

namespace agentctx {

/// The provider's cache granularity under `rule`, in tokens: one block (128 for both rules;
/// Anthropic's marks end where the previous request's last block ends, and its prompt's closing
/// tokens after that mark are of the same order).
std::uint64_t CacheBlockTokens(CachePricing rule);

/// True for the break reasons after which nothing of the previous prompt is readable: another
/// provider, model or prompt_cache_key (a separate cache or namespace).
bool IsNamespaceChange(std::string_view break_reason);

/// What is known of the part of a miss that no client-side change explains.
struct UnexplainedMiss {
  std::uint64_t tokens = 0;            ///< the tokens lost beyond the client-side share
  bool below_minimum = false;          ///< the repeated prompt is under the provider's minimum
  std::optional<std::int64_t> gap_ms;  ///< sent − the previous response's end, when known
  std::int64_t ttl_ms = 300000;        ///< the provider's cache TTL
  bool context_edited = false;         ///< the provider edited the prompt before reading its cache
  std::uint64_t block_tokens = 128;    ///< CacheBlockTokens of the provider's rule
};

/// The cause of `miss` by the rule above (never a client-side reason).
ReplayCause ProviderSideCause(const UnexplainedMiss& miss);

}  // namespace agentctx
