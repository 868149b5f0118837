// SPDX-License-Identifier: MIT
#include "support/sha1.h"

#include <gtest/gtest.h>

namespace agentctx {
namespace {

TEST(Sha1, KnownVectors) {
  EXPECT_EQ(Sha1Hex(""), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
  EXPECT_EQ(Sha1Hex("abc"), "a9993e364706816aba3e25717850c26c9cd0d89d");
  EXPECT_EQ(Sha1Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "84983e441c3bd26ebaae4aa1f95129e5e54670f1");
  EXPECT_EQ(Sha1Hex(std::string(1000000, 'a')), "34aa973cd4c4daa4f61eeb2bdbad27316534016f");
}

TEST(Sha1, IncrementalEqualsOneShot) {
  std::string data;
  for (int i = 0; i < 300; ++i) data.push_back(static_cast<char>(i * 7));
  for (std::size_t split = 0; split <= data.size(); split += 13) {
    Sha1 s;
    s.Update(std::string_view(data).substr(0, split));
    s.Update(std::string_view(data).substr(split));
    EXPECT_EQ(s.HexDigest(), Sha1Hex(data)) << split;
  }
}

}  // namespace
}  // namespace agentctx
