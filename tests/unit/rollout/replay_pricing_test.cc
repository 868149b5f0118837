// SPDX-License-Identifier: MIT
// Replay costs per provider (rollout/replay_causes.h): an agentctx Anthropic rollout
// (token_count usage with cache_creation_input_tokens) is priced by Anthropic's rule unless the
// `provider` option says otherwise; writes cost their premium, reads 0.1x input, the repeated
// prefix is cacheable whole; OpenAI-priced reports keep their exact shape; the causes still add
// up to the uncached input; an Anthropic session of the engine replays with its own writes.
#include <gtest/gtest.h>

#include <string>

#include "protocol/json_codec.h"
#include "rollout/replay.h"
#include "rollout/replay_causes.h"
#include "support/session_driver.h"

namespace agentctx {
namespace {

std::uint64_t U(const JsonValue& v, std::string_view key) {
  std::optional<std::int64_t> n = v.GetInt(key);
  return n ? static_cast<std::uint64_t>(*n) : 0;
}

std::uint64_t SumOf(const JsonValue* causes) {
  std::uint64_t sum = 0;
  for (const JsonMember& m : causes->members())
    sum += static_cast<std::uint64_t>(*m.value.int_value());
  return sum;
}

JsonValue Replay(const std::string& text, ReplayOptions options = ReplayOptions()) {
  auto report = ReplayReport(text, options);
  EXPECT_TRUE(report.has_value()) << (report ? "" : report.error().message);
  if (!report) return JsonValue::Object();
  const JsonValue& s = *report->Find("summary");
  EXPECT_EQ(SumOf(s.Find("lost_tokens_by_cause")), U(s, "uncached_input_tokens"));
  for (const JsonValue& r : report->Find("requests")->items()) {
    if (r.Find("input_tokens")->is_null()) continue;
    EXPECT_EQ(SumOf(r.Find("lost_tokens_by_cause")), U(r, "uncached_input_tokens"));
  }
  return std::move(report).value();
}

const JsonValue& Request(const JsonValue& report, std::size_t i) {
  return report.Find("requests")->items().at(i);
}

// An agentctx-style rollout: token_count lines carry each response's usage (no running total),
// with Anthropic's cache writes when `writes`. 5000 → 5600 input tokens.
std::string TwoResponses(std::uint64_t second_cached, std::uint64_t second_write,
                         bool writes = true, const std::string& model = "claude-x") {
  auto line = [](const std::string& type, const std::string& payload) {
    return R"({"timestamp":"2026-01-01T00:00:00.000Z","type":")" + type + R"(","payload":)" +
           payload + "}\n";
  };
  auto usage = [&](std::uint64_t input, std::uint64_t cached, std::uint64_t write) {
    std::string w = writes ? R"(,"cache_creation_input_tokens":)" + std::to_string(write) : "";
    return line("event_msg",
                R"({"type":"token_count","info":{"last_token_usage":{"input_tokens":)" +
                    std::to_string(input) + R"(,"cached_input_tokens":)" + std::to_string(cached) +
                    w + R"(,"output_tokens":10}}})");
  };
  auto message = [&](const std::string& role, const std::string& type, const std::string& text) {
    return line("response_item", R"({"type":"message","role":")" + role +
                                     R"(","content":[{"type":")" + type + R"(","text":")" + text +
                                     R"("}]})");
  };
  return line("session_meta", R"({"id":"s-ant","cli_version":"0.1.0"})") +
         line("turn_context",
              R"({"cwd":"/r","approval_policy":"never","model":")" + model + R"("})") +
         message("user", "input_text", "go") + message("assistant", "output_text", "ok") +
         usage(5000, 0, 5000) + message("user", "input_text", "next") +
         message("assistant", "output_text", "done") + usage(5600, second_cached, second_write);
}

TEST(ReplayPricing, AnthropicRolloutsArePricedByAnthropicsRule) {
  // Unset provider: the usage reports cache writes, so Anthropic's rule applies. At the default
  // $1.25 input: reads $0.125 (0.1x), writes $1.5625 (1.25x), output $10.
  JsonValue report = Replay(TwoResponses(5000, 600));
  const JsonValue& s = *report.Find("summary");
  EXPECT_EQ(ToJson(*s.Find("pricing")), R"("anthropic")");
  EXPECT_EQ(U(s, "cache_write_input_tokens"), 5600u);
  EXPECT_EQ(ToJson(*s.Find("prices_per_million_usd")),
            R"({"input":1.25,"cached_input":0.125,"cache_write":1.5625,"output":10})");
  // 5000 read · 0.125 + 5600 uncached · 1.25 + 5600 written · 0.3125 more + 20 output · 10.
  EXPECT_EQ(ToJson(*s.Find("cost")),
            R"({"cached_input_usd":0.000625,"uncached_input_usd":0.007,)"
            R"("cache_write_extra_usd":0.00175,"output_usd":0.0002,"total_usd":0.009575,)"
            R"("by_cause_usd":{"new_input":0.007},"lost_extra_usd":0})");
  EXPECT_EQ(U(Request(report, 1), "cache_write_input_tokens"), 600u);
  EXPECT_EQ(ToJson(*Request(report, 0).Find("cost_usd")), "0.0079125");
  EXPECT_EQ(ToJson(*Request(report, 1).Find("cost_usd")), "0.0016625");
  EXPECT_NE(RenderReplayTable(report).find("per million input / cache read / cache write / "
                                           "output (Anthropic pricing, 5,600 tokens written)"),
            std::string::npos);
}

TEST(ReplayPricing, OneHourWritesArePricedAtTheOneHourRate) {
  // The second response wrote 600 tokens, 400 of them for 1 h (agentctx records Anthropic's
  // split as cache_creation_1h_input_tokens): their premium is 1x input, the 5 min one 0.25x.
  std::string text = TwoResponses(5000, 600);
  const std::string second = R"("cache_creation_input_tokens":600)";
  ASSERT_NE(text.find(second), std::string::npos);
  text.replace(text.find(second), second.size(),
               second + R"(,"cache_creation_1h_input_tokens":400)");
  JsonValue report = Replay(text);
  const JsonValue& s = *report.Find("summary");
  EXPECT_EQ(U(s, "cache_write_input_tokens"), 5600u);
  EXPECT_EQ(U(s, "cache_write_1h_input_tokens"), 400u);
  EXPECT_EQ(ToJson(*s.Find("prices_per_million_usd")),
            R"({"input":1.25,"cached_input":0.125,"cache_write":1.5625,"cache_write_1h":2.5,)"
            R"("output":10})");
  // Premium: 5200 · 0.3125 + 400 · 1.25 = 2125 micro-USD.
  EXPECT_EQ(ToJson(*s.Find("cost")->Find("cache_write_extra_usd")), "0.002125");
  EXPECT_EQ(ToJson(*s.Find("cost")->Find("total_usd")), "0.00995");
  EXPECT_EQ(ToJson(*Request(report, 1).Find("cost_usd")), "0.0020375");
  EXPECT_EQ(U(Request(report, 1), "cache_write_1h_input_tokens"), 400u);
  EXPECT_EQ(Request(report, 0).Find("cache_write_1h_input_tokens"), nullptr);  // none recorded
  EXPECT_NE(RenderReplayTable(report).find(
                "per million input / cache read / cache write (5 min) / cache write (1 h) / "
                "output (Anthropic pricing, 5,600 tokens written, 400 of them for 1 h)"),
            std::string::npos);
  // A 1 h count over the writes is clamped to them; an explicit write price applies to both.
  text.replace(text.find(R"("cache_creation_1h_input_tokens":400)"), 36,
               R"("cache_creation_1h_input_tokens":900)");
  EXPECT_EQ(U(*Replay(text).Find("summary"), "cache_write_1h_input_tokens"), 600u);
  ReplayOptions options;
  options.prices.cache_write = 2500000;
  EXPECT_EQ(
      ToJson(*Replay(text, options).Find("summary")->Find("cost")->Find("cache_write_extra_usd")),
      "0.007");  // 5600 · (2.5 − 1.25)
}

TEST(ReplayPricing, AnthropicCachesTheWholePrefixAndTheProviderOptionWins) {
  // The second request reads only 4000 of the 5000 repeated tokens. Anthropic caches the whole
  // prefix: 1000 lost. OpenAI's rule (forced) caches 128-token blocks: 4992 − 4000 = 992 lost.
  JsonValue anthropic = Replay(TwoResponses(4000, 1600));
  EXPECT_EQ(U(Request(anthropic, 1), "lost_tokens"), 1000u);
  EXPECT_EQ(U(Request(anthropic, 1), "ideal_cached_tokens"), 5000u);
  ReplayOptions openai;
  openai.provider = Provider::kResponses;
  JsonValue forced = Replay(TwoResponses(4000, 1600), openai);
  EXPECT_EQ(U(Request(forced, 1), "lost_tokens"), 992u);
  EXPECT_EQ(forced.Find("summary")->Find("pricing"), nullptr);
  EXPECT_EQ(Request(forced, 1).Find("cache_write_input_tokens"), nullptr);
  EXPECT_EQ(forced.Find("summary")->Find("cost")->Find("cache_write_extra_usd"), nullptr);
}

TEST(ReplayPricing, AGpt56RolloutWithWritesIsPricedByOpenAisWriteRule) {
  // Writes in the usage and no provider option: a GPT-5.6+ model is OpenAI's (writes at 1.25×,
  // 128-token blocks), not Anthropic's.
  JsonValue report = Replay(TwoResponses(4000, 1600, true, "gpt-5.6"));
  const JsonValue& s = *report.Find("summary");
  EXPECT_EQ(ToJson(*s.Find("pricing")), R"("openai")");
  EXPECT_EQ(U(s, "cache_write_input_tokens"), 6600u);
  EXPECT_EQ(ToJson(*s.Find("prices_per_million_usd")),
            R"({"input":1.25,"cached_input":0.125,"cache_write":1.5625,"output":10})");
  EXPECT_EQ(ToJson(*s.Find("cost")->Find("cache_write_extra_usd")), "0.0020625");  // 6600 · 0.3125
  EXPECT_EQ(U(Request(report, 1), "lost_tokens"), 992u);  // 4992 cacheable, 4000 read
  EXPECT_NE(RenderReplayTable(report).find("(OpenAI pricing, 6,600 tokens written)"),
            std::string::npos)
      << RenderReplayTable(report);
  // The same rollout of an Anthropic model keeps Anthropic's rule.
  EXPECT_EQ(ToJson(*Replay(TwoResponses(4000, 1600)).Find("summary")->Find("pricing")),
            R"("anthropic")");
}

TEST(ReplayPricing, WithoutWritesOpenAiPricesUnlessAnthropicIsAsked) {
  // No cache_creation_input_tokens: OpenAI's rule, the report without the Anthropic keys.
  JsonValue plain = Replay(TwoResponses(4992, 0, false));
  EXPECT_EQ(plain.Find("summary")->Find("pricing"), nullptr);
  EXPECT_EQ(ToJson(*plain.Find("summary")->Find("prices_per_million_usd")),
            R"({"input":1.25,"cached_input":0.125,"output":10})");
  // Asked for: Anthropic's multipliers of the typed input price, an explicit write price.
  ReplayOptions options;
  options.provider = Provider::kAnthropic;
  options.prices.input = 3000000;
  options.prices.cache_write = 6000000;  // 1 h writes: 2x
  JsonValue priced = Replay(TwoResponses(4992, 0, false), options);
  const JsonValue& s = *priced.Find("summary");
  EXPECT_EQ(ToJson(*s.Find("pricing")), R"("anthropic")");
  EXPECT_EQ(U(s, "cache_write_input_tokens"), 0u);
  EXPECT_EQ(ToJson(*s.Find("prices_per_million_usd")),
            R"({"input":3,"cached_input":0.3,"cache_write":6,"output":10})");
}

TEST(ReplayPricing, AnEngineAnthropicSessionReplaysWithItsWrites) {
  testing::SessionDriver d;
  ASSERT_TRUE(d.fs()->AddFile("/repo/a.txt", "one\n").has_value());
  d.Start(R"({"session_id":"ant-1","model":{"slug":"mock-1"},"provider":"anthropic",)"
          R"("environments":[{"id":"local","cwd":"/repo","fs":"workspace"}]})");
  std::uint64_t writes = 0, input = 0, cached = 0;
  for (const char* text : {"Please read a.txt.", "Thanks."}) {
    for (const JsonValue& e : d.Submit(text, 1000)) {
      const JsonValue* event = e.Find("event");
      if (event == nullptr || event->GetString("type") != "token_usage") continue;
      writes += U(*event, "cache_creation_tokens");
      input += U(*event, "input_tokens");
      cached += U(*event, "cached_tokens");
    }
  }
  ASSERT_GT(writes, 0u);
  JsonValue report = Replay(d.RolloutText());
  const JsonValue& s = *report.Find("summary");
  EXPECT_EQ(ToJson(*s.Find("pricing")), R"("anthropic")");
  EXPECT_EQ(U(s, "cache_write_input_tokens"), writes);
  EXPECT_EQ(U(s, "input_tokens"), input);
  EXPECT_EQ(U(s, "cached_input_tokens"), cached);
}

TEST(ReplayPricing, AnEngineSessionWithOneHourMarksRecordsAndReplaysItsSplit) {
  // cache_ttl 1h: the stable marks are 1 h marks, the newest a 5 min one; the mock reports
  // usage.cache_creation like the Messages API, the session records the split, the replay and
  // the engine's own cost price it.
  testing::SessionDriver d;
  ASSERT_TRUE(d.fs()->AddFile("/repo/a.txt", "one\n").has_value());
  d.Start(R"({"session_id":"ant-2","model":{"slug":"mock-1"},"provider":"anthropic",)"
          R"("anthropic":{"cache_ttl":"1h","min_cacheable_tokens":256},)"
          R"("environments":[{"id":"local","cwd":"/repo","fs":"workspace"}]})");
  std::uint64_t writes = 0, writes_1h = 0;
  for (const char* text : {"Please read a.txt.", "Thanks.", "And again."}) {
    for (const JsonValue& e : d.Submit(text, 1000)) {
      const JsonValue* event = e.Find("event");
      if (event == nullptr || event->GetString("type") != "token_usage") continue;
      ASSERT_NE(event->Find("cache_creation_1h_tokens"), nullptr) << ToJson(*event);
      EXPECT_LE(U(*event, "cache_creation_1h_tokens"), U(*event, "cache_creation_tokens"));
      writes += U(*event, "cache_creation_tokens");
      writes_1h += U(*event, "cache_creation_1h_tokens");
    }
  }
  ASSERT_GT(writes_1h, 0u);
  ASSERT_GT(writes, writes_1h);  // the newest mark's 5 min writes
  EXPECT_NE(d.RolloutText().find(R"("cache_creation_1h_input_tokens":)"), std::string::npos);
  JsonValue report = Replay(d.RolloutText());
  const JsonValue& s = *report.Find("summary");
  EXPECT_EQ(U(s, "cache_write_input_tokens"), writes);
  EXPECT_EQ(U(s, "cache_write_1h_input_tokens"), writes_1h);
}

}  // namespace
}  // namespace agentctx
