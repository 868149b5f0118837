// SPDX-License-Identifier: MIT
#include "mock_model/cache_simulator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "prompt/prompt_bytes.h"

namespace agentctx {
namespace {

// Deterministic non-repeating filler so prefixes differ only where a test changes them.
std::string Bytes(std::size_t n, char salt = 'a') {
  std::string s;
  s.reserve(n);
  for (std::size_t i = 0; i < n; ++i) s.push_back(static_cast<char>(salt + (i * 7 + i / 26) % 26));
  return s;
}

TEST(CacheSimulator, SpecTimeline) {
  CacheSimulator sim;
  std::string p1 = Bytes(8000);
  std::string p2 = p1 + Bytes(600, 'A');
  std::string p3 = p2;
  p3[5000] = p3[5000] == '#' ? '$' : '#';
  std::string p4 = p3 + Bytes(400, 'A');
  EXPECT_EQ(sim.Lookup("m", "k", p1, 0), 0u);
  EXPECT_EQ(sim.Lookup("m", "k", p2, 10000), 1920u);
  EXPECT_EQ(sim.Lookup("m", "k", p3, 20000), 1152u);
  EXPECT_EQ(sim.Lookup("m", "k", p4, 400000), 0u);
}

TEST(CacheSimulator, OtherPromptCacheKeyIsAnotherNamespace) {
  CacheSimulator sim;
  std::string p1 = Bytes(8000);
  std::string p2 = p1 + Bytes(600, 'A');
  EXPECT_EQ(sim.Lookup("m", "k", p1, 0), 0u);
  EXPECT_EQ(sim.Lookup("m", "other", p2, 10000), 0u);
  EXPECT_EQ(sim.Lookup("m2", "k", p2, 10000), 0u);
  EXPECT_EQ(sim.Lookup("m", "", p2, 10000), 0u);
  EXPECT_EQ(sim.Lookup("m", "k", p2, 10000), 1920u);
}

TEST(CacheSimulator, ShortPromptsAreNeverStored) {
  CacheSimulator sim;
  std::string p = Bytes(4000);  // T = 1000
  EXPECT_EQ(sim.Lookup("m", "k", p, 0), 0u);
  EXPECT_EQ(sim.Lookup("m", "k", p, 1), 0u);
  EXPECT_EQ(sim.EntryCount("m", "k"), 0u);
  // T = 1024 (4093..4096 bytes) is stored; the identical prompt then hits fully.
  std::string q = Bytes(4093);
  EXPECT_EQ(sim.Lookup("m", "k", q, 2), 0u);
  EXPECT_EQ(sim.EntryCount("m", "k"), 1u);
  EXPECT_EQ(sim.Lookup("m", "k", q, 3), 0u);  // 4·1024 > 4093: no full block fits
  std::string r = Bytes(4096);
  EXPECT_EQ(sim.Lookup("m", "k", r, 4), 0u);
  EXPECT_EQ(sim.Lookup("m", "k", r, 5), 1024u);
  EXPECT_EQ(sim.EntryCount("m", "k"), 2u);
}

TEST(CacheSimulator, TtlBoundaryAndRefresh) {
  CacheSimulator sim;
  std::string p = Bytes(8000);  // T = 2000 -> a full hit caches 1920
  EXPECT_EQ(sim.Lookup("m", "k", p, 0), 0u);
  EXPECT_EQ(sim.Lookup("m", "k", p, 300000), 1920u);  // now - last_used == ttl: live
  // A 1000-token shared prefix caches nothing and refreshes nothing.
  EXPECT_EQ(sim.Lookup("m", "k", Bytes(4000), 600000), 0u);
  // Refreshed at 300 000: still live at 600 000 ...
  EXPECT_EQ(sim.Lookup("m", "k", p, 600000), 1920u);
  // ... refreshed again at 600 000: expired at 900 001.
  EXPECT_EQ(sim.Lookup("m", "k", p, 900001), 0u);
}

TEST(CacheSimulator, SameBodyTwiceHitsFully) {
  CacheSimulator sim;
  std::string p = Bytes(41000);  // T = 10250
  EXPECT_EQ(sim.Lookup("m", "k", p, 0), 0u);
  EXPECT_EQ(sim.Lookup("m", "k", p, 1000), 10240u);
  EXPECT_EQ(sim.EntryCount("m", "k"), 1u);
}

TEST(CacheSimulator, AtMostSixteenEntriesLeastRecentlyUsedEvicted) {
  CacheSimulator sim;
  std::vector<std::string> prompts;
  for (int i = 0; i < 17; ++i) prompts.push_back(Bytes(4096, static_cast<char>('A' + i)));
  for (int i = 0; i < 16; ++i) sim.Lookup("m", "k", prompts[i], i);
  EXPECT_EQ(sim.EntryCount("m", "k"), 16u);
  // Touch prompt 0 so prompt 1 becomes the least recently used.
  EXPECT_EQ(sim.Lookup("m", "k", prompts[0], 100), 1024u);
  sim.Lookup("m", "k", prompts[16], 101);
  EXPECT_EQ(sim.EntryCount("m", "k"), 16u);
  EXPECT_EQ(sim.Lookup("m", "k", prompts[0], 102), 1024u);
  EXPECT_EQ(sim.Lookup("m", "k", prompts[1], 103), 0u);  // evicted (and now stored again)
  EXPECT_EQ(sim.Lookup("m", "k", prompts[16], 104), 1024u);
}

// A 2 000-turn mock session reached 487 MB, mostly the simulator's copies of
// whole prompts. Entries now hold hashes: 8 bytes per 512 prompt bytes.
TEST(Regression, Issue17CacheSimulatorEntriesAreCompact) {
  CacheSimulator sim;
  const std::size_t kPrompt = 1 << 20;
  std::string base = Bytes(kPrompt);
  for (int i = 0; i < 16; ++i) {
    std::string p = base;
    p[kPrompt / 2] = static_cast<char>('A' + i);  // 16 distinct prompts sharing half
    sim.Lookup("m", "k", p, i);
  }
  EXPECT_EQ(sim.EntryCount("m", "k"), 16u);
  EXPECT_LT(sim.HeldBytes(), 16 * kPrompt / 32);  // copies would be 16 MiB
}

// The reference: the simulator as it was, keeping copies of the prompts and comparing bytes
// (one namespace, no expiry).
class ByteCacheSimulator {
 public:
  std::uint64_t Lookup(const std::string& prompt) {
    std::uint64_t cached = 0;
    Entry* matched = nullptr;
    for (Entry& e : entries_) {
      std::uint64_t tokens = Cacheable(CommonPrefixLength(prompt, e.bytes) / 4);
      if (tokens > cached) {
        cached = tokens;
        matched = &e;
      }
    }
    if (matched != nullptr) matched->seq = next_++;
    if (TokensForBytes(prompt.size()) < 1024) return cached;
    for (Entry& e : entries_) {
      if (e.bytes == prompt) {
        e.seq = next_++;
        return cached;
      }
    }
    if (entries_.size() >= CacheSimulator::kMaxEntries) {
      auto lru = std::min_element(entries_.begin(), entries_.end(),
                                  [](const Entry& a, const Entry& b) { return a.seq < b.seq; });
      entries_.erase(lru);
    }
    entries_.push_back(Entry{prompt, next_++});
    return cached;
  }

 private:
  struct Entry {
    std::string bytes;
    std::uint64_t seq;
  };
  std::vector<Entry> entries_;
  std::uint64_t next_ = 1;
};

// The hashed entries answer what comparing the bytes did (the longest cached prefix), eviction
// included, for prompts sharing prefixes of every length around the block boundaries.
TEST(CacheSimulator, HashedEntriesMatchTheByteComparison) {
  CacheSimulator sim;
  ByteCacheSimulator reference;
  std::uint64_t seed = 17;
  auto next = [&seed]() {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return seed >> 33;
  };
  std::string base = Bytes(12000);
  for (int round = 0; round < 400; ++round) {
    std::size_t len = 4000 + next() % 8000;
    std::string p = base.substr(0, len);
    std::size_t flip = next() % (len + 200);
    if (flip < len) p[flip] = static_cast<char>(p[flip] ^ 0x20);
    ASSERT_EQ(sim.Lookup("m", "k", p, round), reference.Lookup(p)) << "round " << round;
  }
}

}  // namespace
}  // namespace agentctx
