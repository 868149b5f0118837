// SPDX-License-Identifier: MIT
// AnthropicCacheSimulator; see anthropic_cache.h.
#include "mock_model/anthropic_cache.h"

#include <algorithm>
#include <iterator>

#include "prompt/prompt_bytes.h"
#include "provider/anthropic/breakpoint_planner.h"
#include "provider/cache/cache_pricing.h"
#include "support/sha1.h"

namespace agentctx {

std::uint64_t AnthropicCacheSimulator::MinimumTokens(std::string_view model) {
  return DefaultMinCacheableTokens(model);  // the planner's table: client and server agree
}

std::uint64_t AnthropicCacheSimulator::CostHundredths(const AnthropicCacheUsage& usage) {
  const std::uint64_t one_hour =
      std::min(usage.cache_creation_1h_input_tokens, usage.cache_creation_input_tokens);
  return 100 * usage.input_tokens + 125 * (usage.cache_creation_input_tokens - one_hour) +
         200 * one_hour + 10 * usage.cache_read_input_tokens;
}

AnthropicCacheUsage AnthropicCacheSimulator::Lookup(std::string_view model,
                                                    const std::vector<AnthropicBlock>& blocks,
                                                    std::int64_t now_ms) {
  for (auto it = entries_.begin(); it != entries_.end();) {
    it = now_ms > it->second.expires_ms ? entries_.erase(it) : std::next(it);
  }
  std::vector<std::string> keys;
  std::vector<std::uint64_t> tokens;
  std::string hash;
  std::uint64_t bytes = 0;
  for (const AnthropicBlock& block : blocks) {
    hash = Sha1Hex(hash + block.bytes);
    bytes += block.bytes.size();
    keys.push_back(std::string(model) + '\0' + hash);
    tokens.push_back(TokensForBytes(bytes));
  }
  AnthropicCacheUsage usage;
  const std::uint64_t total = tokens.empty() ? 0 : tokens.back();
  std::uint64_t read = 0;
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    if (!blocks[b].marked) continue;
    for (std::size_t k = 0; k < kLookbackBlocks && k <= b; ++k) {
      auto hit = entries_.find(keys[b - k]);
      if (hit == entries_.end()) continue;
      if (tokens[b - k] > read) read = tokens[b - k];
      hit->second.expires_ms = std::max(hit->second.expires_ms, now_ms + blocks[b].ttl_ms);
      break;
    }
  }
  const std::uint64_t minimum = MinimumTokens(model);
  std::uint64_t written_to = 0, written_to_1h = 0;
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    if (!blocks[b].marked || tokens[b] < minimum) continue;
    Entry& e = entries_[keys[b]];
    e.expires_ms = std::max(e.expires_ms, now_ms + blocks[b].ttl_ms);
    written_to = tokens[b];
    if (blocks[b].ttl_ms > kAnthropicFiveMinuteTtlMs) written_to_1h = tokens[b];
  }
  while (entries_.size() > kMaxEntries) {
    auto soonest = entries_.begin();
    for (auto it = entries_.begin(); it != entries_.end(); ++it) {
      if (it->second.expires_ms < soonest->second.expires_ms) soonest = it;
    }
    entries_.erase(soonest);
  }
  usage.cache_read_input_tokens = read;
  usage.cache_creation_input_tokens = written_to > read ? written_to - read : 0;
  usage.cache_creation_1h_input_tokens = written_to_1h > read ? written_to_1h - read : 0;
  usage.input_tokens = total - read - usage.cache_creation_input_tokens;
  return usage;
}

}  // namespace agentctx
