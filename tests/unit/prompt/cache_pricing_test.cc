// SPDX-License-Identifier: MIT
// Prompt-cache pricing per provider (provider/cache/cache_pricing.h): the OpenAI and Anthropic
// rules, exact integer costs, the typed-price reader shared by rollout.inspect and cache_summary.
#include "provider/cache/cache_pricing.h"

#include <gtest/gtest.h>

#include "protocol/json_codec.h"

namespace agentctx {
namespace {

TEST(CachePricing, ProvidersPickTheirRule) {
  EXPECT_EQ(CachePricingFor(Provider::kResponses), CachePricing::kOpenAi);
  EXPECT_EQ(CachePricingFor(Provider::kChat), CachePricing::kOpenAi);
  EXPECT_EQ(CachePricingFor(Provider::kAnthropic), CachePricing::kAnthropic);
  EXPECT_EQ(CachePricingName(CachePricing::kAnthropic), "anthropic");
  EXPECT_EQ(CachePricingName(CachePricing::kOpenAi), "openai");
}

TEST(CachePricing, AnthropicMultipliersOfTheInputPrice) {
  TypedPrices t;
  t.input = 3000000;  // $3 per million
  CachePrices p = PricesFor(CachePricing::kAnthropic, t);
  EXPECT_EQ(p.cached, 300000u);     // 0.1x
  EXPECT_EQ(p.write_5m, 3750000u);  // 1.25x
  EXPECT_EQ(p.write_1h, 6000000u);  // 2x
  // The typed cached price is OpenAI's; Anthropic uses it only when given explicitly.
  t.cached_input = 1;
  EXPECT_EQ(PricesFor(CachePricing::kAnthropic, t).cached, 300000u);
  t.cached_input_given = true;
  EXPECT_EQ(PricesFor(CachePricing::kAnthropic, t).cached, 1u);
  t.cache_write = 7000000;
  EXPECT_EQ(PricesFor(CachePricing::kAnthropic, t).write_5m, 7000000u);
  EXPECT_EQ(PricesFor(CachePricing::kAnthropic, t).write_1h, 7000000u);
  // OpenAI: no write premium.
  CachePrices o = PricesFor(CachePricing::kOpenAi, TypedPrices{});
  EXPECT_EQ(o.cached, 125000u);
  EXPECT_EQ(o.write_5m, 1250000u);
}

TEST(CachePricing, InputCostIsExactAndClampsImpossibleCounts) {
  TypedPrices t;
  t.input = 3000000;
  CachePrices p = PricesFor(CachePricing::kAnthropic, t);
  // 1000 plain · 3 + 2000 read · 0.3 + 500 written (5 min) · 3.75 + 100 (1 h) · 6 micro-USD.
  EXPECT_EQ(InputCostPicoUsd(CacheTokens{3600, 2000, 600, 100, 0}, p),
            std::uint64_t{1000} * 3000000 + 2000 * 300000 + 500 * 3750000 + 100 * 6000000);
  // More cached than input, more writes than what is left: nothing goes negative.
  EXPECT_EQ(InputCostPicoUsd(CacheTokens{100, 500, 50, 90, 0}, p), 100u * 300000);
  EXPECT_EQ(ToJson(UsdNumber(6775000000)), "0.006775");
  EXPECT_EQ(ToJson(UsdPerMillion(3750000)), "3.75");
}

TEST(CachePricing, ReadsTypedPricesAndRefusesBadOnes) {
  TypedPrices t;
  auto prices = ParseJson(R"({"input":3,"cache_write":3.75,"output":15})");
  ASSERT_TRUE(ReadTypedPrices(*prices, "cache_summary", &t).has_value());
  EXPECT_EQ(t.input, 3000000u);
  EXPECT_EQ(t.cache_write, 3750000u);
  EXPECT_FALSE(t.cached_input_given);
  EXPECT_EQ(t.output, 15000000u);
  for (const char* bad : {R"([])", R"({"input":-1})", R"({"cached_input":"0.1"})",
                          R"({"cache_write":1e3})", R"({"input":2,"cache_write":1.5})"}) {
    SCOPED_TRACE(bad);
    TypedPrices into;
    auto v = ParseJson(bad);
    ASSERT_TRUE(v.has_value());
    auto read = ReadTypedPrices(*v, "rollout.inspect", &into);
    ASSERT_FALSE(read.has_value());
    EXPECT_EQ(read.error().code, ErrorCode::kInvalidInput);
    EXPECT_EQ(read.error().message.rfind("rollout.inspect: `prices", 0), 0u)
        << read.error().message;
  }
}

}  // namespace
}  // namespace agentctx
