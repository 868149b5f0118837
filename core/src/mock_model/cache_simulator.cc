// SPDX-License-Identifier: MIT
// Prompt-cache simulator; see cache_simulator.h.
#include "mock_model/cache_simulator.h"

#include <cstring>

#include "prompt/prompt_bytes.h"

namespace agentctx {

namespace {

constexpr std::size_t kFirstBoundary = 4 * 1024;  // 4b for b = 1024
constexpr std::size_t kBoundaryStep = 4 * 128;    // 4b steps by 512 bytes

struct PromptHashes {
  std::uint64_t whole = 0;
  std::vector<std::uint64_t> blocks;  // as Entry::block_hashes
};

inline std::uint64_t Mix(std::uint64_t h, std::uint64_t word) {
  h = (h ^ word) * 0x9E3779B97F4A7C15ull;
  return h ^ (h >> 29);
}

// One pass over `prompt`, 8 bytes at a time (boundaries are multiples of 8).
PromptHashes HashPrompt(std::string_view prompt) {
  PromptHashes out;
  if (prompt.size() >= kFirstBoundary) {
    out.blocks.reserve((prompt.size() - kFirstBoundary) / kBoundaryStep + 1);
  }
  std::uint64_t h = 0xCBF29CE484222325ull;
  std::size_t i = 0;
  std::size_t next_boundary = kFirstBoundary;
  for (; i + 8 <= prompt.size(); i += 8) {
    std::uint64_t word = 0;
    std::memcpy(&word, prompt.data() + i, 8);
    h = Mix(h, word);
    if (i + 8 == next_boundary) {
      out.blocks.push_back(h);
      next_boundary += kBoundaryStep;
    }
  }
  for (; i < prompt.size(); ++i) h = Mix(h, static_cast<unsigned char>(prompt[i]) | 0x100u);
  out.whole = Mix(h, prompt.size());
  return out;
}

// cached tokens for the longest equal boundary prefix (prefix equality is monotone in k).
std::uint64_t MatchedTokens(const std::vector<std::uint64_t>& a,
                            const std::vector<std::uint64_t>& b) {
  std::size_t lo = 0;  // blocks [0, lo) are known equal
  std::size_t hi = a.size() < b.size() ? a.size() : b.size();
  while (lo < hi) {
    std::size_t mid = lo + (hi - lo) / 2;
    if (a[mid] == b[mid]) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo == 0 ? 0 : 1024 + 128 * static_cast<std::uint64_t>(lo - 1);
}

}  // namespace

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

  // Best match over live entries (all entries are live after the purge).
  PromptHashes hashes = HashPrompt(prompt);
  std::uint64_t cached = 0;
  Entry* matched = nullptr;
  for (Entry& e : entries) {
    std::uint64_t tokens = MatchedTokens(hashes.blocks, e.block_hashes);
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
      if (e.size == prompt.size() && e.whole_hash == hashes.whole) same = &e;
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
      entries.push_back(
          Entry{prompt.size(), hashes.whole, std::move(hashes.blocks), now_ms, next_seq_++});
    }
  }
  if (entries.empty()) namespaces_.erase(key);
  return cached;
}

std::size_t CacheSimulator::HeldBytes() const {
  std::size_t held = 0;
  for (const auto& [key, entries] : namespaces_) {
    for (const Entry& e : entries) held += sizeof(Entry) + e.block_hashes.capacity() * 8;
  }
  return held;
}

std::size_t CacheSimulator::EntryCount(std::string_view model,
                                       std::string_view prompt_cache_key) const {
  auto it = namespaces_.find(Key{std::string(model), std::string(prompt_cache_key)});
  return it == namespaces_.end() ? 0 : it->second.size();
}

}  // namespace agentctx
