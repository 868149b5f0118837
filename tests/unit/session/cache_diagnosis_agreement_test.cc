// SPDX-License-Identifier: MIT
// Over a 200-request session with every kind of cache break the engine explains (AGENTS.md
// edits, a cwd change, tool-list changes, a prompt_cache_key change, new instructions, a
// reasoning-effort change, manual compactions), the explainer's reason agrees with the mock
// provider's own verdict — computed by the mock from its record of the previous request — on every
// request of each provider.
#include <gtest/gtest.h>

#include <string>
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
};

void Count(const std::vector<JsonValue>& effects, Tally* t) {
  for (const auto& e : effects) {
    if (e.GetString("type") == "model_request") {
      ++t->requests;
      if (e.GetString("purpose") == "compact") ++t->compactions;
    }
    const JsonValue* event = e.Find("event");
    if (event == nullptr || event->GetString("type") != "cache_diagnosis") continue;
    ++t->diagnoses;
    const std::string provider(event->GetString("provider_reason").value_or(""));
    if (provider != "cache_hit" && provider != "unavailable") ++t->misses;
    const std::string verdict(event->GetString("verdict").value_or(""));
    if (verdict == "unavailable") ++t->unavailable;
    if (verdict == "differs") t->disagreements.push_back(ToJson(*event));
  }
}

Tally RunSession(const std::string& provider, const std::string& model) {
  SessionDriver d;
  EXPECT_TRUE(d.fs()->AddDir("/repo").has_value());
  EXPECT_TRUE(d.fs()->AddDir("/repo/crate").has_value());
  EXPECT_TRUE(d.fs()->AddFile("/repo/AGENTS.md", "Run the tests.\n").has_value());
  EXPECT_TRUE(d.fs()->AddFile("/repo/data.txt", std::string(6000, 'd')).has_value());
  d.host_tool = [](const std::string&, const std::string&) { return std::string("ok"); };
  const std::string config =
      R"({"session_id":"agree-1","provider":")" + provider + R"(","model":{"slug":")" + model +
      R"(","instructions":")" + std::string(5000, 'i') +
      R"("},"approval_policy":"never",)"
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
