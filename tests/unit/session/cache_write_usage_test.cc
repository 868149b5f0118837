// SPDX-License-Identifier: MIT
// Cache writes as OpenAI reports them (GPT-5.6+: `input_tokens_details.cache_write_tokens`,
// Chat `prompt_tokens_details.cache_write_tokens`): read into the token_usage event's
// `cache_creation_tokens` and the rollout's `cache_creation_input_tokens`, like Anthropic's;
// a usage without the field reads exactly as before.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "../compaction/compaction_session_util.h"
#include "protocol/json_codec.h"
#include "protocol/sse_parser.h"
#include "provider/cache/cache_pricing.h"
#include "provider/chat/chat_stream.h"
#include "support/session_driver.h"

namespace agentctx {
namespace {

using compaction_test::AssistantJson;
using compaction_test::Sse;
using testing::SessionDriver;

std::string Config() {
  return R"({"session_id":"cw-1","model":{"slug":"gpt-5.6"},"approval_policy":"never",)"
         R"("environments":[{"id":"local","cwd":"/repo","shell":"bash","fs":"workspace"}]})";
}

// Answers every turn request with input 3000 tokens, 1000 of them read; `details` is spliced
// into input_tokens_details after cached_tokens.
void Answer(SessionDriver* d, const std::string& details) {
  d->respond = [details](const std::string& endpoint,
                         const std::string&) -> std::optional<std::string> {
    if (endpoint != "responses") return std::nullopt;
    std::string sse = Sse({AssistantJson("ok")}, 3000, 10);
    const std::string cached = "\"cached_tokens\":0";
    const std::size_t at = sse.find(cached);
    if (at == std::string::npos) return sse;
    sse.replace(at, cached.size(), "\"cached_tokens\":1000" + details);
    return sse;
  };
}

// Starts `d` answering with `details` (see Answer) and submits one turn; its effects.
std::vector<JsonValue> StartAndSubmit(SessionDriver* d, const std::string& details) {
  EXPECT_TRUE(d->fs()->AddDir("/repo").has_value());
  Answer(d, details);
  d->Start(Config());
  return d->Submit("hello", 1000);
}

const JsonValue* TokenUsage(const std::vector<JsonValue>& effects) {
  for (const auto& e : effects) {
    const JsonValue* ev = e.Find("event");
    if (e.GetString("type") == "event" && ev->GetString("type") == "token_usage") return ev;
  }
  return nullptr;
}

TEST(CacheWriteUsage, OpenAiWritesReachTheEventAndTheRollout) {
  SessionDriver d;
  auto effects = StartAndSubmit(&d, R"(,"cache_write_tokens":1500,"cache_write_tokens_details":)"
                                    R"({"ttl_12h_tokens":0,"ttl_30m_tokens":1500})");
  const JsonValue* usage = TokenUsage(effects);
  ASSERT_NE(usage, nullptr);
  EXPECT_EQ(usage->Find("input_tokens")->int_value(), 3000);
  EXPECT_EQ(usage->Find("cached_tokens")->int_value(), 1000);
  ASSERT_NE(usage->Find("cache_creation_tokens"), nullptr) << ToJson(*usage);
  EXPECT_EQ(usage->Find("cache_creation_tokens")->int_value(), 1500);
  EXPECT_NE(d.RolloutText().find("\"cache_creation_input_tokens\":1500"), std::string::npos);
}

TEST(CacheWriteUsage, OpenAi12HourWritesAreTheLongTtlShareAndPricedLikeTheOthers) {
  SessionDriver d;
  auto effects = StartAndSubmit(&d, R"(,"cache_write_tokens":1500,"cache_write_tokens_details":)"
                                    R"({"ttl_12h_tokens":1200,"ttl_30m_tokens":300})");
  const JsonValue* usage = TokenUsage(effects);
  ASSERT_NE(usage, nullptr);
  EXPECT_EQ(usage->Find("cache_creation_tokens")->int_value(), 1500);
  ASSERT_NE(usage->Find("cache_creation_1h_tokens"), nullptr) << ToJson(*usage);
  EXPECT_EQ(usage->Find("cache_creation_1h_tokens")->int_value(), 1200);
  EXPECT_NE(d.RolloutText().find("\"cache_creation_1h_input_tokens\":1200"), std::string::npos);
  // OpenAI publishes no separate 12 h price: every write at 1.25 × input.
  auto summary = ParseJson(d.Call("cache_summary", R"({"prices":{}})"));
  ASSERT_TRUE(summary.has_value());
  const JsonValue* value = summary->Find("value");
  ASSERT_NE(value, nullptr) << ToJson(*summary);
  EXPECT_EQ(ToJson(*value->Find("cost")->Find("reported")->Find("input_usd")), "0.00309375");
  // Predicted by OpenAI's breakpoint rule, priced by OpenAI's prices (not Anthropic's).
  EXPECT_EQ(value->Find("cost")->GetString("pricing"), "openai");
  ASSERT_NE(value->Find("predicted_cache_write_tokens"), nullptr) << ToJson(*value);
  EXPECT_GT(value->GetInt("predicted_cache_write_tokens").value_or(0), 0);
}

TEST(CacheWriteUsage, AUsageWithoutWritesReadsAsBefore) {
  SessionDriver d;
  auto effects = StartAndSubmit(&d, "");
  const JsonValue* usage = TokenUsage(effects);
  ASSERT_NE(usage, nullptr);
  EXPECT_EQ(usage->Find("cached_tokens")->int_value(), 1000);
  EXPECT_EQ(usage->Find("cache_creation_tokens"), nullptr);
  EXPECT_EQ(d.RolloutText().find("cache_creation_input_tokens"), std::string::npos);
}

TEST(CacheWriteUsage, OpenAiWritesArePricedByModelUnlessTheConfigSaysOtherwise) {
  EXPECT_TRUE(OpenAiBillsCacheWrites("gpt-5.6"));
  EXPECT_TRUE(OpenAiBillsCacheWrites("gpt-5.7-mini"));
  EXPECT_FALSE(OpenAiBillsCacheWrites("gpt-5.5"));
  EXPECT_FALSE(OpenAiBillsCacheWrites("mock-1"));
  TypedPrices t;                                                      // input 1.25 USD per million
  EXPECT_EQ(PricesFor(CachePricing::kOpenAi, t).write_5m, 1250000u);  // older models: none
  EXPECT_EQ(PricesFor(CachePricing::kOpenAi, t, true).write_5m, 1562500u);  // 1.25x
  t.cache_write = 2000000;  // the override, whatever the model
  EXPECT_EQ(PricesFor(CachePricing::kOpenAi, t).write_5m, 2000000u);
  EXPECT_EQ(PricesFor(CachePricing::kOpenAi, t, true).write_5m, 2000000u);
}

TEST(CacheWriteUsage, CacheSummaryPricesOpenAiWrites) {
  SessionDriver d;
  StartAndSubmit(&d, R"(,"cache_write_tokens":1500)");
  auto summary = ParseJson(d.Call("cache_summary", R"({"prices":{}})"));
  ASSERT_TRUE(summary.has_value());
  const JsonValue* value = summary->Find("value");
  ASSERT_NE(value, nullptr) << ToJson(*summary);
  EXPECT_EQ(value->Find("reported_cache_write_tokens")->int_value(), 1500);
  const JsonValue* cost = value->Find("cost");
  ASSERT_NE(cost, nullptr);
  EXPECT_EQ(ToJson(*cost->Find("prices_per_million_usd")->Find("cache_write")), "1.5625");
  // 500 uncached at 1.25, 1000 read at 0.125, 1500 written at 1.5625 USD per million.
  EXPECT_EQ(ToJson(*cost->Find("reported")->Find("input_usd")), "0.00309375");
  // A given cache_write price replaces the default.
  auto given = ParseJson(d.Call("cache_summary", R"({"prices":{"cache_write":2}})"));
  EXPECT_EQ(ToJson(*given->Find("value")->Find("cost")->Find("reported")->Find("input_usd")),
            "0.00375");
}

std::vector<JsonValue> Chat(std::string_view sse) {
  SseParser parser;
  SseOutput out;
  parser.Feed(sse, &out);
  ChatStreamAdapter adapter;
  std::vector<JsonValue> events;
  for (const auto& e : out.events) adapter.OnChunk(e, &events);
  adapter.OnEnd(&events);
  return events;
}

TEST(CacheWriteUsage, ChatUsageCarriesWritesWhenTheServerReportsThem) {
  const std::string head =
      "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"},\"finish_reason\":"
      "\"stop\"}]}\n\n"
      "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":2000,\"completion_tokens\":3,"
      "\"prompt_tokens_details\":{\"cached_tokens\":1024";
  auto with = Chat(head + ",\"cache_write_tokens\":512}}}\n\n");
  ASSERT_FALSE(with.empty());
  EXPECT_EQ(ToJson(*with.back().Find("response")->Find("usage")->Find("input_tokens_details")),
            R"({"cached_tokens":1024,"cache_write_tokens":512})");
  auto without = Chat(head + "}}}\n\n");
  EXPECT_EQ(ToJson(*without.back().Find("response")->Find("usage")->Find("input_tokens_details")),
            R"({"cached_tokens":1024})");
}

}  // namespace
}  // namespace agentctx
