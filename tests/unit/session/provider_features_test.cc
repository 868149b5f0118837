// SPDX-License-Identifier: MIT
// The provider-feature switchboard and its refusal path: an endpoint that answers HTTP 400 naming
// a feature's parameter turns that feature off for the rest of the session (one
// provider_feature_refused warning, persisted, kept by a resume) and gets the request again
// without it — once; a second refusal is an ordinary error. Tested with prompt_cache_key, a
// field every Responses body carried before the switchboard existed.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "protocol/json_codec.h"
#include "provider/features.h"
#include "support/session_driver.h"

namespace agentctx {
namespace {

using testing::SessionDriver;

const std::string kConfigHead =
    R"({"session_id":"feat-1","model":{"slug":"mock-1","instructions":"Be helpful."},)"
    R"("approval_policy":"never",)"
    R"("environments":[{"id":"local","cwd":"/repo","shell":"bash","fs":"workspace"}])";

std::string Config(const std::string& extra = "") { return kConfigHead + extra + "}"; }

// The error body of an OpenAI endpoint that does not take a parameter.
std::string Unsupported(const std::string& param) {
  return R"({"error":{"message":"Unsupported parameter: ')" + param +
         R"('.","type":"invalid_request_error","param":")" + param +
         R"(","code":"unsupported_parameter"}})";
}

bool HasKey(const std::string& body) {
  return body.find("\"prompt_cache_key\"") != std::string::npos;
}

std::vector<const JsonValue*> Effects(const std::vector<JsonValue>& all, std::string_view type) {
  std::vector<const JsonValue*> out;
  for (const auto& e : all) {
    if (e.GetString("type") == type) out.push_back(&e);
  }
  return out;
}

// The warning events among `all` (effects of type event whose event is a warning).
std::vector<const JsonValue*> Warnings(const std::vector<JsonValue>& all) {
  std::vector<const JsonValue*> out;
  for (const JsonValue* e : Effects(all, "event")) {
    const JsonValue* event = e->Find("event");
    if (event != nullptr && event->GetString("type") == "warning") out.push_back(event);
  }
  return out;
}

std::vector<std::string> WarningCodes(const std::vector<JsonValue>& all) {
  std::vector<std::string> out;
  for (const JsonValue* w : Warnings(all)) out.emplace_back(w->GetString("code").value_or(""));
  return out;
}

void Seed(SessionDriver* d) { ASSERT_TRUE(d->fs()->AddDir("/repo").has_value()); }

// An endpoint that refuses prompt_cache_key and otherwise answers like the mock.
void RefuseCacheKey(SessionDriver* d) {
  d->fail = [](const std::string&,
               const std::string& body) -> std::optional<std::pair<int, std::string>> {
    if (HasKey(body)) return std::make_pair(400, Unsupported("prompt_cache_key"));
    return std::nullopt;
  };
}

TEST(ProviderFeatures, ARefusedFeatureIsTurnedOffWarnedPersistedAndTheRequestSentAgain) {
  SessionDriver d;
  Seed(&d);
  RefuseCacheKey(&d);
  ASSERT_NE(d.Start(Config()).find("\"ok\":true"), std::string::npos);
  auto first = d.Submit("hello", 1000);
  ASSERT_EQ(d.request_bodies().size(), 2u);
  EXPECT_TRUE(HasKey(d.request_bodies()[0]));
  EXPECT_FALSE(HasKey(d.request_bodies()[1]));
  // Apart from the key, the resent body is the refused one.
  std::string without = d.request_bodies()[0];
  const std::size_t at = without.find(",\"prompt_cache_key\":");
  ASSERT_NE(at, std::string::npos);
  without.erase(at, without.find('"', at + 21) + 1 - at);
  EXPECT_EQ(without, d.request_bodies()[1]);

  auto codes = WarningCodes(first);
  EXPECT_EQ(std::count(codes.begin(), codes.end(), "provider_feature_refused"), 1);
  for (const JsonValue* w : Warnings(first)) {
    if (w->GetString("code") != "provider_feature_refused") continue;
    const std::string message(w->GetString("message").value_or(""));
    EXPECT_NE(message.find("prompt_cache_key"), std::string::npos) << message;
    EXPECT_NE(message.find("Unsupported parameter"), std::string::npos) << message;
  }
  EXPECT_TRUE(Effects(first, "error").empty());
  EXPECT_NE(
      d.RolloutText().find(R"("type":"provider_feature_refused","feature":"prompt_cache_key")"),
      std::string::npos);
  // The turn completed, and later requests leave the key out without asking again.
  d.Submit("again", 2000);
  ASSERT_EQ(d.request_bodies().size(), 3u);
  EXPECT_FALSE(HasKey(d.request_bodies()[2]));
}

TEST(ProviderFeatures, AResumeKeepsARefusedFeatureOff) {
  SessionDriver original;
  Seed(&original);
  RefuseCacheKey(&original);
  original.Start(Config());
  original.Submit("hello", 1000);
  SessionDriver resumed;
  Seed(&resumed);
  bool refused = false;
  resumed.fail = [&refused](const std::string&,
                            const std::string& body) -> std::optional<std::pair<int, std::string>> {
    if (!HasKey(body)) return std::nullopt;
    refused = true;
    return std::make_pair(400, Unsupported("prompt_cache_key"));
  };
  auto env = ParseJson(resumed.Call("session.resume", "{\"config\":" + Config() + ",\"rollout\":" +
                                                          JsonString(original.RolloutText()) +
                                                          ",\"now_ms\":5000}"));
  ASSERT_TRUE(env->GetBool("ok").value_or(false)) << ToJson(*env);
  resumed.Submit("after the resume", 6000);
  ASSERT_EQ(resumed.request_bodies().size(), 1u);
  EXPECT_FALSE(HasKey(resumed.request_bodies()[0]));
  EXPECT_FALSE(refused);
}

TEST(ProviderFeatures, ASecondRefusalIsAnOrdinaryError) {
  SessionDriver d;
  Seed(&d);
  // Refuses every request, naming the key each time.
  d.fail = [](const std::string&,
              const std::string&) -> std::optional<std::pair<int, std::string>> {
    return std::make_pair(400, Unsupported("prompt_cache_key"));
  };
  d.Start(Config());
  auto all = d.Submit("hello", 1000);
  EXPECT_EQ(d.request_bodies().size(), 2u);  // sent once again, then no more
  auto errors = Effects(all, "error");
  ASSERT_EQ(errors.size(), 1u);
  const JsonValue* error = errors[0];
  EXPECT_EQ(error->GetString("code"), "http_error") << ToJson(*errors[0]);
  EXPECT_EQ(error->GetBool("retryable"), false);
  auto codes = WarningCodes(all);
  EXPECT_EQ(std::count(codes.begin(), codes.end(), "provider_feature_refused"), 1);
}

TEST(ProviderFeatures, ARefusalNamingNoFeatureIsAnOrdinaryError) {
  SessionDriver d;
  Seed(&d);
  d.fail = [](const std::string&,
              const std::string&) -> std::optional<std::pair<int, std::string>> {
    return std::make_pair(400, Unsupported("temperature"));
  };
  d.Start(Config());
  auto all = d.Submit("hello", 1000);
  EXPECT_EQ(d.request_bodies().size(), 1u);
  EXPECT_EQ(Effects(all, "error").size(), 1u);
  auto codes = WarningCodes(all);
  EXPECT_EQ(std::count(codes.begin(), codes.end(), "provider_feature_refused"), 0);
}

TEST(ProviderFeatures, TheConfigTurnsAFeatureOffAndRefusesUnknownOnes) {
  SessionDriver off;
  Seed(&off);
  off.Start(Config(R"(,"provider_features":{"prompt_cache_key":false})"));
  off.Submit("hello", 1000);
  ASSERT_EQ(off.request_bodies().size(), 1u);
  EXPECT_FALSE(HasKey(off.request_bodies()[0]));

  SessionDriver automatic;  // null is automatic: the key, as every body carried it
  Seed(&automatic);
  automatic.Start(
      Config(R"(,"provider_features":{"prompt_cache_key":null},"base_url":"http://127.0.0.1:9")"));
  automatic.Submit("hello", 1000);
  ASSERT_EQ(automatic.request_bodies().size(), 1u);
  EXPECT_TRUE(HasKey(automatic.request_bodies()[0]));

  SessionDriver bad;
  Seed(&bad);
  std::string env = bad.Start(Config(R"(,"provider_features":{"prewarn":true})"));
  EXPECT_NE(env.find("invalid_config"), std::string::npos) << env;
  EXPECT_NE(env.find("provider_features.prewarn"), std::string::npos) << env;
  SessionDriver wrong_type;
  Seed(&wrong_type);
  env = wrong_type.Start(Config(R"(,"provider_features":{"prewarm":"yes"})"));
  EXPECT_NE(env.find("provider_features.prewarm must be a boolean or null"), std::string::npos)
      << env;
}

// The switchboard's rules on a made-up offer: forced values, automatic at the official endpoint
// only, everywhere, and refusals winning over the config.
TEST(ProviderFeatures, AutomaticFeaturesAreOnOnlyAtTheOfficialEndpoint) {
  auto offer = [](ProviderFeature f) {
    switch (f) {
      case ProviderFeature::kCacheBreakpoints:
        return FeatureAvailability::kOfficialOnly;
      case ProviderFeature::kPromptCacheKey:
        return FeatureAvailability::kEveryEndpoint;
      default:
        return FeatureAvailability::kNone;
    }
  };
  FeatureRequests automatic;
  PerFeature<bool> none;
  auto official = ResolveFeatures(automatic, offer, /*official=*/true, none);
  auto custom = ResolveFeatures(automatic, offer, /*official=*/false, none);
  EXPECT_TRUE(official(ProviderFeature::kCacheBreakpoints));
  EXPECT_FALSE(custom(ProviderFeature::kCacheBreakpoints));
  EXPECT_TRUE(custom(ProviderFeature::kPromptCacheKey));
  EXPECT_FALSE(official(ProviderFeature::kPrewarm));

  FeatureRequests forced;
  forced[ProviderFeature::kCacheBreakpoints] = true;  // on at a custom endpoint (a test server)
  forced[ProviderFeature::kPromptCacheKey] = false;
  forced[ProviderFeature::kPrewarm] = true;  // the provider does not have it: stays off
  auto f = ResolveFeatures(forced, offer, /*official=*/false, none);
  EXPECT_TRUE(f(ProviderFeature::kCacheBreakpoints));
  EXPECT_FALSE(f(ProviderFeature::kPromptCacheKey));
  EXPECT_FALSE(f(ProviderFeature::kPrewarm));

  PerFeature<bool> refused;
  refused[ProviderFeature::kCacheBreakpoints] = true;
  EXPECT_FALSE(ResolveFeatures(forced, offer, true, refused)(ProviderFeature::kCacheBreakpoints));

  EXPECT_TRUE(MentionsWord("Unsupported parameter: 'prompt_cache_key'.", "prompt_cache_key"));
  EXPECT_FALSE(MentionsWord("prompt_cache_keys", "prompt_cache_key"));
  EXPECT_FALSE(MentionsWord("x_prompt_cache_key", "prompt_cache_key"));
}

TEST(ProviderFeatures, ARefusalNamingAPathRefusesTheFeatureOfItsLeaf) {
  EXPECT_EQ(MentionOf("param: prompt_cache_options.prewarm", "prompt_cache_options"),
            WordMention::kPathPrefix);
  EXPECT_EQ(MentionOf("param: prompt_cache_options.prewarm", "prewarm"), WordMention::kLeaf);
  EXPECT_EQ(MentionOf("'prompt_cache_options'.", "prompt_cache_options"), WordMention::kLeaf);
  EXPECT_EQ(MentionOf("input[3].prompt_cache_breakpoint", "input"), WordMention::kPathPrefix);

  ProviderFeatures on;
  on.on[ProviderFeature::kCacheBreakpoints] = true;  // listed before kPrewarm in the enum
  on.on[ProviderFeature::kCacheDiagnostics] = true;
  on.on[ProviderFeature::kPrewarm] = true;
  const auto params = [](ProviderFeature f) -> std::vector<std::string_view> {
    if (f == ProviderFeature::kCacheBreakpoints) return {"prompt_cache_options"};
    if (f == ProviderFeature::kCacheDiagnostics) {
      return {"comparison_response_id", "prompt_cache_options"};
    }
    if (f == ProviderFeature::kPrewarm) return {"prewarm"};
    return {};
  };
  EXPECT_EQ(FeatureRefusedBy(400, Unsupported("prompt_cache_options.prewarm"), on, params),
            ProviderFeature::kPrewarm);
  EXPECT_EQ(
      FeatureRefusedBy(400, Unsupported("prompt_cache_options.comparison_response_id"), on, params),
      ProviderFeature::kCacheDiagnostics);
  // The whole object refused: the first feature that adds it, as before.
  EXPECT_EQ(FeatureRefusedBy(400, Unsupported("prompt_cache_options"), on, params),
            ProviderFeature::kCacheBreakpoints);
  // Only a path prefix named, of a feature that is on: still that feature.
  on.on[ProviderFeature::kPrewarm] = false;
  EXPECT_EQ(FeatureRefusedBy(400, Unsupported("prompt_cache_options.prewarm"), on, params),
            ProviderFeature::kCacheBreakpoints);
  EXPECT_EQ(FeatureRefusedBy(500, Unsupported("prompt_cache_options.prewarm"), on, params),
            std::nullopt);
}

}  // namespace
}  // namespace agentctx
