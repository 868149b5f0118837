// SPDX-License-Identifier: MIT
// Anthropic context editing (`anthropic.context_editing`): the config's validation, the
// `clear_tool_uses_20250919` edit in the body (alone, and merged with server compaction) with
// its beta header, the mock's clearing and its cache effect, and the cost attributed to
// `context_edited` by the session's explainer, its cache_summary and the rollout replay.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../compaction/compaction_session_util.h"
#include "mock_model/mock_context_edits.h"
#include "mock_model/mock_model.h"
#include "protocol/json_codec.h"
#include "session/config.h"

namespace agentctx {
namespace {

using compaction_test::Config;
using compaction_test::Effects;
using compaction_test::Events;
using compaction_test::Seed;
using compaction_test::SessionDriver;

constexpr std::string_view kEdit =
    R"({"trigger":{"type":"tool_uses","value":2},"keep":{"type":"tool_uses","value":1},)"
    R"("clear_at_least":{"type":"input_tokens","value":10},"exclude_tools":["update_plan"],)"
    R"("clear_tool_inputs":true})";

std::string EditingConfig(std::string_view edit = kEdit, const std::string& extra = "",
                          const std::string& model_extra = "") {
  return Config(model_extra, R"(,"provider":"anthropic","anthropic":{"context_editing":)" +
                                 std::string(edit) + "}" + extra);
}

Result<SessionConfig> Parse(const std::string& json) {
  return ParseSessionConfig(*ParseJson(json), nullptr);
}

TEST(ContextEditing, BadParametersAreInvalidConfigNamingThem) {
  struct Case {
    std::string_view edit;
    std::string_view names;
  };
  const std::vector<Case> cases = {
      {R"("on")", "anthropic.context_editing must be an object or null"},
      {R"({"keep_last":3})", "anthropic.context_editing.keep_last is not a parameter"},
      {R"({"trigger":{"type":"turns","value":3}})", "anthropic.context_editing.trigger must be"},
      {R"({"trigger":{"type":"input_tokens","value":0}})", "integer >= 1"},
      {R"({"trigger":{"type":"input_tokens"}})", "anthropic.context_editing.trigger must be"},
      {R"({"keep":{"type":"input_tokens","value":3}})", "anthropic.context_editing.keep must be"},
      {R"({"keep":{"type":"tool_uses","value":-1}})", "anthropic.context_editing.keep must be"},
      {R"({"keep":{"type":"tool_uses","value":1,"extra":2}})", "keep must be"},
      {R"({"clear_at_least":{"type":"tool_uses","value":5}})", "clear_at_least must be"},
      {R"({"exclude_tools":"read_file"})", "exclude_tools must be an array of tool names"},
      {R"({"exclude_tools":[""]})", "exclude_tools must be an array of tool names"},
      {R"({"clear_tool_inputs":"yes"})", "clear_tool_inputs must be an array of tool names"},
  };
  for (const Case& c : cases) {
    auto parsed = Parse(EditingConfig(c.edit));
    ASSERT_FALSE(parsed.has_value()) << c.edit;
    EXPECT_EQ(parsed.error().code, ErrorCode::kInvalidConfig) << c.edit;
    EXPECT_NE(parsed.error().message.find(c.names), std::string::npos)
        << c.edit << ": " << parsed.error().message;
  }
  // Null is off; an empty object is on with the provider's defaults; the session refuses a
  // bad value at start and keeps running on an update that brings one.
  auto off = Parse(EditingConfig("null"));
  ASSERT_TRUE(off.has_value());
  EXPECT_TRUE(off->anthropic.context_edit.empty());
  auto defaults = Parse(EditingConfig("{}"));
  ASSERT_TRUE(defaults.has_value());
  EXPECT_EQ(defaults->anthropic.context_edit, R"({"type":"clear_tool_uses_20250919"})");
  SessionDriver d;
  Seed(&d);
  EXPECT_NE(d.Start(EditingConfig(R"({"keep":3})")).find("invalid_config"), std::string::npos);
}

TEST(ContextEditing, TheEditGoesInContextManagementWithItsBeta) {
  SessionDriver d;
  Seed(&d);
  d.Start(EditingConfig());
  auto effects = d.Submit("read notes.txt please", 1000);
  auto requests = Effects(effects, "model_request");
  ASSERT_FALSE(requests.empty());
  for (const auto& r : requests) {
    const JsonValue* headers = r.Find("headers");
    ASSERT_NE(headers, nullptr);
    EXPECT_EQ(headers->GetString("anthropic-beta"), "context-management-2025-06-27");
  }
  const std::string body = d.request_bodies().back();
  EXPECT_NE(
      body.find(R"(,"context_management":{"edits":[{"type":"clear_tool_uses_20250919",)"
                R"("trigger":{"type":"tool_uses","value":2},"keep":{"type":"tool_uses","value":1},)"
                R"("clear_at_least":{"type":"input_tokens","value":10},)"
                R"("exclude_tools":["update_plan"],"clear_tool_inputs":true}]})"),
      std::string::npos)
      << body;
  // The body type-checks as the SDK's BetaContextManagementConfig shape: edits is an array of
  // objects whose type is the edit's.
  auto parsed = ParseJson(body);
  ASSERT_TRUE(parsed.has_value());
  const JsonValue* edits = parsed->Find("context_management")->Find("edits");
  ASSERT_TRUE(edits->is_array());
  EXPECT_EQ(edits->items()[0].GetString("type"), "clear_tool_uses_20250919");

  // Without the config: no context_management, no beta header.
  SessionDriver plain;
  Seed(&plain);
  plain.Start(Config("", R"(,"provider":"anthropic")"));
  auto plain_effects = plain.Submit("read notes.txt please", 1000);
  for (const auto& r : Effects(plain_effects, "model_request")) {
    EXPECT_EQ(r.Find("headers"), nullptr);
  }
  EXPECT_EQ(plain.request_bodies().back().find("context_management"), std::string::npos);
}

TEST(ContextEditing, MergesWithServerCompactionClearingFirst) {
  SessionDriver d;
  Seed(&d);
  d.Start(EditingConfig(R"({"keep":{"type":"tool_uses","value":2}})",
                        R"(,"compaction":{"strategy":"server"})", R"(,"context_window":200000)"));
  auto effects = d.Submit("hello", 1000);
  auto requests = Effects(effects, "model_request");
  ASSERT_FALSE(requests.empty());
  EXPECT_EQ(requests[0].Find("headers")->GetString("anthropic-beta"),
            "compact-2026-01-12,context-management-2025-06-27");
  const std::string body = d.request_bodies().back();
  EXPECT_NE(body.find(R"("context_management":{"edits":[{"type":"clear_tool_uses_20250919",)"
                      R"("keep":{"type":"tool_uses","value":2}},{"type":"compact_20260112",)"),
            std::string::npos)
      << body;
}

// An Anthropic body with `n` read_file uses and results (result i: 400 bytes of 'x').
std::string BodyWithToolUses(int n, std::string_view edit) {
  std::string messages = R"({"role":"user","content":[{"type":"text","text":"go"}]})";
  for (int i = 0; i < n; ++i) {
    const std::string id = "toolu_" + std::to_string(i);
    messages += R"(,{"role":"assistant","content":[{"type":"tool_use","id":")" + id +
                R"(","name":")" + (i == 0 ? "update_plan" : "read_file") +
                R"(","input":{"path":"/repo/f)" + std::to_string(i) + R"("}}]})";
    messages += R"(,{"role":"user","content":[{"type":"tool_result","tool_use_id":")" + id +
                R"(","content":")" + std::string(400, 'x') + R"("}]})";
  }
  std::string body = R"({"model":"claude-opus-5","max_tokens":100,"messages":[)" + messages + "]";
  if (!edit.empty()) body += R"(,"context_management":{"edits":[)" + std::string(edit) + "]}";
  return body + "}";
}

TEST(ContextEditing, TheMockClearsOldToolResultsPastTheTriggerKeepingTheNewest) {
  const std::string edit =
      R"({"type":"clear_tool_uses_20250919","trigger":{"type":"tool_uses","value":3},)"
      R"("keep":{"type":"tool_uses","value":1},"exclude_tools":["update_plan"],)"
      R"("clear_tool_inputs":["read_file"]})";
  // Below the trigger: nothing.
  auto small = ParseJson(BodyWithToolUses(2, edit));
  EXPECT_FALSE(ApplyMockContextEdits(&*small, 100000).has_value());
  // Four uses: update_plan is excluded, the newest read_file kept, two cleared.
  auto body = ParseJson(BodyWithToolUses(4, edit));
  auto cleared = ApplyMockContextEdits(&*body, 0);
  ASSERT_TRUE(cleared.has_value());
  EXPECT_EQ(cleared->cleared_tool_uses, 2u);
  const std::string edited = ToJson(*body);
  EXPECT_NE(edited.find(R"("tool_use_id":"toolu_0","content":")" + std::string(400, 'x')),
            std::string::npos);
  EXPECT_NE(edited.find(R"("tool_use_id":"toolu_1","content":"[tool result cleared]")"),
            std::string::npos);
  EXPECT_NE(edited.find(R"("tool_use_id":"toolu_2","content":"[tool result cleared]")"),
            std::string::npos);
  EXPECT_NE(edited.find(R"("tool_use_id":"toolu_3","content":")" + std::string(400, 'x')),
            std::string::npos);
  EXPECT_NE(edited.find(R"("id":"toolu_1","name":"read_file","input":{})"), std::string::npos);
  EXPECT_GE(cleared->cleared_input_tokens, 2u * 380 / 4);
  // clear_at_least above what would go: nothing is edited.
  std::string greedy = edit;
  greedy.insert(greedy.size() - 1, R"(,"clear_at_least":{"type":"input_tokens","value":100000})");
  auto untouched = ParseJson(BodyWithToolUses(4, greedy));
  EXPECT_FALSE(ApplyMockContextEdits(&*untouched, 0).has_value());

  // Served: the answer reports applied_edits, and the cleared prefix is not read from cache.
  MockModel mock;
  const std::string full = BodyWithToolUses(4, "");
  auto first = mock.Handle("messages", full, 1000);
  ASSERT_TRUE(first.has_value());
  auto again = mock.Handle("messages", BodyWithToolUses(4, edit), 2000);
  ASSERT_TRUE(again.has_value());
  EXPECT_NE(again->find(R"("context_management":{"applied_edits":[{"type":)"
                        R"("clear_tool_uses_20250919","cleared_tool_uses":2,)"),
            std::string::npos)
      << *again;
  EXPECT_EQ(first->find("context_management"), std::string::npos);
}

std::int64_t SummaryInt(SessionDriver* d, std::string_view path_key, std::string_view field) {
  auto env = ParseJson(d->Call("cache_summary", "{}"));
  const JsonValue* breaks = env->Find("value")->Find("breaks");
  const JsonValue* entry = breaks != nullptr ? breaks->Find(path_key) : nullptr;
  return entry != nullptr ? entry->GetInt(field).value_or(-1) : -1;
}

TEST(ContextEditing, TheCacheCostIsAttributedToContextEditedInSessionAndReplay) {
  SessionDriver d;
  Seed(&d);
  d.Start(EditingConfig(R"({"trigger":{"type":"tool_uses","value":2},)"
                        R"("keep":{"type":"tool_uses","value":1}})"));
  auto first = d.Submit("read notes.txt please", 1000);
  EXPECT_TRUE(Events(first, "context_edit").empty());  // one tool use: below the trigger
  auto second = d.Submit("read notes.txt again please", 2000);
  auto edits = Events(second, "context_edit");
  ASSERT_FALSE(edits.empty());
  EXPECT_EQ(edits[0].GetInt("cleared_tool_uses"), 1);
  EXPECT_GT(*edits[0].GetInt("cleared_input_tokens"), 0);
  const std::int64_t lost = *edits[0].GetInt("lost_tokens");
  EXPECT_GT(lost, 0);
  // The cache report made when the request left saw no break (same bytes as before).
  auto reports = Events(second, "cache_report");
  ASSERT_FALSE(reports.empty());
  EXPECT_TRUE(reports.back().Find("break")->is_null());
  EXPECT_GE(SummaryInt(&d, "context_edited", "count"), 1);
  EXPECT_GE(SummaryInt(&d, "context_edited", "lost_tokens"), lost);

  // The replay attributes the same request's lost tokens to context_edited.
  auto env = ParseJson(
      d.engine().Call(0, "rollout.inspect", "{\"text\":" + JsonString(d.RolloutText()) + "}"));
  ASSERT_TRUE(env->GetBool("ok").value_or(false)) << ToJson(*env);
  const JsonValue* report = env->Find("value")->Find("report");
  const JsonValue* by_cause = report->Find("summary") != nullptr
                                  ? report->Find("summary")->Find("lost_tokens_by_cause")
                                  : report->Find("lost_tokens_by_cause");
  ASSERT_NE(by_cause, nullptr) << ToJson(*report);
  EXPECT_GT(by_cause->GetInt("context_edited").value_or(0), 0) << ToJson(*by_cause);
  EXPECT_EQ(by_cause->Find("server_miss"), nullptr) << ToJson(*by_cause);
}

// An endpoint without context editing (a proxy, an older gateway) answers 400 naming the edit:
// the feature goes off for the session with one warning, and the request goes again without
// `context_management` or its beta; `provider_features.context_editing: false` never sends it.
TEST(ContextEditing, ARefusalTurnsItOffAndTheRequestGoesAgainWithoutIt) {
  SessionDriver d;
  Seed(&d);
  d.fail = [](const std::string&,
              const std::string& body) -> std::optional<std::pair<int, std::string>> {
    if (body.find("clear_tool_uses_20250919") == std::string::npos) return std::nullopt;
    return std::make_pair(
        400, std::string(
                 R"({"type":"error","error":{"type":"invalid_request_error",)"
                 R"("message":"context_management.edits.0: Input tag 'clear_tool_uses_20250919' )"
                 R"(found using 'type' does not match any of the expected tags"}})"));
  };
  d.Start(EditingConfig(kEdit, R"(,"base_url":"https://gateway.example/anthropic")"));
  auto effects = d.Submit("read notes.txt please", 1000);
  // The refused request, the same request again, and the step after the tool call.
  ASSERT_EQ(d.request_bodies().size(), 3u);
  EXPECT_NE(d.request_bodies()[0].find("clear_tool_uses_20250919"), std::string::npos);
  auto requests = Effects(effects, "model_request");
  ASSERT_EQ(requests.size(), 3u);
  EXPECT_NE(requests[0].Find("headers"), nullptr);
  for (std::size_t i = 1; i < 3; ++i) {
    EXPECT_EQ(d.request_bodies()[i].find("context_management"), std::string::npos);
    EXPECT_EQ(requests[i].Find("headers"), nullptr);
  }
  int refused = 0;
  for (const auto& w : Events(effects, "warning")) {
    if (w.GetString("code") != "provider_feature_refused") continue;
    ++refused;
    EXPECT_NE(w.GetString("message").value_or("").find("context_editing"), std::string::npos);
  }
  EXPECT_EQ(refused, 1);
  EXPECT_TRUE(Effects(effects, "error").empty());
  d.Submit("again", 2000);
  EXPECT_EQ(d.request_bodies().back().find("context_management"), std::string::npos);

  SessionDriver off;
  Seed(&off);
  off.Start(EditingConfig(kEdit, R"(,"provider_features":{"context_editing":false})"));
  off.Submit("read notes.txt please", 1000);
  EXPECT_EQ(off.request_bodies().back().find("context_management"), std::string::npos);
}

}  // namespace
}  // namespace agentctx
