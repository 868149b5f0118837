// SPDX-License-Identifier: MIT
// The byte scans against plain loops, over every length and alignment around the 16-byte
// SIMD step (the wasm builds take the SIMD path, native builds the portable one), with each
// text in a buffer of exactly its size so an over-read shows under ASan.
#include "support/byte_scan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "agentctx/string_growth.h"

namespace agentctx {
namespace {

constexpr std::size_t npos = std::string_view::npos;

std::size_t SlowFindByte(std::string_view t, std::size_t from, char b) {
  for (std::size_t i = from; i < t.size(); ++i) {
    if (t[i] == b) return i;
  }
  return npos;
}

std::size_t SlowFindPair(std::string_view t, std::size_t from, char b1, std::size_t o1, char b2,
                         std::size_t o2) {
  for (std::size_t i = from; i + o1 < t.size() && i + o2 < t.size(); ++i) {
    if (t[i + o1] == b1 && t[i + o2] == b2) return i;
  }
  return npos;
}

std::size_t SlowAsciiPrefix(std::string_view t) {
  std::size_t i = 0;
  while (i < t.size() && static_cast<unsigned char>(t[i]) < 0x80) ++i;
  return i;
}

// A deterministic generator (the core takes no randomness from the platform).
struct Lcg {
  std::uint32_t state;
  std::uint32_t Next() { return state = state * 1664525u + 1013904223u; }
};

// Texts over a small alphabet (so the sought bytes are frequent), one with a byte >= 0x80.
std::string Text(Lcg* rng, std::size_t n) {
  static constexpr char kAlphabet[] = {'a', 'b', '\n', 'x', '\0', '\xE9', 'k'};
  std::string s;
  for (std::size_t i = 0; i < n; ++i) s.push_back(kAlphabet[rng->Next() % sizeof kAlphabet]);
  return s;
}

TEST(ByteScan, EqualsPlainLoopsAtEveryLengthAndOffset) {
  Lcg rng{7};
  for (std::size_t n = 0; n <= 70; ++n) {
    for (int trial = 0; trial < 20; ++trial) {
      const std::string text = Text(&rng, n);
      // An exact-size heap copy: reading one byte past it is a heap overflow.
      std::unique_ptr<char[]> exact(new char[n == 0 ? 1 : n]);
      text.copy(exact.get(), n);
      const std::string_view t(exact.get(), n);
      for (char b : {'a', 'x', '\n', '\0', '\xE9', 'z'}) {
        for (std::size_t from = 0; from <= n + 1; ++from) {
          ASSERT_EQ(FindByte(t, from, b), SlowFindByte(t, from, b))
              << "n=" << n << " from=" << from << " byte=" << int(b);
        }
      }
      for (std::size_t o1 : {0u, 1u, 5u, 17u}) {
        for (std::size_t o2 : {0u, 2u, 16u, 33u}) {
          for (std::size_t from = 0; from <= n; from += 3) {
            ASSERT_EQ(FindBytePair(t, from, 'a', o1, 'k', o2),
                      SlowFindPair(t, from, 'a', o1, 'k', o2))
                << "n=" << n << " from=" << from << " offsets=" << o1 << "," << o2;
            ASSERT_EQ(FindBytePair(t, from, '\xE9', o1, '\n', o2),
                      SlowFindPair(t, from, '\xE9', o1, '\n', o2));
          }
        }
      }
      for (auto [b1, b2] : {std::pair{'a', 'k'}, std::pair{'\n', '\xE9'}, std::pair{'x', 'x'},
                            std::pair{'z', '\0'}, std::pair{'z', 'q'}}) {
        for (std::size_t from = 0; from <= n + 1; ++from) {
          const std::size_t first = SlowFindByte(t, from, b1);
          const std::size_t second = SlowFindByte(t, from, b2);
          ASSERT_EQ(FindEitherByte(t, from, b1, b2), std::min(first, second))
              << "n=" << n << " from=" << from << " bytes=" << int(b1) << "," << int(b2);
        }
      }
      ASSERT_EQ(AsciiPrefixLength(t), SlowAsciiPrefix(t)) << "n=" << n;
    }
  }
}

TEST(ByteScan, AsciiPrefixStopsAtTheFirstHighByteInAnyLane) {
  for (std::size_t at = 0; at < 40; ++at) {
    std::string s(40, 'q');
    s[at] = '\x80';
    EXPECT_EQ(AsciiPrefixLength(s), at);
    s[at] = '\xFF';
    EXPECT_EQ(AsciiPrefixLength(s), at);
  }
  EXPECT_EQ(AsciiPrefixLength(std::string(100, '~')), 100u);
  EXPECT_EQ(AsciiPrefixLength(""), 0u);
}

TEST(ByteScan, PairOffsetsBeyondTheTextFindNothing) {
  EXPECT_EQ(FindBytePair("ab", 0, 'a', 0, 'b', 2), npos);
  EXPECT_EQ(FindBytePair("ab", 0, 'a', 0, 'b', 1), 0u);
  EXPECT_EQ(FindBytePair("", 0, 'a', 0, 'a', 0), npos);
  EXPECT_EQ(FindByte("", 0, 'a'), npos);
}

TEST(StringGrowth, KeepsThePrefixAndTakesTheNewSize) {
  std::string s = "kept";
  ResizeForOverwrite(&s, 4 + 100);
  ASSERT_EQ(s.size(), 104u);
  EXPECT_EQ(s.substr(0, 4), "kept");
  for (std::size_t i = 4; i < s.size(); ++i) s[i] = 'w';
  ResizeForOverwrite(&s, 2);
  EXPECT_EQ(s, "ke");
}

}  // namespace
}  // namespace agentctx
