// SPDX-License-Identifier: MIT
// The providers' own cache verdicts beside the explainer's (feature cache_diagnostics;
// docs/providers.md): the vocabulary table, the mock's verdicts from its own records, the
// comparison id in every body after the first, the cache_diagnosis event and rollout line, the
// agreement rate in cache_summary, and the refusal path.
#include "provider/cache/cache_diagnosis.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mock_model/mock_model.h"
#include "protocol/json_codec.h"
#include "provider/responses/request_body.h"
#include "provider/responses/responses_dialect.h"
#include "support/effect_filters.h"
#include "support/session_driver.h"

namespace agentctx {
namespace {

using testing::EventsOfType;

using testing::SessionDriver;

JsonValue Json(std::string_view text) { return ParseJson(text).value(); }

ProviderVerdict OpenAi(std::string_view diagnostics) {
  JsonValue response = JsonValue::Object();
  response.Set("prompt_cache_diagnostics", Json(diagnostics));
  return ReadProviderVerdict(response, DiagnosisVocabulary::kOpenAi);
}

ProviderVerdict Anthropic(std::string_view diagnostics) {
  JsonValue response = JsonValue::Object();
  response.Set("diagnostics", Json(diagnostics));
  return ReadProviderVerdict(response, DiagnosisVocabulary::kAnthropic);
}

TEST(CacheDiagnosis, OpenAiVocabularyMapsToTheExplainersReasons) {
  EXPECT_EQ(CompareVerdict(OpenAi(R"({"type":"cache_hit"})"), ""), "agrees");
  EXPECT_EQ(CompareVerdict(OpenAi(R"({"type":"cache_hit"})"), "item_edited"), "differs");
  const auto input = OpenAi(R"({"type":"cache_miss","reason":"input_changed",)"
                            R"("cache_missed_tokens":10,"comparison_reusable_tokens":5})");
  EXPECT_EQ(input.reason, "input_changed");
  EXPECT_EQ(CompareVerdict(input, "item_edited"), "agrees");
  EXPECT_EQ(CompareVerdict(input, "instructions_changed"), "agrees");
  EXPECT_EQ(CompareVerdict(input, "history_rewritten_by_compaction"), "agrees");
  EXPECT_EQ(CompareVerdict(input, "tools_changed"), "differs");
  EXPECT_EQ(CompareVerdict(input, ""), "differs");
  const auto key = OpenAi(R"({"type":"cache_miss","reason":"prompt_cache_key_changed"})");
  EXPECT_EQ(CompareVerdict(key, "cache_key_changed"), "agrees");
  const auto effort = OpenAi(R"({"type":"cache_miss","reason":"reasoning_effort_changed"})");
  EXPECT_EQ(CompareVerdict(effort, "reasoning_effort_changed"), "agrees");
  EXPECT_EQ(CompareVerdict(OpenAi(R"({"type":"cache_miss","reason":"context_compacted"})"),
                           "history_rewritten_by_compaction"),
            "agrees");
  // A compaction that released deferred tools: the provider names the tools.
  const auto tools = OpenAi(R"({"type":"cache_miss","reason":"tools_changed"})");
  EXPECT_EQ(CompareVerdict(tools, "history_rewritten_by_compaction"), "agrees");
  EXPECT_EQ(CompareVerdict(tools, "item_edited"), "differs");
  EXPECT_EQ(CompareVerdict(OpenAi(R"({"type":"comparison_response_not_found"})"), ""),
            "unavailable");
}

TEST(CacheDiagnosis, AnUnknownTypeIsKeptVerbatimAndCountedUnavailable) {
  const auto odd = OpenAi(R"({"type":"cache_prophecy","omens":[1,2]})");
  EXPECT_EQ(odd.reason, "unavailable");
  EXPECT_EQ(ToJson(odd.raw), R"({"type":"cache_prophecy","omens":[1,2]})");
  JsonValue payload = CacheDiagnosisJson("req-2", odd, "item_edited");
  EXPECT_EQ(ToJson(payload),
            R"({"request_id":"req-2","provider":{"type":"cache_prophecy","omens":[1,2]},)"
            R"("provider_reason":"unavailable","engine_reason":"item_edited",)"
            R"("verdict":"unavailable"})");
  // A response without the field at all: unavailable, provider null.
  const auto none = ReadProviderVerdict(JsonValue::Object(), DiagnosisVocabulary::kOpenAi);
  EXPECT_TRUE(none.raw.is_null());
  EXPECT_EQ(CompareVerdict(none, ""), "unavailable");
  const auto weird = Anthropic(R"({"cache_miss_reason":{"type":"moon_phase"}})");
  EXPECT_EQ(CompareVerdict(weird, ""), "unavailable");
  DiagnosisTotals totals;
  totals.Add("agrees");
  totals.Add("agrees");
  totals.Add("differs");
  totals.Add("unavailable");
  EXPECT_EQ(ToJson(totals.ToJson()),
            R"({"compared":4,"agrees":2,"differs":1,"unavailable":1,"agreement_bp":6666})");
  EXPECT_EQ(ToJson(DiagnosisTotals{0, 0, 3}.ToJson()),
            R"({"compared":3,"agrees":0,"differs":0,"unavailable":3,"agreement_bp":null})");
}

TEST(CacheDiagnosis, AnthropicVocabularyMapsToTheExplainersReasons) {
  EXPECT_EQ(CompareVerdict(Anthropic("null"), ""), "agrees");  // no divergence detected
  EXPECT_EQ(CompareVerdict(Anthropic(R"({"cache_miss_reason":null})"), ""), "unavailable");
  const auto messages = Anthropic(
      R"({"cache_miss_reason":{"type":"messages_changed","cache_missed_input_tokens":9}})");
  EXPECT_EQ(CompareVerdict(messages, "item_edited"), "agrees");
  EXPECT_EQ(CompareVerdict(messages, "history_rewritten_by_compaction"), "agrees");
  EXPECT_EQ(CompareVerdict(messages, "tools_changed"), "differs");
  EXPECT_EQ(CompareVerdict(Anthropic(R"({"cache_miss_reason":{"type":"system_changed"}})"),
                           "instructions_changed"),
            "agrees");
  EXPECT_EQ(CompareVerdict(
                Anthropic(R"({"cache_miss_reason":{"type":"previous_message_not_found"}})"), ""),
            "unavailable");
}

TEST(CacheDiagnosis, OnlyGpt56AndLaterTakePromptCacheOptions) {
  EXPECT_TRUE(HasPromptCacheOptions("gpt-5.6"));
  EXPECT_TRUE(HasPromptCacheOptions("gpt-5.6-codex"));
  EXPECT_TRUE(HasPromptCacheOptions("gpt-5.10-mini"));
  EXPECT_TRUE(HasPromptCacheOptions("gpt-6"));
  EXPECT_FALSE(HasPromptCacheOptions("gpt-5.5"));
  EXPECT_FALSE(HasPromptCacheOptions("gpt-5"));
  EXPECT_FALSE(HasPromptCacheOptions("gpt-4.1"));
  EXPECT_FALSE(HasPromptCacheOptions("gpt-"));
  EXPECT_FALSE(HasPromptCacheOptions("gpt-5."));
  EXPECT_FALSE(HasPromptCacheOptions("mock-1"));
  ResponsesDialect d;
  EXPECT_EQ(d.Availability(ProviderFeature::kCacheDiagnostics, "gpt-5.6"),
            FeatureAvailability::kOfficialOnly);
  EXPECT_EQ(d.Availability(ProviderFeature::kCacheDiagnostics, "gpt-5.5"),
            FeatureAvailability::kNone);
}

TEST(CacheDiagnosis, TheComparisonIdMergesIntoAnExistingOptionsObject) {
  std::string body = R"({"x":1,"prompt_cache_options":{"mode":"implicit"})";
  MergePromptCacheOption(&body, 0, R"("comparison_response_id":"resp_1")");
  EXPECT_EQ(
      body,
      R"({"x":1,"prompt_cache_options":{"comparison_response_id":"resp_1","mode":"implicit"})");
  std::string empty = R"({"prompt_cache_options":{})";
  MergePromptCacheOption(&empty, 0, R"("a":1)");
  EXPECT_EQ(empty, R"({"prompt_cache_options":{"a":1})");
  std::string none = R"({"x":1)";
  MergePromptCacheOption(&none, 0, R"("a":1)");
  EXPECT_EQ(none, R"({"x":1,"prompt_cache_options":{"a":1})");
}

// --- The mock's verdicts, from its own records ----------------------------------------------

std::string ResponsesBody(std::string_view model, std::string_view items,
                          std::string_view comparison = "", std::string_view effort = "low") {
  std::string body = R"({"model":")" + std::string(model) +
                     R"(","instructions":"Be brief.","input":[)" + std::string(items) +
                     R"(],"tools":[],"reasoning":{"effort":")" + std::string(effort) +
                     R"("},"stream":false)";
  if (!comparison.empty()) {
    body += R"(,"prompt_cache_options":{"comparison_response_id":")" + std::string(comparison) +
            R"("})";
  }
  return body + "}";
}

constexpr std::string_view kA =
    R"({"type":"message","role":"user","content":[{"type":"input_text","text":"alpha"}]})";
constexpr std::string_view kB =
    R"({"type":"message","role":"user","content":[{"type":"input_text","text":"beta"}]})";

JsonValue MockDiagnosticsOf(MockModel* mock, const std::string& body, std::string* id) {
  auto answer = mock->Handle(MockModel::kResponses, body, 1000);
  EXPECT_TRUE(answer.has_value());
  JsonValue response = Json(*answer);
  if (id != nullptr) *id = std::string(response.GetString("id").value_or(""));
  const JsonValue* d = response.Find("prompt_cache_diagnostics");
  return d != nullptr ? *d : JsonValue::String("absent");
}

TEST(MockCacheDiagnostics, ResponsesVerdictsComeFromTheNamedRequest) {
  MockModel mock;
  std::string first;
  EXPECT_EQ(ToJson(MockDiagnosticsOf(&mock, ResponsesBody("gpt-5.6", kA), &first)), "\"absent\"");
  std::string second;
  std::string two = std::string(kA) + "," + std::string(kB);
  EXPECT_EQ(ToJson(MockDiagnosticsOf(&mock, ResponsesBody("gpt-5.6", two, first), &second)),
            R"({"type":"cache_hit"})");
  // An earlier item edited: input_changed, with the tokens before and after the divergence.
  JsonValue edited =
      MockDiagnosticsOf(&mock, ResponsesBody("gpt-5.6", std::string(kB), second), nullptr);
  EXPECT_EQ(edited.GetString("type"), "cache_miss");
  EXPECT_EQ(edited.GetString("reason"), "input_changed");
  EXPECT_GT(edited.GetInt("cache_missed_tokens").value_or(0), 0);
  EXPECT_GT(edited.GetInt("comparison_reusable_tokens").value_or(0), 0);  // instructions, tools
  EXPECT_EQ(MockDiagnosticsOf(&mock, ResponsesBody("gpt-5.6", two, second, "high"), nullptr)
                .GetString("reason"),
            "reasoning_effort_changed");
  EXPECT_EQ(
      MockDiagnosticsOf(&mock, ResponsesBody("gpt-5.7", two, second), nullptr).GetString("reason"),
      "model_changed");
  EXPECT_EQ(ToJson(MockDiagnosticsOf(&mock, ResponsesBody("gpt-5.6", two, "resp_nope"), nullptr)),
            R"({"type":"comparison_response_not_found"})");
}

std::string MessagesBody(std::string_view system, std::string_view messages,
                         std::string_view previous) {
  return R"({"model":"claude-x","max_tokens":100,"system":")" + std::string(system) +
         R"(","messages":[)" + std::string(messages) +
         R"(],"diagnostics":{"previous_message_id":)" + std::string(previous) +
         R"(},"stream":false})";
}

constexpr std::string_view kHi = R"({"role":"user","content":"hi"})";
constexpr std::string_view kOk = R"({"role":"assistant","content":"ok"})";
constexpr std::string_view kMore = R"({"role":"user","content":"more"})";

JsonValue AnthropicDiagnosticsOf(MockModel* mock, const std::string& body, std::string* id) {
  auto answer = mock->Handle(MockModel::kMessages, body, 1000);
  EXPECT_TRUE(answer.has_value());
  JsonValue message = Json(*answer);
  if (id != nullptr) *id = std::string(message.GetString("id").value_or(""));
  const JsonValue* d = message.Find("diagnostics");
  return d != nullptr ? *d : JsonValue::String("absent");
}

TEST(MockCacheDiagnostics, MessagesVerdictsComeFromTheNamedRequest) {
  MockModel mock;
  std::string first;
  EXPECT_TRUE(AnthropicDiagnosticsOf(&mock, MessagesBody("S", kHi, "null"), &first).is_null());
  ASSERT_EQ(first.substr(0, 4), "msg_");
  const std::string quoted = "\"" + first + "\"";
  std::string grown = std::string(kHi) + "," + std::string(kOk) + "," + std::string(kMore);
  EXPECT_TRUE(AnthropicDiagnosticsOf(&mock, MessagesBody("S", grown, quoted), nullptr).is_null());
  JsonValue system = AnthropicDiagnosticsOf(&mock, MessagesBody("T", grown, quoted), nullptr);
  EXPECT_EQ(system.Find("cache_miss_reason")->GetString("type"), "system_changed");
  EXPECT_GT(system.Find("cache_miss_reason")->GetInt("cache_missed_input_tokens").value_or(0), 0);
  JsonValue edited = AnthropicDiagnosticsOf(&mock, MessagesBody("S", kMore, quoted), nullptr);
  EXPECT_EQ(edited.Find("cache_miss_reason")->GetString("type"), "messages_changed");
  EXPECT_EQ(ToJson(AnthropicDiagnosticsOf(&mock, MessagesBody("S", kHi, "\"msg_nope\""), nullptr)),
            R"({"cache_miss_reason":{"type":"previous_message_not_found"}})");
  // Without `diagnostics`, the answer has none.
  std::string plain = R"({"model":"claude-x","max_tokens":10,"messages":[{"role":"user",)"
                      R"("content":"hi"}],"stream":false})";
  EXPECT_EQ(ToJson(AnthropicDiagnosticsOf(&mock, plain, nullptr)), "\"absent\"");
}

// --- A session against the mock ----------------------------------------------------------------

std::string SessionConfig(std::string_view model, std::string_view extra = "") {
  return R"({"session_id":"diag-1","model":{"slug":")" + std::string(model) +
         R"(","instructions":"Be helpful."},"approval_policy":"never",)"
         R"("environments":[{"id":"local","cwd":"/repo","shell":"bash","fs":"workspace"}])" +
         std::string(extra) + "}";
}

TEST(SessionCacheDiagnosis, EveryRequestAfterTheFirstNamesThePreviousResponse) {
  SessionDriver d;
  ASSERT_TRUE(d.fs()->AddDir("/repo").has_value());
  ASSERT_NE(d.Start(SessionConfig("gpt-5.6")).find("\"ok\":true"), std::string::npos);
  auto first = d.Submit("hello", 1000);
  ASSERT_EQ(d.request_bodies().size(), 1u);
  EXPECT_EQ(d.request_bodies()[0].find("comparison_response_id"), std::string::npos);
  EXPECT_TRUE(EventsOfType(first, "cache_diagnosis").empty());  // nothing to compare yet
  auto second = d.Submit("again", 2000);
  ASSERT_EQ(d.request_bodies().size(), 2u);
  const std::string& body = d.request_bodies()[1];
  EXPECT_NE(body.find(R"("comparison_response_id":"resp_)"), std::string::npos) << body;
  EXPECT_TRUE(ParseJson(body).has_value());
  auto diagnoses = EventsOfType(second, "cache_diagnosis");
  ASSERT_EQ(diagnoses.size(), 1u);
  EXPECT_EQ(diagnoses[0].GetString("request_id"), "req-2");
  EXPECT_EQ(diagnoses[0].GetString("provider_reason"), "cache_hit");
  EXPECT_TRUE(diagnoses[0].Find("engine_reason")->is_null());
  EXPECT_EQ(diagnoses[0].GetString("verdict"), "agrees");
  EXPECT_NE(d.RolloutText().find(R"("type":"cache_diagnosis","request_id":"req-2")"),
            std::string::npos);

  // A cache-key change: the provider's prompt_cache_key_changed is the explainer's
  // cache_key_changed.
  d.Update(R"({"prompt_cache_key":"another-key"})", 3000);
  auto third = d.Submit("third", 4000);
  diagnoses = EventsOfType(third, "cache_diagnosis");
  ASSERT_EQ(diagnoses.size(), 1u);
  EXPECT_EQ(diagnoses[0].GetString("provider_reason"), "prompt_cache_key_changed");
  EXPECT_EQ(diagnoses[0].GetString("engine_reason"), "cache_key_changed");
  EXPECT_EQ(diagnoses[0].GetString("verdict"), "agrees");
  const std::string summary = d.Call("cache_summary", "{}");
  EXPECT_NE(summary.find(R"("provider_diagnostics":{"compared":2,"agrees":2,"differs":0,)"
                         R"("unavailable":0,"agreement_bp":10000})"),
            std::string::npos)
      << summary;
}

TEST(SessionCacheDiagnosis, ASettingChangeIsACauseOfItsOwn) {
  SessionDriver d;
  ASSERT_TRUE(d.fs()->AddDir("/repo").has_value());
  d.Start(SessionConfig("gpt-5.6"));
  d.Submit("hello", 1000);
  d.Update(R"({"reasoning":{"effort":"high"}})", 1500);
  auto second = d.Submit("again", 2000);
  // The prompt text only grew, yet nothing is shared: the effort keys the cache.
  std::vector<JsonValue> reports = EventsOfType(second, "cache_report");
  ASSERT_FALSE(reports.empty());
  const JsonValue* brk = reports[0].Find("break");
  ASSERT_TRUE(brk != nullptr && brk->is_object());
  EXPECT_EQ(brk->GetString("reason"), "reasoning_effort_changed");
  EXPECT_EQ(brk->GetString("section"), "settings");
  EXPECT_EQ(reports[0].GetInt("predicted_cached_tokens"), 0);
  auto diagnoses = EventsOfType(second, "cache_diagnosis");
  ASSERT_FALSE(diagnoses.empty());
  EXPECT_EQ(diagnoses[0].GetString("provider_reason"), "reasoning_effort_changed");
  EXPECT_EQ(diagnoses[0].GetString("verdict"), "agrees");
  // The same setting again: no break.
  auto third = d.Submit("third", 3000);
  reports = EventsOfType(third, "cache_report");
  ASSERT_FALSE(reports.empty());
  EXPECT_TRUE(reports[0].Find("break")->is_null());
}

TEST(SessionCacheDiagnosis, AResumeNamesTheLastResponseOfTheRollout) {
  SessionDriver original;
  ASSERT_TRUE(original.fs()->AddDir("/repo").has_value());
  original.Start(SessionConfig("gpt-5.6"));
  original.Submit("hello", 1000);
  original.Submit("again", 2000);
  std::string continued = original.request_bodies().back();
  original.Submit("third", 3000);
  const std::string expected = original.request_bodies().back();
  SessionDriver resumed;
  ASSERT_TRUE(resumed.fs()->AddDir("/repo").has_value());
  // The rollout up to the third request: its next body names the second response.
  std::string rollout;
  for (const std::string& line : original.rollout()) {
    if (line.find(R"("request_id":"req-3")") != std::string::npos) break;
    rollout += line + "\n";
  }
  auto env = ParseJson(resumed.Call("session.resume", R"({"config":)" + SessionConfig("gpt-5.6") +
                                                          R"(,"rollout":)" + JsonString(rollout) +
                                                          R"(,"now_ms":2500})"));
  ASSERT_TRUE(env->GetBool("ok").value_or(false)) << ToJson(*env);
  resumed.Submit("third", 3000);
  const std::string& body = resumed.request_bodies().back();
  const std::size_t at = expected.find("\"comparison_response_id\":");
  ASSERT_NE(at, std::string::npos);
  EXPECT_NE(body.find(expected.substr(at, 40)), std::string::npos) << body;
  EXPECT_NE(continued.find("comparison_response_id"), std::string::npos);
}

TEST(SessionCacheDiagnosis, OlderModelsAndOtherEndpointsAskForNothing) {
  for (const std::string& config :
       {SessionConfig("gpt-5.5"),
        SessionConfig("gpt-5.6", R"(,"base_url":"http://127.0.0.1:9")")}) {
    SessionDriver d;
    ASSERT_TRUE(d.fs()->AddDir("/repo").has_value());
    d.Start(config);
    d.Submit("hello", 1000);
    auto second = d.Submit("again", 2000);
    EXPECT_EQ(d.request_bodies()[1].find("comparison_response_id"), std::string::npos);
    EXPECT_TRUE(EventsOfType(second, "cache_diagnosis").empty());
    EXPECT_EQ(d.Call("cache_summary", "{}").find("provider_diagnostics"), std::string::npos);
  }
}

TEST(SessionCacheDiagnosis, AnthropicNamesThePreviousMessage) {
  SessionDriver d;
  ASSERT_TRUE(d.fs()->AddDir("/repo").has_value());
  d.Start(SessionConfig("claude-sonnet-4-5", R"(,"provider":"anthropic")"));
  d.Submit("hello", 1000);
  EXPECT_NE(d.request_bodies()[0].find(R"("diagnostics":{"previous_message_id":null})"),
            std::string::npos)
      << d.request_bodies()[0];
  auto second = d.Submit("again", 2000);
  EXPECT_NE(d.request_bodies()[1].find(R"("diagnostics":{"previous_message_id":"msg_)"),
            std::string::npos);
  auto diagnoses = EventsOfType(second, "cache_diagnosis");
  ASSERT_EQ(diagnoses.size(), 1u);
  EXPECT_TRUE(diagnoses[0].Find("provider")->is_null());  // no divergence detected
  EXPECT_EQ(diagnoses[0].GetString("verdict"), "agrees");
  // New instructions: Anthropic's system_changed is the explainer's instructions_changed.
  d.Update(R"({"model":{"slug":"claude-sonnet-4-5","instructions":"Be terse."}})", 3000);
  auto third = d.Submit("third", 4000);
  diagnoses = EventsOfType(third, "cache_diagnosis");
  ASSERT_FALSE(diagnoses.empty());
  EXPECT_EQ(diagnoses[0].GetString("provider_reason"), "system_changed");
  EXPECT_EQ(diagnoses[0].GetString("engine_reason"), "instructions_changed");
  EXPECT_EQ(diagnoses[0].GetString("verdict"), "agrees");
}

TEST(SessionCacheDiagnosis, ARefusedComparisonTurnsTheFeatureOff) {
  SessionDriver d;
  ASSERT_TRUE(d.fs()->AddDir("/repo").has_value());
  d.fail = [](const std::string&,
              const std::string& body) -> std::optional<std::pair<int, std::string>> {
    if (body.find("comparison_response_id") == std::string::npos) return std::nullopt;
    return std::make_pair(
        400, std::string(R"({"error":{"message":"Unsupported parameter: )"
                         R"('comparison_response_id'.","type":)"
                         R"("invalid_request_error","code":"unsupported_parameter"}})"));
  };
  d.Start(SessionConfig("gpt-5.6"));
  d.Submit("hello", 1000);
  auto second = d.Submit("again", 2000);
  ASSERT_EQ(d.request_bodies().size(), 3u);  // refused, then sent again without it
  EXPECT_EQ(d.request_bodies()[2].find("comparison_response_id"), std::string::npos);
  EXPECT_NE(d.RolloutText().find(R"("feature":"cache_diagnostics")"), std::string::npos);
  EXPECT_TRUE(EventsOfType(second, "cache_diagnosis").empty());
  d.Submit("third", 3000);
  EXPECT_EQ(d.request_bodies().back().find("comparison_response_id"), std::string::npos);
}

}  // namespace
}  // namespace agentctx
