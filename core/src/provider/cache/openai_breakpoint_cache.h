// SPDX-License-Identifier: MIT
// OpenAI's prompt cache at breakpoints (GPT-5.6 and later; docs/providers.md), as one state
// machine shared by the mock provider's simulator (mock_model/responses_cache.h) and the
// explainer's prediction (cache_explainer.h): the two derive its inputs independently — the mock
// from the body bytes, the engine from its own plan — and meet in the numbers.
// Input per request: for each input item i, the identity of the prompt prefix through item i
// (instructions, tools, items 0…i without breakpoint marks, seeded by the cache namespace: model,
// prompt_cache_key and the settings that key the cache) and its tokens; the items this request
// places a breakpoint at (explicit marks plus, in mode implicit, the implicit one); the TTL.
// Rules (Run):
//  1. Expired entries (now > expires) are dropped.
//  2. Lookup: walk the items from the newest back; an item is a breakpoint of the conversation
//     when this request places one there or a live entry holds its prefix (an earlier request
//     wrote it). Only the latest `lookup_depth` such breakpoints are examined; the newest of them
//     with a live entry is read: read = its prefix tokens, exactly (no 128-token rounding). The
//     entry's expiry is refreshed (max of its own and now + TTL).
//  3. Writes: this request's breakpoints whose prefix is already cached are refreshed; of the
//     others, those of at least kOpenAiMinPrefixTokens tokens are written, the newest
//     kOpenAiMaxWritesPerRequest of them. written = the longest written prefix's tokens − read
//     (0 when it is not beyond the read): the tokens the provider processed into the cache past
//     what it read, so read + written ≤ the prompt's tokens.
//  4. At most max_entries entries: the one expiring first (then the shortest, then the oldest
//     written) is evicted.
// Invariants: pure state machine (time from the caller); deterministic; bounded memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string_view>
#include <vector>

namespace agentctx {

/// How many of the conversation's latest breakpoints a lookup considers: 80 in openai@7's
/// documentation of `prompt_cache_options` (it has changed between versions: a parameter).
inline constexpr std::size_t kOpenAiLookupDepth = 80;
inline constexpr std::uint64_t kOpenAiMinPrefixTokens = 1024;
inline constexpr std::size_t kOpenAiMaxWritesPerRequest = 4;
inline constexpr std::int64_t kOpenAiTtl30mMs = 30 * 60 * 1000;
inline constexpr std::int64_t kOpenAiTtl12hMs = 12 * 60 * 60 * 1000;

/// Continues the prefix identity `seed` over `bytes` (64-bit FNV-1a; a collision would only
/// overstate a read).
std::uint64_t ChainHash(std::uint64_t seed, std::string_view bytes);

struct BreakpointCacheRequest {
  std::vector<std::uint64_t> prefix_ids;     ///< [i]: the prefix through item i
  std::vector<std::uint64_t> prefix_tokens;  ///< [i]: its tokens
  std::vector<std::size_t> breakpoints;      ///< item indices, ascending, unique
  std::int64_t ttl_ms = kOpenAiTtl30mMs;
};

struct BreakpointCacheResult {
  std::uint64_t read = 0;
  std::uint64_t written = 0;  ///< beyond the read (rule 3)
};

class OpenAiBreakpointCache {
 public:
  explicit OpenAiBreakpointCache(std::size_t lookup_depth = kOpenAiLookupDepth,
                                 std::size_t max_entries = 256)
      : lookup_depth_(lookup_depth), max_entries_(max_entries) {}

  BreakpointCacheResult Run(const BreakpointCacheRequest& request, std::int64_t now_ms);
  std::size_t EntryCount() const { return entries_.size(); }
  std::size_t lookup_depth() const { return lookup_depth_; }

 private:
  struct Entry {
    std::int64_t expires_ms = 0;
    std::uint64_t tokens = 0;
    std::uint64_t seq = 0;
  };
  std::size_t lookup_depth_;
  std::size_t max_entries_;
  std::uint64_t next_seq_ = 1;
  std::map<std::uint64_t, Entry> entries_;  // by prefix identity
};

}  // namespace agentctx
