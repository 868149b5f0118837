// SPDX-License-Identifier: MIT
// Over a 200-request session with every kind of cache break the engine explains (AGENTS.md
// edits, a cwd change, tool-list changes, a prompt_cache_key change, new instructions, a
// reasoning-effort change, manual compactions), the explainer's reason agrees with the mock
// provider's own verdict — computed by the mock from its record of the previous request — on every
// request of each provider; under the GPT-5.6 rule set its predicted cache reads and writes are
// the mock's reported ones.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "protocol/json_codec.h"
#include "support/session_driver.h"

namespace agentctx {
namespace {

using testing::SessionDriver;

struct Tally {
  int requests = 0;
  int compactions = 0;  // compaction requests
  int diagnoses = 0;
  int misses = 0;  // diagnoses whose provider reason is a miss
  int unavailable = 0;
  std::vector<std::string> disagreements;
  // The explainer's predicted reads / writes beside the mock's reported ones, per request.
  std::map<std::string, std::pair<std::string, std::string>> cache_tokens;
  int writes = 0;  // requests whose usage reported writes
};

// "cached/written" of a cache_report (predicted) or a token_usage (reported).
std::string Tokens(const JsonValue& e, std::string_view cached, std::string_view written) {
  return std::to_string(e.GetInt(cached).value_or(-1)) + "/" +
         std::to_string(e.GetInt(written).value_or(0));
}

void Count(const std::vector<JsonValue>& effects, Tally* t) {
  for (const auto& e : effects) {
    if (e.GetString("type") == "model_request") {
      ++t->requests;
      if (e.GetString("purpose") == "compact") ++t->compactions;
    }
    const JsonValue* event = e.Find("event");
    if (event == nullptr) continue;
    const std::string request(event->GetString("request_id").value_or(""));
    if (event->GetString("type") == "cache_report") {
      t->cache_tokens[request].first =
          Tokens(*event, "predicted_cached_tokens", "predicted_cache_write_tokens");
    } else if (event->GetString("type") == "token_usage") {
      t->cache_tokens[request].second = Tokens(*event, "cached_tokens", "cache_creation_tokens");
      if (event->GetInt("cache_creation_tokens").value_or(0) > 0) ++t->writes;
    }
    if (event->GetString("type") != "cache_diagnosis") continue;
    ++t->diagnoses;
    const std::string provider(event->GetString("provider_reason").value_or(""));
    if (provider != "cache_hit" && provider != "unavailable") ++t->misses;
    const std::string verdict(event->GetString("verdict").value_or(""));
    if (verdict == "unavailable") ++t->unavailable;
    if (verdict == "differs") t->disagreements.push_back(ToJson(*event));
  }
}

// Under the GPT-5.6 rule set (breakpoint cache) the explainer predicts the mock's reads and
// writes exactly, on every request that reported usage.
void ExpectPredictedTokensReported(const Tally& t) {
  int compared = 0;
  for (const auto& [request, tokens] : t.cache_tokens) {
    if (tokens.second.empty()) continue;
    ++compared;
    EXPECT_EQ(tokens.first, tokens.second) << request << " (predicted vs reported cached/written)";
  }
  EXPECT_GE(compared, 200);
  EXPECT_GE(t.writes, 10);
}

Tally RunSession(const std::string& provider, const std::string& model,
                 const std::string& extra_config = "") {
  SessionDriver d;
  EXPECT_TRUE(d.fs()->AddDir("/repo").has_value());
  EXPECT_TRUE(d.fs()->AddDir("/repo/crate").has_value());
  EXPECT_TRUE(d.fs()->AddFile("/repo/AGENTS.md", "Run the tests.\n").has_value());
  EXPECT_TRUE(d.fs()->AddFile("/repo/data.txt", std::string(6000, 'd')).has_value());
  d.host_tool = [](const std::string&, const std::string&) { return std::string("ok"); };
  const std::string config =
      R"({"session_id":"agree-1","provider":")" + provider + R"(","model":{"slug":")" + model +
      R"(","instructions":")" + std::string(5000, 'i') + R"("},"approval_policy":"never",)" +
      extra_config +
      R"("environments":[{"id":"local","cwd":"/repo","shell":"bash","fs":"workspace"}]})";
  EXPECT_NE(d.Start(config).find("\"ok\":true"), std::string::npos);
  Tally t;
  std::int64_t now = 1000;
  for (int turn = 1; t.requests < 200; ++turn, now += 10000) {
    switch (turn % 25) {
      case 3:
        EXPECT_TRUE(d.fs()->AddFile("/repo/AGENTS.md", "Run the tests twice.\n").has_value());
        break;
      case 6:
        Count(d.Update(R"({"cwd":"/repo/crate"})", now - 5000), &t);
        break;
      case 9:
        Count(
            d.Update(R"({"tools":[{"name":"lint","description":"Lints the code."}]})", now - 5000),
            &t);
        break;
      case 12:
        Count(d.Update(R"({"prompt_cache_key":"key-)" + std::to_string(turn) + R"("})", now - 5000),
              &t);
        break;
      case 15:
        Count(d.Update(R"({"model":{"slug":")" + model + R"(","instructions":"Be terse )" +
                           std::to_string(turn) + R"(."}})",
                       now - 5000),
              &t);
        break;
      case 18:
        Count(d.Compact(now - 5000), &t);
        break;
      case 21:
        Count(d.Update(R"({"tools":[]})", now - 5000), &t);
        break;
      case 23:  // a setting: no prompt text changes
        Count(d.Update(turn % 2 == 0 ? R"({"reasoning":{"effort":"high"}})"
                                     : R"({"reasoning":{"effort":"low"}})",
                       now - 5000),
              &t);
        break;
      default:
        break;
    }
    Count(d.Submit("Turn " + std::to_string(turn) + ": read data.txt and list the files.", now),
          &t);
  }
  const std::string summary = d.Call("cache_summary", "{}");
  EXPECT_NE(summary.find(R"("differs":0,"unavailable":)" + std::to_string(t.unavailable)),
            std::string::npos)
      << summary;
  return t;
}

TEST(CacheDiagnosisAgreement, TheExplainerAgreesWithTheResponsesMockOnEveryRequest) {
  Tally t = RunSession("responses", "gpt-5.6");
  EXPECT_GE(t.requests, 200);
  EXPECT_EQ(t.diagnoses, t.requests - 1);  // every request after the first
  EXPECT_GE(t.misses, 8) << "the session should break the cache several ways";
  EXPECT_GE(t.compactions, 3);
  EXPECT_EQ(t.unavailable, 0);
  EXPECT_TRUE(t.disagreements.empty()) << t.disagreements.front();
  ExpectPredictedTokensReported(t);
}

TEST(CacheDiagnosisAgreement, ExplicitBreakpointsWithA12HourTtlArePredictedToo) {
  Tally t = RunSession("responses", "gpt-5.6",
                       R"("openai":{"cache_mode":"explicit","cache_ttl":"12h"},)");
  EXPECT_GE(t.requests, 200);
  EXPECT_TRUE(t.disagreements.empty()) << t.disagreements.front();
  ExpectPredictedTokensReported(t);
}

TEST(CacheDiagnosisAgreement, TheExplainerAgreesWithTheAnthropicMockOnEveryRequest) {
  Tally t = RunSession("anthropic", "claude-sonnet-4-5");
  EXPECT_GE(t.requests, 200);
  EXPECT_EQ(t.diagnoses, t.requests - 1);
  EXPECT_GE(t.misses, 8);
  // A local compaction sends tool_choice none: Anthropic gives no diagnosis for a changed
  // tool_choice (`unavailable`), and nothing else goes undiagnosed.
  EXPECT_GE(t.compactions, 3);
  EXPECT_EQ(t.unavailable, t.compactions);
  EXPECT_TRUE(t.disagreements.empty()) << t.disagreements.front();
}

}  // namespace
}  // namespace agentctx
