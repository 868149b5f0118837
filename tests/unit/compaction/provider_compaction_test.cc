// SPDX-License-Identifier: MIT
// Compaction by the provider (strategies inband and server) through the Engine facade and the
// embedded mock: the in-band request extends the previous body with the trigger and reads the
// cache, the compaction item becomes history and the rollout, a resume rebuilds the same next
// body, a missing compaction item fails cleanly, the feature switch and its refusal fall back
// to local, and server compaction (Responses threshold, Anthropic paused) reinjects the
// context and goes on.
#include <gtest/gtest.h>

#include "compaction_session_util.h"
#include "provider/anthropic/anthropic_body.h"

namespace agentctx {
namespace {

using compaction_test::AssistantJson;
using compaction_test::Config;
using compaction_test::Effects;
using compaction_test::Events;
using compaction_test::HistoryItems;
using compaction_test::Seed;
using compaction_test::SessionDriver;
using compaction_test::Sse;
using compaction_test::WarningCodes;

constexpr std::string_view kTrigger = R"({"type":"compaction_trigger"})";

std::string InbandConfig(const std::string& extra = "") {
  return Config("", R"(,"compaction":{"strategy":"inband"})" + extra);
}

std::string InputOf(const std::string& body) {
  std::size_t start = body.find("\"input\":[");
  std::size_t end = body.find("],\"tools\":");
  return body.substr(start, end - start);
}

std::string TypesOf(const std::vector<JsonValue>& items) {
  std::string out;
  for (const auto& item : items) {
    if (!out.empty()) out += ",";
    out += std::string(item.GetString("type").value_or("?"));
  }
  return out;
}

TEST(ProviderCompaction, InbandExtendsThePreviousBodyWithTheTriggerAndReadsTheCache) {
  SessionDriver d;
  Seed(&d);
  d.Start(InbandConfig());
  d.Submit("read notes.txt please", 1000);
  const std::string last_turn = d.request_bodies().back();
  auto effects = d.Compact(2000);
  const std::string compact = d.request_bodies().back();
  auto requests = Effects(effects, "model_request");
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].GetString("purpose"), "compact");
  EXPECT_EQ(requests[0].GetString("endpoint"), "responses");
  // The previous body's input, the turn's answer, then the trigger last; the same tail.
  const std::string input = InputOf(compact);
  EXPECT_TRUE(input.starts_with(InputOf(last_turn)));
  EXPECT_TRUE(input.ends_with(std::string(",") + std::string(kTrigger)));
  EXPECT_NE(compact.find(R"("tool_choice":"auto","parallel_tool_calls":true)"), std::string::npos);
  EXPECT_EQ(compact.find("CONTEXT CHECKPOINT COMPACTION"), std::string::npos);
  // Explained without a break, and the mock read its prefix from the cache.
  auto reports = Events(effects, "cache_report");
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_TRUE(reports[0].Find("break")->is_null());
  auto usage = Events(effects, "token_usage");
  ASSERT_EQ(usage.size(), 1u);
  const auto cached = *usage[0].GetInt("cached_tokens");
  const auto total = *usage[0].GetInt("input_tokens");
  EXPECT_GE(cached * 100, total * 90) << cached << " of " << total;
  auto compaction = Events(effects, "compaction");
  ASSERT_EQ(compaction.size(), 2u);
  EXPECT_EQ(compaction[0].GetString("strategy"), "inband");
  // History is the compaction item alone; the rollout's replacement history holds it.
  auto history = HistoryItems(&d);
  ASSERT_EQ(history.size(), 1u);
  EXPECT_EQ(history[0].GetString("type"), "compaction");
  EXPECT_TRUE(history[0].GetString("encrypted_content")->starts_with("mockcmp_"));
  bool recorded = false;
  for (const auto& line : d.rollout()) {
    recorded = recorded || (line.find("\"type\":\"compacted\"") != std::string::npos &&
                            line.find("mockcmp_") != std::string::npos);
  }
  EXPECT_TRUE(recorded);
  // The next turn starts from the compaction item, with the full context after it.
  auto next = d.Submit("and now?", 3000);
  const std::string after = d.request_bodies().back();
  EXPECT_TRUE(InputOf(after).starts_with("\"input\":[{\"type\":\"compaction\""));
  EXPECT_NE(after.find("<permissions instructions>"), std::string::npos);
  EXPECT_NE(after.find("Keep answers short."), std::string::npos);
  EXPECT_EQ(Effects(next, "turn_complete").size(), 1u);
}

TEST(ProviderCompaction, InbandResumeRebuildsTheSameNextBody) {
  SessionDriver a;
  Seed(&a);
  a.Start(InbandConfig());
  a.Submit("first turn", 1000);
  a.Compact(2000);
  const std::string rollout = a.RolloutText();
  a.Submit("second turn", 3000);
  const std::string expected = a.request_bodies().back();

  SessionDriver b;
  Seed(&b);
  auto env = ParseJson(b.Call("session.resume", "{\"config\":" + InbandConfig() + ",\"rollout\":" +
                                                    JsonString(rollout) + ",\"now_ms\":2500}"));
  ASSERT_TRUE(env->GetBool("ok").value_or(false)) << ToJson(*env);
  b.Submit("second turn", 3000);
  ASSERT_FALSE(b.request_bodies().empty());
  EXPECT_EQ(b.request_bodies().back(), expected);
}

TEST(ProviderCompaction, AnAnswerWithoutACompactionItemFailsAndKeepsHistory) {
  SessionDriver d;
  Seed(&d);
  d.Start(InbandConfig());
  d.Submit("first turn", 1000);
  const std::string before = TypesOf(HistoryItems(&d));
  d.respond = [](const std::string&, const std::string& body) -> std::optional<std::string> {
    if (body.find(kTrigger) == std::string::npos) return std::nullopt;
    return Sse({AssistantJson("I will not compact.")});
  };
  auto effects = d.Compact(2000);
  auto errors = Effects(effects, "error");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].GetString("code"), "compaction_failed");
  EXPECT_NE(errors[0].GetString("message")->find("without a `compaction` item"), std::string::npos);
  EXPECT_EQ(Effects(effects, "turn_complete")[0].GetString("reason"), "failed");
  EXPECT_EQ(TypesOf(HistoryItems(&d)), before);
  // The session goes on from the same history.
  d.respond = nullptr;
  auto next = d.Submit("second turn", 3000);
  EXPECT_EQ(Effects(next, "turn_complete")[0].GetString("reason"), "completed");
}

TEST(ProviderCompaction, InbandIsLocalWhereTheFeatureIsOff) {
  SessionDriver d;
  Seed(&d);
  d.Start(InbandConfig(R"(,"provider_features":{"inband_compaction":false})"));
  d.Submit("first turn", 1000);
  auto effects = d.Compact(2000);
  EXPECT_EQ(Events(effects, "compaction")[0].GetString("strategy"), "local");
  EXPECT_NE(d.request_bodies().back().find("CONTEXT CHECKPOINT COMPACTION"), std::string::npos);
  EXPECT_EQ(d.request_bodies().back().find(kTrigger), std::string::npos);
  // Another endpoint (base_url) leaves it off automatically too.
  SessionDriver e;
  Seed(&e);
  e.Start(InbandConfig(R"(,"base_url":"http://127.0.0.1:9/v1")"));
  e.Submit("first turn", 1000);
  e.Compact(2000);
  EXPECT_EQ(e.request_bodies().back().find(kTrigger), std::string::npos);
}

TEST(ProviderCompaction, ARefusedTriggerCompactsLocallyForTheRestOfTheSession) {
  SessionDriver d;
  Seed(&d);
  d.Start(InbandConfig());
  d.Submit("first turn", 1000);
  d.fail = [](const std::string&,
              const std::string& body) -> std::optional<std::pair<int, std::string>> {
    if (body.find(kTrigger) == std::string::npos) return std::nullopt;
    return std::make_pair(
        400, std::string(R"({"error":{"message":"Unsupported parameter: compaction_trigger"}})"));
  };
  auto effects = d.Compact(2000);
  auto warnings = WarningCodes(effects);
  EXPECT_NE(std::find(warnings.begin(), warnings.end(), "provider_feature_refused"),
            warnings.end());
  EXPECT_NE(d.request_bodies().back().find("CONTEXT CHECKPOINT COMPACTION"), std::string::npos);
  EXPECT_EQ(Effects(effects, "turn_complete")[0].GetString("reason"), "completed");
  EXPECT_TRUE(Effects(effects, "error").empty());
}

TEST(ProviderCompaction, AnthropicOnDemandCompactionGoesBackFirstAsItsBlock) {
  SessionDriver d;
  Seed(&d);
  d.Start(InbandConfig(R"(,"provider":"anthropic")"));
  d.Submit("first turn", 1000);
  const std::string last_turn = d.request_bodies().back();
  auto effects = d.Compact(2000);
  const std::string compact = d.request_bodies().back();
  auto requests = Effects(effects, "model_request");
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].GetString("endpoint"), "messages");
  const JsonValue* headers = requests[0].Find("headers");
  ASSERT_NE(headers, nullptr);
  EXPECT_EQ(headers->GetString("anthropic-beta"), "compact-2026-09-04");
  EXPECT_NE(compact.find(R"(,"compaction":{"type":"summarize"})"), std::string::npos);
  EXPECT_EQ(compact.find("context_management"), std::string::npos);
  // Same tools and system as the turn before: the cache holds.
  const std::size_t messages_at = last_turn.find(",\"messages\":[");
  EXPECT_EQ(compact.substr(0, messages_at), last_turn.substr(0, messages_at));
  auto usage = Events(effects, "token_usage");
  ASSERT_EQ(usage.size(), 1u);
  EXPECT_GT(*usage[0].GetInt("cached_tokens"), 0);
  auto history = HistoryItems(&d);
  ASSERT_EQ(history.size(), 1u);
  EXPECT_TRUE(history[0].GetString("content")->starts_with("MOCK COMPACTION of "));
  d.Submit("second turn", 3000);
  const std::string after = d.request_bodies().back();
  EXPECT_NE(after.find(R"("messages":[{"role":"assistant","content":[{"type":"compaction",)"
                       R"("content":"MOCK COMPACTION of )"),
            std::string::npos);
  // A turn body carries no beta header.
  EXPECT_EQ(after.find("\"compaction\":{\"type\""), std::string::npos);
}

TEST(ProviderCompaction, ServerThresholdOnResponsesCompactsAndTheAnswerGoesOn) {
  SessionDriver d;
  Seed(&d);
  d.Start(Config(R"(,"context_window":3000)", R"(,"compaction":{"strategy":"server"})"));
  auto first = d.Submit("hello there", 1000);
  EXPECT_NE(d.request_bodies().back().find(
                R"(,"context_management":[{"type":"compaction","compact_threshold":2700}])"),
            std::string::npos);
  EXPECT_TRUE(Events(first, "compaction").empty());
  // Reading notes.txt grows the prompt past the threshold: the server compacts the step.
  std::vector<JsonValue> all;
  for (int t = 0; t < 6 && all.empty(); ++t) {
    auto effects = d.Submit("read notes.txt again (" + std::to_string(t) + ")", 2000 + t);
    for (auto& e : Events(effects, "compaction")) all.push_back(e);
    EXPECT_EQ(Effects(effects, "turn_complete")[0].GetString("reason"), "completed");
  }
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].GetString("trigger"), "server");
  EXPECT_EQ(all[1].GetString("strategy"), "server");
  auto history = HistoryItems(&d);
  ASSERT_FALSE(history.empty());
  EXPECT_EQ(history[0].GetString("type"), "compaction");
  // The reinjected context follows the item, and the model's answer after it was kept.
  std::string types = TypesOf(history);
  EXPECT_TRUE(types.starts_with("compaction,message")) << types;
  EXPECT_TRUE(types.ends_with("message")) << types;
}

TEST(ProviderCompaction, AnthropicServerCompactionPausesReinjectsAndContinues) {
  SessionDriver d;
  Seed(&d);
  d.Start(Config(R"(,"context_window":3000)",
                 R"(,"provider":"anthropic","compaction":{"strategy":"server"})"));
  std::vector<JsonValue> effects;
  for (int t = 0; t < 6; ++t) {
    effects = d.Submit("read notes.txt again (" + std::to_string(t) + ")", 1000 + t);
    if (!Events(effects, "compaction").empty()) break;
  }
  auto compaction = Events(effects, "compaction");
  ASSERT_EQ(compaction.size(), 2u);
  EXPECT_EQ(compaction[0].GetString("trigger"), "server");
  auto requests = Effects(effects, "model_request");
  ASSERT_FALSE(requests.empty());
  EXPECT_EQ(requests[0].Find("headers")->GetString("anthropic-beta"), "compact-2026-01-12");
  EXPECT_EQ(Effects(effects, "turn_complete")[0].GetString("reason"), "completed");
  // The request after the pause: the compaction block first, then the reinjected context.
  std::string resumed;
  for (const auto& body : d.request_bodies()) {
    if (body.find(R"("messages":[{"role":"assistant","content":[{"type":"compaction")") !=
        std::string::npos) {
      resumed = body;
      break;
    }
  }
  ASSERT_FALSE(resumed.empty());
  EXPECT_NE(resumed.find("Keep answers short."), std::string::npos);
  EXPECT_NE(resumed.find("<permissions instructions>"), std::string::npos);
  EXPECT_NE(resumed.find(R"("pause_after_compaction":true)"), std::string::npos);
}

TEST(ProviderCompaction, AnthropicSendsTheConfiguredPromptAsCompactionInstructions) {
  const std::string prompt = R"("prompt":"Keep the \"frontier\".")";
  SessionDriver on_demand;
  Seed(&on_demand);
  on_demand.Start(
      Config("", R"(,"provider":"anthropic","compaction":{"strategy":"inband",)" + prompt + "}"));
  on_demand.Submit("first turn", 1000);
  on_demand.Compact(2000);
  EXPECT_NE(on_demand.request_bodies().back().find(
                R"(,"compaction":{"type":"summarize","instructions":"Keep the \"frontier\"."})"),
            std::string::npos)
      << on_demand.request_bodies().back();

  SessionDriver server;
  Seed(&server);
  server.Start(
      Config(R"(,"context_window":200000)",
             R"(,"provider":"anthropic","compaction":{"strategy":"server",)" + prompt + "}"));
  server.Submit("hello", 1000);
  EXPECT_NE(server.request_bodies().back().find(
                R"(},"instructions":"Keep the \"frontier\".","pause_after_compaction":true}]})"),
            std::string::npos)
      << server.request_bodies().back();

  // OpenAI's trigger takes no prompt: the Responses body carries none.
  SessionDriver responses;
  Seed(&responses);
  responses.Start(Config("", R"(,"compaction":{"strategy":"inband",)" + prompt + "}"));
  responses.Submit("first turn", 1000);
  responses.Compact(2000);
  EXPECT_NE(responses.request_bodies().back().find(kTrigger), std::string::npos);
  EXPECT_EQ(responses.request_bodies().back().find("\"instructions\":\"Keep the"),
            std::string::npos);

  // An empty or whitespace-only prompt counts as absent at the API: none is sent.
  BodyParams p;
  p.compaction_trigger = true;
  p.compaction_instructions = " \n\t";
  std::string out;
  AppendProviderCompaction(&out, p);
  EXPECT_EQ(out, R"(,"compaction":{"type":"summarize"})");
}

}  // namespace
}  // namespace agentctx
