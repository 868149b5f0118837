// SPDX-License-Identifier: MIT
#include "mock_model/cache_simulator.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

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

}  // namespace
}  // namespace agentctx
