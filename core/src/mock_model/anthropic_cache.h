// SPDX-License-Identifier: MIT
// Anthropic prompt-cache simulator for the mock model, beside the OpenAI-rule one
// (cache_simulator.h): Anthropic caches only at explicit `cache_control` breakpoints.
// Rules (Anthropic's documented behaviour, simplified and deterministic):
//  - A request is a list of blocks in cache order (tools, system, message content blocks).
//    The prefix through block i has identity H_i = SHA-1(H_{i−1} ‖ block bytes) and
//    T_i = ceil(bytes through block i / 4) tokens.
//  - Read: for each marked block b, the newest live entry among H_b, H_{b−1}, …, H_{b−19}
//    (the 20-block lookback) is a hit; cache_read = the largest hit's T (entries hit are
//    refreshed).
//  - Write: each marked block b with T_b ≥ the model's minimum (the planner's table,
//    DefaultMinCacheableTokens) is stored (or refreshed) with its TTL (5 min, or 1 h);
//    cache_creation = T_last − read for the last such mark beyond the read, else 0. input_tokens =
//    T_total − read − creation. Of the creation, the tokens up to the last 1 h mark written are 1 h
//    writes (1 h marks come before 5 min ones); the API reports them as
//    cache_creation.ephemeral_1h_input_tokens.
//  - Entries are per model; an entry is live iff now ≤ expires (expiry = use + TTL); expired
//    entries are purged on every lookup; at most kMaxEntries, the soonest to expire evicted.
// Pricing (for cost views): 5 min writes cost 1.25×, 1 h writes 2× and reads 0.1× the input
// price (CostHundredths).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "mock_model/provider_requests.h"

namespace agentctx {

struct AnthropicCacheUsage {
  std::uint64_t input_tokens = 0;                    ///< uncached input after the last breakpoint
  std::uint64_t cache_creation_input_tokens = 0;     ///< 1 h writes included
  std::uint64_t cache_creation_1h_input_tokens = 0;  ///< of the creation, under 1 h marks
  std::uint64_t cache_read_input_tokens = 0;
};

class AnthropicCacheSimulator {
 public:
  static constexpr std::size_t kLookbackBlocks = 20;
  static constexpr std::size_t kMaxEntries = 256;

  AnthropicCacheUsage Lookup(std::string_view model, const std::vector<AnthropicBlock>& blocks,
                             std::int64_t now_ms);
  std::size_t EntryCount() const { return entries_.size(); }

  /// The model's minimum cacheable prompt.
  static std::uint64_t MinimumTokens(std::string_view model);
  /// Input cost in hundredths of an input token's price: 100·input + 125·(5 min creation) +
  /// 200·(1 h creation) + 10·read.
  static std::uint64_t CostHundredths(const AnthropicCacheUsage& usage);

 private:
  struct Entry {
    std::int64_t expires_ms = 0;
  };
  std::map<std::string, Entry> entries_;  // key: model + NUL + H_i
};

}  // namespace agentctx
