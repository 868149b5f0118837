// SPDX-License-Identifier: MIT
// Warmth-aware compaction rule (compaction/warmth.h): each of its four conditions,
// the TTL boundary, and the event fields.
#include "compaction/warmth.h"

#include <gtest/gtest.h>

#include "protocol/json_codec.h"

namespace agentctx {
namespace {

CompactionThresholds Window100k() { return *ComputeThresholds(100000, std::nullopt); }

std::optional<ColdCacheDecision> Decide(std::optional<std::int64_t> last, std::int64_t now,
                                        std::uint64_t tokens, WarmthPolicy policy = {}) {
  return DecideColdCacheCompaction(last, now, tokens, Window100k(), policy);
}

TEST(WarmthCompaction, SoftLimitIsAShareOfTheWindow) {
  EXPECT_EQ(SoftLimitTokens(Window100k(), 6000), 60000u);
  EXPECT_EQ(SoftLimitTokens(*ComputeThresholds(272000, std::nullopt), 6000), 163200u);
  EXPECT_EQ(SoftLimitTokens(Window100k(), 1), 10u);
}

TEST(WarmthCompaction, ColdCacheAboveTheSoftLimitCompacts) {
  std::optional<ColdCacheDecision> d = Decide(1000, 1000 + 300001, 70000);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->idle_ms, 300001);
  EXPECT_EQ(d->cache_ttl_ms, 300000);
  EXPECT_EQ(d->context_tokens, 70000u);
  EXPECT_EQ(d->soft_limit_tokens, 60000u);
}

TEST(WarmthCompaction, AWarmCacheDoesNotCompactEvenAtTheTtlItself) {
  EXPECT_FALSE(Decide(1000, 1000 + 300000, 70000).has_value());  // live while idle <= ttl
  EXPECT_FALSE(Decide(1000, 2000, 89000).has_value());
}

TEST(WarmthCompaction, BelowTheSoftLimitDoesNotCompact) {
  EXPECT_FALSE(Decide(0, 400000, 59999).has_value());
  EXPECT_TRUE(Decide(0, 400000, 60000).has_value());
}

TEST(WarmthCompaction, AtTheHardLimitTheOrdinaryRuleAppliesInstead) {
  EXPECT_FALSE(Decide(0, 400000, 90000).has_value());  // auto_limit = 90000
  EXPECT_TRUE(Decide(0, 400000, 89999).has_value());
}

TEST(WarmthCompaction, UnknownPreviousRequestOrZeroTtlDisablesTheRule) {
  EXPECT_FALSE(Decide(std::nullopt, 400000, 70000).has_value());
  EXPECT_FALSE(Decide(0, 400000, 70000, WarmthPolicy{0, 6000}).has_value());
  EXPECT_TRUE(Decide(0, 400000, 70000, WarmthPolicy{1000, 6000}).has_value());
  EXPECT_FALSE(Decide(0, 400000, 70000, WarmthPolicy{1000, 8000}).has_value());
}

TEST(WarmthCompaction, EventFields) {
  JsonValue e = JsonValue::Object();
  AddColdCacheFields(ColdCacheDecision{300001, 300000, 70000, 60000}, &e);
  EXPECT_EQ(ToJson(e), R"({"reason":"cache_cold","idle_ms":300001,"cache_ttl_ms":300000,)"
                       R"("context_tokens":70000,"soft_limit_tokens":60000})");
}

}  // namespace
}  // namespace agentctx
