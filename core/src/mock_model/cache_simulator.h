// SPDX-License-Identifier: MIT
// Prompt-cache simulator (OpenAI rules), used by the mock model to fill
// `usage.input_tokens_details.cached_tokens`.
// Invariants:
//  - State is per namespace `(model, prompt_cache_key)` (absent key = ""); each namespace holds
//    at most kMaxEntries entries, evicted least-recently-used (ours).
//  - An entry does not copy the prompt (copies made a 2 000-turn mock session hold 360 MB).
//    It keeps the prompt's size, a hash of the whole prompt and one hash per cache
//    block boundary: of the first 4b bytes for each b = 1024 + 128k with 4b <= size, i.e. 8
//    bytes per 512 prompt bytes. "The first 4b bytes are equal" is decided on those hashes
//    (64-bit, deterministic; a collision would only overstate cached_tokens in the mock).
//  - An entry is live iff `now − last_used ≤ ttl` (simulated time from the caller; a clock that
//    goes backwards keeps entries live). Nothing reads a real clock.
// Algorithm (Lookup):
//  1. Purge expired entries (every namespace, so memory stays bounded).
//  2. cached_tokens = the largest `b = 1024 + 128k` with `4b ≤ |P|`, `4b ≤ |E|` and equal first
//     `4b` bytes for some live entry E of the namespace (= cacheable(floor(common/4))), else 0;
//     the matched entry's last_used (and LRU rank) is refreshed.
//  3. If `T = ceil(|P|/4) ≥ 1024`, store P (or refresh its identical entry) with last_used = now,
//     evicting the least recently used entry beyond kMaxEntries.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentctx {

class CacheSimulator {
 public:
  static constexpr std::int64_t kDefaultTtlMs = 300000;
  static constexpr std::size_t kMaxEntries = 16;

  explicit CacheSimulator(std::int64_t ttl_ms = kDefaultTtlMs) : ttl_ms_(ttl_ms) {}

  /// Runs one request's prompt bytes `prompt` through the cache at simulated time `now_ms`
  /// and returns its cached_tokens (by the rules above). Mutates the cache state.
  std::uint64_t Lookup(std::string_view model, std::string_view prompt_cache_key,
                       std::string_view prompt, std::int64_t now_ms);

  /// Number of live-or-not-yet-purged entries in a namespace (tests, stats).
  std::size_t EntryCount(std::string_view model, std::string_view prompt_cache_key) const;
  /// The bytes the entries of every namespace hold (their hashes), for the memory tests.
  std::size_t HeldBytes() const;
  /// Drops every entry.
  void Clear() { namespaces_.clear(); }

 private:
  struct Entry {
    std::uint64_t size = 0;
    std::uint64_t whole_hash = 0;
    std::vector<std::uint64_t> block_hashes;  // [k]: the first 4096 + 512k bytes
    std::int64_t last_used_ms = 0;
    std::uint64_t use_seq = 0;  // LRU rank: larger = more recently used
  };
  using Key = std::pair<std::string, std::string>;

  bool IsLive(const Entry& e, std::int64_t now_ms) const;
  void PurgeExpired(std::int64_t now_ms);

  std::int64_t ttl_ms_;
  std::uint64_t next_seq_ = 1;
  std::map<Key, std::vector<Entry>> namespaces_;
};

}  // namespace agentctx
