// SPDX-License-Identifier: MIT
// The mock's breakpoint cache for GPT-5.6 and later (mock_model/responses_cache.h over
// provider/cache/openai_breakpoint_cache.h): implicit and explicit modes, the lookup depth, at
// most 4 writes, the 30 min / 12 h TTLs, exact reads from 1024 tokens, ignored marks; and the
// mock's usage: cache_write_tokens for GPT-5.6+, the old answer for older slugs.
#include "mock_model/responses_cache.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mock_model/mock_model.h"
#include "protocol/json_codec.h"
#include "unit/mock_model/mock_test_support.h"

namespace agentctx {
namespace {

using testing::AssistantMsg;
using testing::ParseSse;
using testing::Usage;
using testing::UserMsg;

constexpr std::string_view kMark = R"(,"prompt_cache_breakpoint":{"mode":"explicit"})";
constexpr std::string_view kInstructions = "You are a helpful coding agent.";
constexpr std::string_view kTools = R"([{"type":"function","name":"read_file"}])";

// A user message of about `bytes` bytes, marked when `marked`.
std::string User(char fill, std::size_t bytes, bool marked = false) {
  std::string item = UserMsg(std::string(bytes, fill));
  if (marked) item.insert(item.size() - 3, kMark);  // before the block's closing `}]}`
  return item;
}

std::string Body(const std::vector<std::string>& items, std::string_view options = "",
                 std::string_view model = "gpt-5.6") {
  std::string body = R"({"model":")" + std::string(model) + R"(","instructions":)" +
                     JsonString(kInstructions) + R"(,"input":[)";
  for (std::size_t i = 0; i < items.size(); ++i) body += (i ? "," : "") + items[i];
  body += "],\"tools\":" + std::string(kTools) + R"(,"prompt_cache_key":"k")";
  if (!options.empty()) body += R"(,"prompt_cache_options":)" + std::string(options);
  return body + "}";
}

// The tokens of the prompt through the first `n` items, marks not counted.
std::uint64_t PrefixTokens(std::vector<std::string> items, std::size_t n) {
  std::uint64_t bytes = JsonString(kInstructions).size() + kTools.size();
  for (std::size_t i = 0; i < n; ++i) {
    std::string& item = items[i];
    for (std::size_t at; (at = item.find(kMark)) != std::string::npos;)
      item.erase(at, kMark.size());
    bytes += item.size();
  }
  return TokensForBytes(bytes);
}

class Cache {
 public:
  explicit Cache(std::size_t depth = kOpenAiLookupDepth) : cache_(depth) {}
  ResponsesCacheUsage Run(const std::string& body, std::int64_t now_ms) {
    auto parsed = ParseJson(body);
    EXPECT_TRUE(parsed.has_value());
    auto prompt = PromptBytesFromBody(*parsed);
    EXPECT_TRUE(prompt.has_value());
    return cache_.Lookup(*parsed, *prompt, now_ms);
  }
  ResponsesBreakpointCache cache_;
};

TEST(ResponsesBreakpointCache, ImplicitModeReadsThePreviousNewestMessageExactly) {
  Cache cache;
  const std::vector<std::string> first = {User('a', 6001)};
  ResponsesCacheUsage u1 = cache.Run(Body(first), 0);
  EXPECT_EQ(u1.cached_tokens, 0u);
  EXPECT_EQ(u1.cache_write_tokens, PrefixTokens(first, 1));  // the implicit breakpoint
  EXPECT_EQ(u1.ttl_12h_tokens, 0u);

  const std::vector<std::string> second = {first[0], AssistantMsg("done"), User('b', 3003)};
  ResponsesCacheUsage u2 = cache.Run(Body(second), 1000);
  const std::uint64_t read = PrefixTokens(second, 1);
  EXPECT_EQ(u2.cached_tokens, read);
  EXPECT_NE(read, Cacheable(read)) << "the read is exact, not rounded to 128-token blocks";
  EXPECT_EQ(u2.cache_write_tokens, PrefixTokens(second, 3) - read);
  EXPECT_LE(u2.cached_tokens + u2.cache_write_tokens, PrefixTokens(second, 3));
}

TEST(ResponsesBreakpointCache, NeverWritesAPrefixUnder1024Tokens) {
  Cache cache;
  const std::vector<std::string> small = {User('a', 3900)};  // < 4096 bytes in all
  ASSERT_LT(PrefixTokens(small, 1), 1024u);
  EXPECT_EQ(cache.Run(Body(small), 0).cache_write_tokens, 0u);
  EXPECT_EQ(cache.Run(Body(small), 10).cached_tokens, 0u);
  EXPECT_EQ(cache.cache_.EntryCount(), 0u);
}

TEST(ResponsesBreakpointCache, ExplicitModeCachesOnlyAtMarksAndWithoutThemNothing) {
  Cache cache;
  const std::string options = R"({"mode":"explicit"})";
  const std::vector<std::string> unmarked = {User('a', 6000), User('b', 6000)};
  EXPECT_EQ(cache.Run(Body(unmarked, options), 0).cache_write_tokens, 0u);
  EXPECT_EQ(cache.Run(Body(unmarked, options), 10).cached_tokens, 0u);
  EXPECT_EQ(cache.cache_.EntryCount(), 0u);

  const std::vector<std::string> marked = {User('a', 6000, true), User('b', 6000)};
  ResponsesCacheUsage w = cache.Run(Body(marked, options), 20);
  EXPECT_EQ(w.cache_write_tokens, PrefixTokens(marked, 1));  // the mark, not the newest message
  ResponsesCacheUsage r = cache.Run(Body(marked, options), 30);
  EXPECT_EQ(r.cached_tokens, PrefixTokens(marked, 1));
  EXPECT_EQ(r.cache_write_tokens, 0u);
}

TEST(ResponsesBreakpointCache, TheMarksAreNotPartOfThePrefix) {
  Cache cache;
  const std::vector<std::string> marked = {User('a', 6000, true), AssistantMsg("ok")};
  cache.Run(Body(marked), 0);
  // The same prefix without the mark (and a new newest message) reads it.
  const std::vector<std::string> next = {User('a', 6000), AssistantMsg("ok"), User('c', 5000)};
  EXPECT_EQ(cache.Run(Body(next), 10).cached_tokens, PrefixTokens(marked, 1));
}

TEST(ResponsesBreakpointCache, AMarkOnABlockThatTakesNoneIsIgnored) {
  // An assistant output_text block and a function call cannot carry a breakpoint.
  std::string assistant = AssistantMsg(std::string(6000, 'x'));
  assistant.insert(assistant.size() - 3, kMark);
  const std::string options = R"({"mode":"explicit"})";
  Cache cache;
  ResponsesCacheUsage u = cache.Run(Body({User('a', 10), assistant}, options), 0);
  EXPECT_EQ(u.cache_write_tokens, 0u);
  EXPECT_EQ(cache.cache_.EntryCount(), 0u);
  // In implicit mode the ignored mark changes neither the prefix nor the read.
  Cache with, without;
  const std::vector<std::string> base = {User('a', 6000), assistant, User('b', 100)};
  std::vector<std::string> plain = base;
  plain[1] = AssistantMsg(std::string(6000, 'x'));
  with.Run(Body(base), 0);
  without.Run(Body(plain), 0);
  const std::vector<std::string> next = {User('a', 6000), plain[1], User('b', 100), User('c', 100)};
  EXPECT_EQ(with.Run(Body(next), 10).cached_tokens, without.Run(Body(next), 10).cached_tokens);
  EXPECT_EQ(with.Run(Body(next), 20).cached_tokens, PrefixTokens(next, 4));
}

TEST(ResponsesBreakpointCache, LooksBackOnlyTheLookupDepth) {
  const std::string options = R"({"mode":"explicit"})";
  const std::vector<std::string> first = {User('a', 6000, true)};
  // Three new marks after the cached one: depth 3 examines only them, depth 4 reaches it.
  const std::vector<std::string> later = {User('a', 6000), User('b', 200, true),
                                          User('c', 200, true), User('d', 200, true)};
  Cache shallow(3), deep(4);
  shallow.Run(Body(first, options), 0);
  deep.Run(Body(first, options), 0);
  EXPECT_EQ(shallow.Run(Body(later, options), 10).cached_tokens, 0u);
  EXPECT_EQ(deep.Run(Body(later, options), 10).cached_tokens, PrefixTokens(later, 1));
}

TEST(ResponsesBreakpointCache, WritesAtMostFourPrefixesPerRequestTheNewestOnes) {
  OpenAiBreakpointCache cache;
  BreakpointCacheRequest r;
  for (std::uint64_t i = 0; i < 6; ++i) {
    r.prefix_ids.push_back(100 + i);
    r.prefix_tokens.push_back(2000 + 1000 * i);
    r.breakpoints.push_back(i);
  }
  BreakpointCacheResult w = cache.Run(r, 0);
  EXPECT_EQ(cache.EntryCount(), 4u);
  EXPECT_EQ(w.written, 7000u);
  // The two oldest were not written: a request ending at the second reads nothing.
  BreakpointCacheRequest older = r;
  older.prefix_ids.resize(2);
  older.prefix_tokens.resize(2);
  older.breakpoints = {1};
  EXPECT_EQ(cache.Run(older, 10).read, 0u);
  BreakpointCacheRequest third = r;
  third.prefix_ids.resize(3);
  third.prefix_tokens.resize(3);
  third.breakpoints = {2};
  EXPECT_EQ(cache.Run(third, 20).read, 4000u);
}

TEST(ResponsesBreakpointCache, EntriesLive30MinutesOr12HoursWhenAsked) {
  const std::vector<std::string> items = {User('a', 6000)};
  const std::int64_t thirty_minutes = 30 * 60 * 1000;
  Cache cache;
  cache.Run(Body(items), 0);
  EXPECT_EQ(cache.Run(Body(items), thirty_minutes).cached_tokens, PrefixTokens(items, 1));
  Cache expired;
  expired.Run(Body(items), 0);
  EXPECT_EQ(expired.Run(Body(items), thirty_minutes + 1).cached_tokens, 0u);

  const std::string twelve = R"({"mode":"implicit","ttl":"12h"})";
  Cache long_lived;
  ResponsesCacheUsage w = long_lived.Run(Body(items, twelve), 0);
  EXPECT_EQ(w.ttl_12h_tokens, w.cache_write_tokens);
  EXPECT_GT(w.ttl_12h_tokens, 0u);
  EXPECT_EQ(long_lived.Run(Body(items, twelve), 12 * 60 * 60 * 1000).cached_tokens,
            PrefixTokens(items, 1));
}

TEST(ResponsesBreakpointCache, ToolsAndSettingsAreInTheNamespace) {
  const std::vector<std::string> items = {User('a', 6000)};
  Cache cache;
  cache.Run(Body(items), 0);
  std::string effort = Body(items);
  effort.insert(effort.size() - 1, R"(,"reasoning":{"effort":"high"})");
  EXPECT_EQ(cache.Run(effort, 10).cached_tokens, 0u);
  std::string tools = Body(items);
  tools.replace(tools.find("read_file"), 9, "list_dir");
  EXPECT_EQ(cache.Run(tools, 20).cached_tokens, 0u);
  EXPECT_EQ(cache.Run(Body(items), 30).cached_tokens, PrefixTokens(items, 1));
}

JsonValue UsageOf(const std::string& sse) { return Usage(ParseSse(sse)); }

TEST(ResponsesBreakpointCache, TheMockReportsWritesForGpt56AndNotForOlderSlugs) {
  const std::vector<std::string> items = {User('a', 6000)};
  MockModel mock;
  std::string body = Body(items);
  body.insert(body.size() - 1, R"(,"stream":true)");
  auto first = mock.Handle("responses", body, 0);
  ASSERT_TRUE(first.has_value());
  const JsonValue u = UsageOf(*first);
  EXPECT_EQ(ToJson(*u.Find("input_tokens_details")),
            R"({"cached_tokens":0,"cache_write_tokens":)" + std::to_string(PrefixTokens(items, 1)) +
                R"(,"cache_write_tokens_details":{"ttl_12h_tokens":0,"ttl_30m_tokens":)" +
                std::to_string(PrefixTokens(items, 1)) + "}}");
  auto again = mock.Handle("responses", body, 10);
  const JsonValue u2 = UsageOf(*again);
  EXPECT_EQ(u2.Find("input_tokens_details")->GetInt("cached_tokens"),
            static_cast<std::int64_t>(PrefixTokens(items, 1)));
  EXPECT_EQ(u2.Find("input_tokens_details")->GetInt("cache_write_tokens"), 0);

  // An older slug: the exact-prefix rule (128-token blocks), no write fields.
  MockModel old;
  std::string old_body = Body(items, "", "gpt-5.5");
  old_body.insert(old_body.size() - 1, R"(,"stream":true)");
  ASSERT_TRUE(old.Handle("responses", old_body, 0).has_value());
  auto old_again = old.Handle("responses", old_body, 10);
  ASSERT_TRUE(old_again.has_value());
  EXPECT_EQ(old_again->find("cache_write_tokens"), std::string::npos);
  const JsonValue u3 = UsageOf(*old_again);
  const std::int64_t cached = u3.Find("input_tokens_details")->GetInt("cached_tokens").value();
  EXPECT_GE(cached, 1024);
  EXPECT_EQ((cached - 1024) % 128, 0);
}

TEST(ResponsesBreakpointCache, Gpt56DiagnosticsCountTheTokensTheCacheDidNotServe) {
  MockModel mock;
  const std::vector<std::string> first = {User('a', 6000), User('b', 6000)};
  auto r1 = mock.Handle("responses", Body(first), 0);
  ASSERT_TRUE(r1.has_value());
  const std::string id(ParseJson(*r1)->GetString("id").value());
  // The second message edited: the provider reads nothing of it (no breakpoint at the first
  // message was written), so every token is missed.
  const std::vector<std::string> second = {User('a', 6000), User('c', 6000)};
  auto r2 =
      mock.Handle("responses", Body(second, R"({"comparison_response_id":")" + id + "\"}"), 1);
  ASSERT_TRUE(r2.has_value());
  auto response = ParseJson(*r2);
  const JsonValue* d = response->Find("prompt_cache_diagnostics");
  ASSERT_NE(d, nullptr) << *r2;
  EXPECT_EQ(d->GetString("reason"), "input_changed");
  EXPECT_EQ(d->GetInt("cache_missed_tokens"),
            response->Find("usage")->GetInt("input_tokens").value());
  EXPECT_EQ(d->GetInt("comparison_reusable_tokens"),
            static_cast<std::int64_t>(PrefixTokens(second, 1)));
}

}  // namespace
}  // namespace agentctx
