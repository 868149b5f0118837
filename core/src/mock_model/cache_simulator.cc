// SPDX-License-Identifier: MIT
// Prompt-cache simulator (SPEC §14.3); see cache_simulator.h.
#include "mock_model/cache_simulator.h"

#include "prompt/prompt_bytes.h"

namespace agentctx {

bool CacheSimulator::IsLive(const Entry& e, std::int64_t now_ms) const {
  // Compare without overflow: live iff now - last_used <= ttl.
  if (now_ms <= e.last_used_ms) return true;
  return static_cast<std::uint64_t>(now_ms) - static_cast<std::uint64_t>(e.last_used_ms) <=
         static_cast<std::uint64_t>(ttl_ms_ < 0 ? 0 : ttl_ms_);
}

void CacheSimulator::PurgeExpired(std::int64_t now_ms) {
  for (auto it = namespaces_.begin(); it != namespaces_.end();) {
    std::vector<Entry>& entries = it->second;
    std::vector<Entry> kept;
    kept.reserve(entries.size());
    for (Entry& e : entries) {
      if (IsLive(e, now_ms)) kept.push_back(std::move(e));
    }
    if (kept.empty()) {
      it = namespaces_.erase(it);
    } else {
      entries = std::move(kept);
      ++it;
    }
  }
}

std::uint64_t CacheSimulator::Lookup(std::string_view model, std::string_view prompt_cache_key,
                                     std::string_view prompt, std::int64_t now_ms) {
  PurgeExpired(now_ms);
  Key key{std::string(model), std::string(prompt_cache_key)};
  std::vector<Entry>& entries = namespaces_[key];

  // SPEC §14.3: best match over live entries (all entries are live after the purge).
  std::uint64_t cached = 0;
  Entry* matched = nullptr;
  for (Entry& e : entries) {
    std::uint64_t tokens = Cacheable(CommonPrefixLength(prompt, e.bytes) / 4);
    if (tokens > cached) {
      cached = tokens;
      matched = &e;
    }
  }
  if (matched != nullptr) {
    matched->last_used_ms = now_ms;
    matched->use_seq = next_seq_++;
  }

  if (TokensForBytes(prompt.size()) >= 1024) {
    Entry* same = nullptr;
    for (Entry& e : entries) {
      if (e.bytes == prompt) same = &e;
    }
    if (same != nullptr) {
      same->last_used_ms = now_ms;
      same->use_seq = next_seq_++;
    } else {
      if (entries.size() >= kMaxEntries) {
        std::size_t lru = 0;
        for (std::size_t i = 1; i < entries.size(); ++i) {
          if (entries[i].use_seq < entries[lru].use_seq) lru = i;
        }
        entries.erase(entries.begin() + static_cast<std::ptrdiff_t>(lru));
      }
      entries.push_back(Entry{std::string(prompt), now_ms, next_seq_++});
    }
  }
  if (entries.empty()) namespaces_.erase(key);
  return cached;
}

std::size_t CacheSimulator::EntryCount(std::string_view model,
                                       std::string_view prompt_cache_key) const {
  auto it = namespaces_.find(Key{std::string(model), std::string(prompt_cache_key)});
  return it == namespaces_.end() ? 0 : it->second.size();
}

}  // namespace agentctx
