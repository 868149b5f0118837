// SPDX-License-Identifier: MIT
// OpenAiBreakpointCache; see openai_breakpoint_cache.h.
#include "provider/cache/openai_breakpoint_cache.h"

#include <algorithm>
#include <iterator>

namespace agentctx {

std::uint64_t ChainHash(std::uint64_t seed, std::string_view bytes) {
  std::uint64_t h = seed ^ 0xCBF29CE484222325ull;
  for (unsigned char c : bytes) h = (h ^ c) * 0x100000001B3ull;
  return (h ^ bytes.size()) * 0x9E3779B97F4A7C15ull;
}

BreakpointCacheResult OpenAiBreakpointCache::Run(const BreakpointCacheRequest& r,
                                                 std::int64_t now_ms) {
  for (auto it = entries_.begin(); it != entries_.end();) {
    it = now_ms > it->second.expires_ms ? entries_.erase(it) : std::next(it);
  }
  const std::int64_t expires = now_ms + r.ttl_ms;
  auto placed = [&](std::size_t i) {
    return std::binary_search(r.breakpoints.begin(), r.breakpoints.end(), i);
  };
  BreakpointCacheResult out;
  std::size_t examined = 0;
  for (std::size_t i = r.prefix_ids.size(); i-- > 0;) {
    auto hit = entries_.find(r.prefix_ids[i]);
    if (hit == entries_.end() && !placed(i)) continue;
    if (examined++ == lookup_depth_) break;
    if (hit != entries_.end()) {
      out.read = r.prefix_tokens[i];
      hit->second.expires_ms = std::max(hit->second.expires_ms, expires);
      break;
    }
  }
  std::vector<std::size_t> fresh;
  for (std::size_t i : r.breakpoints) {
    if (i >= r.prefix_ids.size()) continue;
    auto cached = entries_.find(r.prefix_ids[i]);
    if (cached != entries_.end()) {
      cached->second.expires_ms = std::max(cached->second.expires_ms, expires);
    } else if (r.prefix_tokens[i] >= kOpenAiMinPrefixTokens) {
      fresh.push_back(i);
    }
  }
  const std::size_t skip =
      fresh.size() > kOpenAiMaxWritesPerRequest ? fresh.size() - kOpenAiMaxWritesPerRequest : 0;
  std::uint64_t longest = 0;
  for (std::size_t k = skip; k < fresh.size(); ++k) {
    const std::size_t i = fresh[k];
    entries_[r.prefix_ids[i]] = Entry{expires, r.prefix_tokens[i], next_seq_++};
    longest = std::max(longest, r.prefix_tokens[i]);
  }
  out.written = longest > out.read ? longest - out.read : 0;
  while (entries_.size() > max_entries_) {
    auto first = entries_.begin();
    for (auto it = entries_.begin(); it != entries_.end(); ++it) {
      const Entry& a = it->second;
      const Entry& b = first->second;
      if (a.expires_ms != b.expires_ms ? a.expires_ms < b.expires_ms
          : a.tokens != b.tokens       ? a.tokens < b.tokens
                                       : a.seq < b.seq) {
        first = it;
      }
    }
    entries_.erase(first);
  }
  return out;
}

}  // namespace agentctx
