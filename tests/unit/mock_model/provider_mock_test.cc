// SPDX-License-Identifier: MIT
// The mock's chat/completions and messages endpoints: the Anthropic breakpoint cache
// (lookback, minimum, TTL, pricing), the Chat exact-prefix cache, the answers' shapes, bad input.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mock_model/anthropic_cache.h"
#include "mock_model/mock_model.h"
#include "protocol/json_codec.h"

namespace agentctx {
namespace {

std::vector<AnthropicBlock> Blocks(std::size_t n, std::size_t bytes_each, std::size_t marked) {
  std::vector<AnthropicBlock> out;
  for (std::size_t i = 0; i < n; ++i) {
    AnthropicBlock b;
    b.bytes = std::string(bytes_each, static_cast<char>('a' + i % 26));
    b.marked = i == marked;
    out.push_back(b);
  }
  return out;
}

TEST(AnthropicCache, WritesAtMarksThenReadsWithinTheLookback) {
  AnthropicCacheSimulator cache;
  auto first = Blocks(10, 800, 9);  // 2000 tokens, marked at the end
  AnthropicCacheUsage u1 = cache.Lookup("claude", first, 0);
  EXPECT_EQ(u1.cache_read_input_tokens, 0u);
  EXPECT_EQ(u1.cache_creation_input_tokens, 2000u);
  EXPECT_EQ(u1.input_tokens, 0u);
  auto second = Blocks(14, 800, 13);  // the same 10 blocks + 4, the mark moved to the end
  AnthropicCacheUsage u2 = cache.Lookup("claude", second, 1000);
  EXPECT_EQ(u2.cache_read_input_tokens, 2000u);
  EXPECT_EQ(u2.cache_creation_input_tokens, 800u);
  EXPECT_EQ(AnthropicCacheSimulator::CostHundredths(u2), 125u * 800u + 10u * 2000u);
  // 25 blocks later the old entry is out of the 20-block lookback.
  auto far = Blocks(40, 800, 39);
  AnthropicCacheSimulator fresh;
  fresh.Lookup("claude", Blocks(14, 800, 13), 0);
  EXPECT_EQ(fresh.Lookup("claude", far, 1000).cache_read_input_tokens, 0u);
  // Another model shares nothing; an expired entry is gone.
  EXPECT_EQ(cache.Lookup("other", second, 2000).cache_read_input_tokens, 0u);
  EXPECT_EQ(cache.Lookup("claude", second, 1000 + 300001).cache_read_input_tokens, 0u);
}

TEST(AnthropicCache, NeverWritesUnderTheMinimumAndKeepsOneHourMarks) {
  AnthropicCacheSimulator cache;
  auto small = Blocks(2, 1000, 1);  // 500 tokens
  EXPECT_EQ(cache.Lookup("claude", small, 0).cache_creation_input_tokens, 0u);
  EXPECT_EQ(cache.EntryCount(), 0u);
  auto haiku = Blocks(2, 3000, 1);  // 1500 tokens: enough for Sonnet, not Haiku (2048)
  EXPECT_EQ(cache.Lookup("claude-haiku", haiku, 0).cache_creation_input_tokens, 0u);
  EXPECT_EQ(cache.Lookup("claude-sonnet", haiku, 0).cache_creation_input_tokens, 1500u);
  auto hour = Blocks(3, 2000, 2);
  hour[2].ttl_ms = 3600000;
  cache.Lookup("claude", hour, 0);
  EXPECT_EQ(cache.Lookup("claude", hour, 1800000).cache_read_input_tokens, 1500u);
}

TEST(AnthropicCache, SplitsWritesByTheTtlOfTheirMarks) {
  // 1 h mark at 1500 tokens, 5 min mark at 3000: 1500 written for 1 h, 1500 for 5 min.
  // n blocks of 500 tokens, a 1 h mark on the third, a 5 min mark on the last.
  auto one_hour_then_newest = [](std::size_t n) {
    auto blocks = Blocks(n, 2000, 2);
    blocks[2].ttl_ms = 3600000;
    blocks[n - 1].marked = true;
    return blocks;
  };
  AnthropicCacheSimulator cache;
  auto blocks = one_hour_then_newest(6);
  AnthropicCacheUsage u = cache.Lookup("claude", blocks, 0);
  EXPECT_EQ(u.cache_creation_input_tokens, 3000u);
  EXPECT_EQ(u.cache_creation_1h_input_tokens, 1500u);
  EXPECT_EQ(AnthropicCacheSimulator::CostHundredths(u), 200u * 1500u + 125u * 1500u);
  // Next request, one block longer: the whole old prefix is read (the lookback finds the 5 min
  // entry), so only the new block is written, for 5 min: no 1 h writes.
  auto next = one_hour_then_newest(7);
  AnthropicCacheUsage v = cache.Lookup("claude", next, 1000);
  EXPECT_EQ(v.cache_read_input_tokens, 3000u);
  EXPECT_EQ(v.cache_creation_input_tokens, 500u);
  EXPECT_EQ(v.cache_creation_1h_input_tokens, 0u);
  // After the 5 min entries expired, the 1 h prefix is read and the tail written for 5 min.
  AnthropicCacheUsage w = cache.Lookup("claude", next, 1000 + 600000);
  EXPECT_EQ(w.cache_read_input_tokens, 1500u);
  EXPECT_EQ(w.cache_creation_input_tokens, 2000u);
  EXPECT_EQ(w.cache_creation_1h_input_tokens, 0u);
}

TEST(ProviderMock, AnswersEachProviderAndRefusesBadBodies) {
  MockModel mock;
  const char* chat =
      R"({"model":"m","messages":[{"role":"user","content":"hello"}],"stream":true})";
  auto sse = mock.Handle("chat/completions", chat, 0);
  ASSERT_TRUE(sse.has_value());
  EXPECT_NE(sse->find(R"("object":"chat.completion.chunk")"), std::string::npos);
  EXPECT_NE(sse->find(R"("content":"Mock reply to: hello")"), std::string::npos);
  EXPECT_TRUE(sse->ends_with("data: [DONE]\n\n"));
  auto json = mock.Handle("chat/completions",
                          R"({"model":"m","messages":[{"role":"user","content":"hi"}]})", 0);
  ASSERT_TRUE(json.has_value());
  EXPECT_TRUE(ParseJson(*json)->GetString("object") == "chat.completion");
  const char* messages =
      R"({"model":"claude","max_tokens":10,"messages":[{"role":"user","content":"hello"}],"stream":true})";
  auto events = mock.Handle("messages", messages, 0);
  ASSERT_TRUE(events.has_value());
  EXPECT_TRUE(events->starts_with("event: message_start\n"));
  EXPECT_NE(events->find("event: message_stop\n"), std::string::npos);
  auto message = mock.Handle(
      "messages",
      R"({"model":"claude","max_tokens":10,"messages":[{"role":"user","content":"x #mock-fail:server_is_overloaded"}]})",
      0);
  ASSERT_TRUE(message.has_value());
  EXPECT_NE(message->find(R"("type":"overloaded_error")"), std::string::npos);
  EXPECT_EQ(mock.Handle("messages", "{", 0).error().code, ErrorCode::kInvalidJson);
  EXPECT_EQ(mock.Handle("messages", R"({"messages":3})", 0).error().code, ErrorCode::kInvalidInput);
  EXPECT_EQ(mock.Handle("chat/completions", R"({"messages":[1]})", 0).error().code,
            ErrorCode::kInvalidInput);
  EXPECT_EQ(mock.anthropic_cache().EntryCount(), 0u);  // nothing cached from the refused ones
}

}  // namespace
}  // namespace agentctx
