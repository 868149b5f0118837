// SPDX-License-Identifier: MIT
// Cold prompt caches (provider/cache/cold_cache.h, docs/providers.md "Cold resume"): the TTL
// per provider, the cold/warm cost estimate, the prewarm rule, the `cache_cold` event on resume
// and at a turn start after an idle gap, and the prewarm request of both providers, including
// its refusal by the endpoint and bad config.
#include "provider/cache/cold_cache.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "protocol/json_codec.h"
#include "support/effect_filters.h"
#include "support/session_driver.h"

namespace agentctx {
namespace {

using testing::EventsOfType;

using testing::SessionDriver;

constexpr std::int64_t kMinute = 60000;

// --- The pure rule ------------------------------------------------------------------------------

TEST(ColdCacheRule, TtlPerProviderAndModel) {
  const auto openai = CachePricing::kOpenAi;
  const auto anthropic = CachePricing::kAnthropic;
  EXPECT_EQ(PromptCacheTtlMs(openai, "gpt-5.5", true, OpenAiCacheTtl::k12h, CacheTtl::k5m),
            5 * kMinute);
  EXPECT_EQ(PromptCacheTtlMs(openai, "gpt-5.6", false, OpenAiCacheTtl::k12h, CacheTtl::k5m),
            30 * kMinute);  // the configured TTL is only sent with cache_breakpoints
  EXPECT_EQ(PromptCacheTtlMs(openai, "gpt-5.6", true, OpenAiCacheTtl::k30m, CacheTtl::k5m),
            30 * kMinute);
  EXPECT_EQ(PromptCacheTtlMs(openai, "gpt-5.6", true, OpenAiCacheTtl::k12h, CacheTtl::k5m),
            12 * 60 * kMinute);
  EXPECT_EQ(PromptCacheTtlMs(anthropic, "claude-x", false, OpenAiCacheTtl::k12h, CacheTtl::k5m),
            5 * kMinute);
  EXPECT_EQ(PromptCacheTtlMs(anthropic, "claude-x", false, OpenAiCacheTtl::k30m, CacheTtl::k1h),
            60 * kMinute);
}

ColdCacheInputs Inputs(std::int64_t idle_ms, std::uint64_t tokens) {
  ColdCacheInputs in;
  in.last_request_ms = 1000;
  in.now_ms = 1000 + idle_ms;
  in.ttl_ms = 5 * kMinute;
  in.prompt_tokens = tokens;
  in.rule = CachePricing::kAnthropic;
  in.model = "claude-x";
  in.prices.input = 3000000;  // $3 per million
  return in;
}

TEST(ColdCacheRule, WarmOrUnknownIsNotCold) {
  EXPECT_FALSE(EstimateColdCache(Inputs(5 * kMinute, 5000)));  // exactly the TTL: still warm
  ColdCacheInputs unknown = Inputs(60 * kMinute, 5000);
  unknown.last_request_ms.reset();
  EXPECT_FALSE(EstimateColdCache(unknown));
  ColdCacheInputs disabled = Inputs(60 * kMinute, 5000);
  disabled.ttl_ms = 0;
  EXPECT_FALSE(EstimateColdCache(disabled));
}

TEST(ColdCacheRule, CostsAtTheWriteAndReadPrices) {
  auto cold = EstimateColdCache(Inputs(5 * kMinute + 1, 10000));
  ASSERT_TRUE(cold);
  EXPECT_EQ(cold->idle_ms, 5 * kMinute + 1);
  // Anthropic 5 m: writes 1.25 × $3 = $3.75/M, reads 0.1 × $3 = $0.30/M.
  EXPECT_EQ(ToJson(ColdCacheEvent(*cold, "resume", false)),
            R"({"type":"cache_cold","trigger":"resume","idle_ms":300001,"cache_ttl_ms":300000,)"
            R"("prompt_tokens":10000,"cost_usd":0.0375,"warm_cost_usd":0.003,"prewarm":false})");
  ColdCacheInputs hour = Inputs(2 * 60 * kMinute, 10000);
  hour.one_hour_writes = true;
  EXPECT_EQ(EstimateColdCache(hour)->cold_picousd, 10000ULL * 6000000ULL);  // 2 × input
  // OpenAI before GPT-5.6 bills no write premium: cold = uncached input.
  ColdCacheInputs old = Inputs(60 * kMinute, 10000);
  old.rule = CachePricing::kOpenAi;
  old.model = "gpt-5.5";
  old.prices.cached_input = 300000;
  EXPECT_EQ(EstimateColdCache(old)->cold_picousd, 10000ULL * 3000000ULL);
  old.model = "gpt-5.6";
  EXPECT_EQ(EstimateColdCache(old)->cold_picousd, 10000ULL * 3750000ULL);
  EXPECT_EQ(EstimateColdCache(old)->warm_picousd, 10000ULL * 300000ULL);
}

TEST(ColdCacheRule, PrewarmOnlyForACacheablePromptWithCheaperReads) {
  EXPECT_TRUE(PrewarmPays(*EstimateColdCache(Inputs(60 * kMinute, 5000))));
  // Under the model's minimum cacheable prefix nothing would be written.
  EXPECT_FALSE(PrewarmPays(*EstimateColdCache(Inputs(60 * kMinute, 100))));
  // Reads priced like uncached input: the warm request gains nothing.
  ColdCacheInputs flat = Inputs(60 * kMinute, 5000);
  flat.prices.cached_input = flat.prices.input;
  flat.prices.cached_input_given = true;
  EXPECT_FALSE(PrewarmPays(*EstimateColdCache(flat)));
}

// --- Sessions against the mock
// --------------------------------------------------------------------

std::string Config(std::string_view model, std::string_view extra = "") {
  return R"({"session_id":"cold-1","model":{"slug":")" + std::string(model) +
         R"(","instructions":"Be helpful."},"approval_policy":"never",)"
         R"("environments":[{"id":"local","cwd":"/repo","shell":"bash","fs":"workspace"}])" +
         std::string(extra) + "}";
}

std::vector<JsonValue> EffectsOf(const std::string& envelope) {
  JsonValue env = ParseJson(envelope).value();
  EXPECT_TRUE(env.GetBool("ok").value_or(false)) << envelope;
  std::vector<JsonValue> out;
  const JsonValue* value = env.Find("value");
  const JsonValue* effects = value != nullptr ? value->Find("effects") : nullptr;
  if (effects != nullptr) {
    for (const auto& e : effects->items()) out.push_back(e);
  }
  return out;
}

// A first message long enough for a cacheable prompt (over 1 024 tokens).
const std::string kLongTask = "Summarise the design. " + std::string(6000, 'x');

// Runs one turn at t=1000 and returns the rollout.
std::string FirstSession(const std::string& config) {
  SessionDriver d;
  EXPECT_TRUE(d.fs()->AddDir("/repo").has_value());
  EXPECT_NE(d.Start(config).find("\"ok\":true"), std::string::npos);
  d.Submit(kLongTask, 1000);
  return d.RolloutText();
}

std::vector<JsonValue> Resume(SessionDriver* d, const std::string& config,
                              const std::string& rollout, std::int64_t now_ms) {
  EXPECT_TRUE(d->fs()->AddDir("/repo").has_value());
  return EffectsOf(d->Call("session.resume", "{\"config\":" + config +
                                                 ",\"rollout\":" + JsonString(rollout) +
                                                 ",\"now_ms\":" + std::to_string(now_ms) + "}"));
}

TEST(SessionColdCache, ResumePastTheTtlWarnsWithACost) {
  const std::string config = Config("gpt-5.6", R"(,"cache_prices":{"input":2,"cached_input":0.2})");
  const std::string rollout = FirstSession(config);
  SessionDriver d;
  auto effects = Resume(&d, config, rollout, 1000 + 31 * kMinute);
  auto cold = EventsOfType(effects, "cache_cold");
  ASSERT_EQ(cold.size(), 1u);
  EXPECT_EQ(cold[0].GetString("trigger"), "resume");
  EXPECT_EQ(cold[0].GetInt("idle_ms"), 31 * kMinute);
  EXPECT_EQ(cold[0].GetInt("cache_ttl_ms"), 30 * kMinute);  // GPT-5.6
  const std::int64_t tokens = cold[0].GetInt("prompt_tokens").value_or(0);
  EXPECT_GT(tokens, 1024);
  // Cold: every prompt token written at 1.25 × $2/M; warm: read at $0.20/M.
  EXPECT_NEAR(std::stod(ToJson(*cold[0].Find("cost_usd"))), tokens * 2.5e-6, 1e-12);
  EXPECT_NEAR(std::stod(ToJson(*cold[0].Find("warm_cost_usd"))), tokens * 0.2e-6, 1e-12);
  EXPECT_EQ(cold[0].GetBool("prewarm"), false);  // prewarm is off by default
  // The first turn after the resume does not warn again, and sends no prewarm.
  auto turn = d.Submit("go on", 1000 + 31 * kMinute);
  EXPECT_TRUE(EventsOfType(turn, "cache_cold").empty());
  ASSERT_EQ(d.request_bodies().size(), 1u);
  EXPECT_EQ(d.request_bodies()[0].find("prewarm"), std::string::npos);
}

TEST(SessionColdCache, ResumeWithinTheTtlDoesNotWarn) {
  const std::string config = Config("gpt-5.6", R"(,"prewarm":"auto")");
  const std::string rollout = FirstSession(config);
  SessionDriver d;
  auto effects = Resume(&d, config, rollout, 1000 + 29 * kMinute);
  EXPECT_TRUE(EventsOfType(effects, "cache_cold").empty());
  auto turn = d.Submit("go on", 1000 + 29 * kMinute);
  EXPECT_TRUE(EventsOfType(turn, "cache_cold").empty());
  ASSERT_EQ(d.request_bodies().size(), 1u);  // warm: no prewarm even with auto
  // An older model's cache lasts 5 minutes: 6 minutes later it is cold.
  const std::string old = Config("gpt-5.5");
  SessionDriver o;
  auto old_effects = Resume(&o, old, FirstSession(old), 1000 + 6 * kMinute);
  ASSERT_EQ(EventsOfType(old_effects, "cache_cold").size(), 1u);
}

std::string WithoutMember(std::string body, std::string_view member) {
  const std::size_t at = body.find(member);
  if (at != std::string::npos) body.erase(at, member.size());
  return body;
}

TEST(SessionColdCache, PrewarmAutoSendsThePrewarmFirstThenTheTurn) {
  const std::string config =
      Config("gpt-5.6", R"(,"prewarm":"auto","provider_features":{"cache_diagnostics":false})");
  const std::string rollout = FirstSession(config);
  SessionDriver d;
  auto resumed = Resume(&d, config, rollout, 1000 + 40 * kMinute);
  auto cold = EventsOfType(resumed, "cache_cold");
  ASSERT_EQ(cold.size(), 1u);
  EXPECT_EQ(cold[0].GetBool("prewarm"), true);
  auto turn = d.Submit("go on", 1000 + 40 * kMinute);
  ASSERT_EQ(d.request_bodies().size(), 2u);
  const std::string& prewarm = d.request_bodies()[0];
  const std::string& real = d.request_bodies()[1];
  EXPECT_NE(prewarm.find(R"("prompt_cache_options":{"prewarm":true)"), std::string::npos)
      << prewarm;
  EXPECT_EQ(real.find("prewarm"), std::string::npos);
  // The same body but for the prewarm parameter (a merged member, or a lone object).
  std::string stripped = WithoutMember(prewarm, R"("prewarm":true,)");
  stripped = WithoutMember(stripped, R"(,"prompt_cache_options":{"prewarm":true})");
  EXPECT_EQ(stripped, real);
  // The prewarm's usage is recorded (its own token_usage); its answer adds no history.
  auto usage = EventsOfType(turn, "token_usage");
  ASSERT_EQ(usage.size(), 2u);
  EXPECT_EQ(usage[0].GetInt("output_tokens"), 0);
  EXPECT_GT(usage[0].GetInt("input_tokens").value_or(0), 1024);
  EXPECT_GT(usage[1].GetInt("cached_tokens").value_or(0), 1024);  // the real request read it
  std::size_t model_items = 0;
  for (const auto& e : EventsOfType(turn, "item_done")) {
    const JsonValue* item = e.Find("item");
    if (e.GetString("origin") == "model" && item->GetString("type") == "message") ++model_items;
  }
  EXPECT_EQ(model_items, 1u);  // the real answer only: the prewarm answered nothing
  ASSERT_FALSE(turn.empty());
  EXPECT_EQ(turn.back().GetString("type"), "turn_complete");
  EXPECT_EQ(turn.back().GetString("reason"), "completed");
}

TEST(SessionColdCache, AnIdleGapWithoutResumeWarnsAtTheTurnStart) {
  const std::string config = Config("gpt-5.6", R"(,"prewarm":"auto")");
  SessionDriver d;
  ASSERT_TRUE(d.fs()->AddDir("/repo").has_value());
  d.Start(config);
  EXPECT_TRUE(EventsOfType(d.Submit(kLongTask, 1000), "cache_cold").empty());  // first request
  auto later = d.Submit("and now?", 1000 + 45 * kMinute);
  auto cold = EventsOfType(later, "cache_cold");
  ASSERT_EQ(cold.size(), 1u);
  EXPECT_EQ(cold[0].GetString("trigger"), "turn_start");
  EXPECT_EQ(cold[0].GetInt("idle_ms"), 45 * kMinute);
  ASSERT_EQ(d.request_bodies().size(), 3u);  // first, prewarm, real
  EXPECT_NE(d.request_bodies()[1].find(R"("prewarm":true)"), std::string::npos);
  EXPECT_EQ(d.request_bodies()[2].find("prewarm"), std::string::npos);
}

TEST(SessionColdCache, PrewarmOffOrFeatureOffSendsNone) {
  // Off (the default) at the official endpoint.
  const std::string off = Config("gpt-5.6");
  SessionDriver a;
  Resume(&a, off, FirstSession(off), 1000 + 40 * kMinute);
  a.Submit("go on", 1000 + 40 * kMinute);
  ASSERT_EQ(a.request_bodies().size(), 1u);
  // Auto, but another endpoint: the feature is off automatically.
  const std::string other =
      Config("gpt-5.6", R"(,"prewarm":"auto","base_url":"https://proxy.example/v1")");
  SessionDriver b;
  auto cold =
      EventsOfType(Resume(&b, other, FirstSession(other), 1000 + 40 * kMinute), "cache_cold");
  ASSERT_EQ(cold.size(), 1u);
  EXPECT_EQ(cold[0].GetBool("prewarm"), false);
  b.Submit("go on", 1000 + 40 * kMinute);
  ASSERT_EQ(b.request_bodies().size(), 1u);
  EXPECT_EQ(b.request_bodies()[0].find("prewarm"), std::string::npos);
  // Auto on an older model: the provider has no prewarm.
  const std::string old = Config("gpt-5.5", R"(,"prewarm":"auto")");
  SessionDriver c;
  Resume(&c, old, FirstSession(old), 1000 + 40 * kMinute);
  c.Submit("go on", 1000 + 40 * kMinute);
  ASSERT_EQ(c.request_bodies().size(), 1u);
}

TEST(SessionColdCache, ARefusedPrewarmGoesThroughTheRefusalPathThenTheTurn) {
  const std::string config = Config("gpt-5.6", R"(,"prewarm":"auto")");
  const std::string rollout = FirstSession(config);
  SessionDriver d;
  Resume(&d, config, rollout, 1000 + 40 * kMinute);
  d.fail = [](const std::string&,
              const std::string& body) -> std::optional<std::pair<int, std::string>> {
    if (body.find(R"("prewarm":true)") == std::string::npos) return std::nullopt;
    return std::make_pair(400,
                          std::string(R"({"error":{"message":"Unknown parameter: prewarm"}})"));
  };
  auto turn = d.Submit("go on", 1000 + 40 * kMinute);
  auto warnings = EventsOfType(turn, "warning");
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].GetString("code"), "provider_feature_refused");
  EXPECT_NE(warnings[0].GetString("message").value_or("").find("prewarm"), std::string::npos);
  ASSERT_EQ(d.request_bodies().size(), 2u);
  EXPECT_EQ(d.request_bodies()[1].find("prewarm"), std::string::npos);
  EXPECT_EQ(turn.back().GetString("type"), "turn_complete");
  EXPECT_EQ(turn.back().GetString("reason"), "completed");
  // Persisted: the next cold turn sends no prewarm.
  EXPECT_NE(d.RolloutText().find("provider_feature_refused"), std::string::npos);
  d.Submit("later", 1000 + 90 * kMinute);
  ASSERT_EQ(d.request_bodies().size(), 3u);
  EXPECT_EQ(d.request_bodies()[2].find("prewarm"), std::string::npos);
}

TEST(SessionColdCache, AnthropicPrewarmsWithMaxTokensZero) {
  const std::string config = Config(
      "claude-sonnet-5-5",
      R"(,"provider":"anthropic","prewarm":"auto","provider_features":{"cache_diagnostics":false})");
  const std::string rollout = FirstSession(config);
  SessionDriver d;
  auto cold = EventsOfType(Resume(&d, config, rollout, 1000 + 6 * kMinute), "cache_cold");
  ASSERT_EQ(cold.size(), 1u);
  EXPECT_EQ(cold[0].GetInt("cache_ttl_ms"), 5 * kMinute);
  EXPECT_EQ(cold[0].GetBool("prewarm"), true);
  auto turn = d.Submit("go on", 1000 + 6 * kMinute);
  ASSERT_EQ(d.request_bodies().size(), 2u);
  EXPECT_NE(d.request_bodies()[0].find(R"("max_tokens":0,)"), std::string::npos);
  EXPECT_NE(d.request_bodies()[1].find(R"("max_tokens":8192,)"), std::string::npos);
  std::string stripped = d.request_bodies()[0];
  const std::string zero = R"("max_tokens":0,)";
  stripped.replace(stripped.find(zero), zero.size(), R"("max_tokens":8192,)");
  EXPECT_EQ(stripped, d.request_bodies()[1]);
  EXPECT_EQ(turn.back().GetString("reason"), "completed");
  // With 1 h stable marks the cache lasts an hour: 6 minutes is warm.
  const std::string hour =
      Config("claude-sonnet-5-5", R"(,"provider":"anthropic","anthropic":{"cache_ttl":"1h"})");
  SessionDriver h;
  EXPECT_TRUE(
      EventsOfType(Resume(&h, hour, FirstSession(hour), 1000 + 6 * kMinute), "cache_cold").empty());
}

TEST(SessionColdCache, BadConfigIsRefusedNamingTheKey) {
  SessionDriver d;
  ASSERT_TRUE(d.fs()->AddDir("/repo").has_value());
  std::string env = d.Start(Config("gpt-5.6", R"(,"prewarm":"sometimes")"));
  EXPECT_NE(env.find("invalid_config"), std::string::npos);
  EXPECT_NE(env.find("prewarm"), std::string::npos);
  SessionDriver e;
  ASSERT_TRUE(e.fs()->AddDir("/repo").has_value());
  env = e.Start(Config("gpt-5.6", R"(,"cache_prices":{"input":-1})"));
  EXPECT_NE(env.find("invalid_config"), std::string::npos);
  EXPECT_NE(env.find("cache_prices"), std::string::npos);
  SessionDriver f;
  ASSERT_TRUE(f.fs()->AddDir("/repo").has_value());
  env = f.Start(Config("gpt-5.6", R"(,"cache_prices":[1])"));
  EXPECT_NE(env.find("invalid_config"), std::string::npos);
}

}  // namespace
}  // namespace agentctx
