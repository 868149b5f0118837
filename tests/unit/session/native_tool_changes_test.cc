// SPDX-License-Identifier: MIT
// `tool_policy: native`: a tool added or removed mid-session reaches the model at the next step
// through the provider's own channel (Responses `additional_tools` + a removal notice, Anthropic
// `tool_addition` / `tool_removal` in a system message with its betas), the request before stays
// a byte prefix, the mock can call the added tool in the same turn, Chat falls back to `defer`
// with one warning, a refusal falls back for the rest of the session, a compaction re-bases the
// tools array, and a call still running when its tool is removed gets a tool error.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "protocol/json_codec.h"
#include "support/session_driver.h"

namespace agentctx {
namespace {

using testing::SessionDriver;

std::string Config(const std::string& provider, const std::string& features = "") {
  return R"({"session_id":"native-1","model":{"slug":"mock-1","instructions":"Be helpful."},)"
         R"("approval_policy":"never","provider":")" +
         provider +
         R"(","builtin_tools":false,"tool_policy":"native",)"
         R"("tools":[{"server":"git","name":"status","description":"Shows the status."}],)" +
         features +
         R"("environments":[{"id":"local","cwd":"/repo","shell":"bash","fs":"workspace"}]})";
}

const std::string kFeatureOn = R"("provider_features":{"tool_changes":true},)";
const std::string kAddLog =
    R"({"tools":[{"server":"git","name":"status","description":"Shows the status."},)"
    R"({"server":"git","name":"log","description":"Shows the log."}]})";
const std::string kRemoveStatus = R"({"tools":[]})";

std::vector<const JsonValue*> Effects(const std::vector<JsonValue>& all, std::string_view type) {
  std::vector<const JsonValue*> out;
  for (const auto& e : all) {
    if (e.GetString("type") == type) out.push_back(&e);
  }
  return out;
}

std::vector<const JsonValue*> Events(const std::vector<JsonValue>& all, std::string_view type) {
  std::vector<const JsonValue*> out;
  for (const JsonValue* e : Effects(all, "event")) {
    const JsonValue* event = e->Find("event");
    if (event != nullptr && event->GetString("type") == type) out.push_back(event);
  }
  return out;
}

std::vector<std::string> WarningCodes(const std::vector<JsonValue>& all) {
  std::vector<std::string> out;
  for (const JsonValue* w : Events(all, "warning")) {
    out.emplace_back(w->GetString("code").value_or(""));
  }
  return out;
}

std::vector<std::string> ToolCallNames(const std::vector<JsonValue>& all) {
  std::vector<std::string> out;
  for (const JsonValue* c : Effects(all, "tool_call")) {
    out.emplace_back(c->GetString("name").value_or(""));
  }
  return out;
}

// The body up to the end of its last input item / message (the part a later body extends).
std::string ItemsPrefix(const std::string& body, const std::string& tail_key) {
  const std::size_t at = body.rfind("]," + tail_key);
  return at == std::string::npos ? body : body.substr(0, at);
}

std::string ToolsArray(const std::string& body) {
  const std::size_t at = body.find("\"tools\":[");
  if (at == std::string::npos) return "";
  return body.substr(at, body.find("],\"system\"", at) - at);
}

void Seed(SessionDriver* d) { ASSERT_TRUE(d->fs()->AddDir("/repo").has_value()); }

TEST(NativeToolChanges, ResponsesAppendsAdditionalToolsAndTheMockCallsTheToolInTheSameTurn) {
  SessionDriver d;
  Seed(&d);
  ASSERT_NE(d.Start(Config("responses", kFeatureOn)).find("\"ok\":true"), std::string::npos);
  d.Submit("hello", 1000);
  d.Update(kAddLog, 1500);
  auto effects = d.Submit("#mock-call:mcp__git__log={}", 2000);
  ASSERT_GE(d.request_bodies().size(), 2u);
  const std::string& before = d.request_bodies()[0];
  const std::string& after = d.request_bodies()[1];
  // A byte extension: everything up to the previous body's last item is unchanged, and the
  // top-level tools array still holds only the frozen list.
  EXPECT_EQ(after.substr(0, ItemsPrefix(before, "\"tools\"").size()),
            ItemsPrefix(before, "\"tools\""));
  EXPECT_EQ(after.substr(after.rfind("],\"tools\":")), before.substr(before.rfind("],\"tools\":")));
  EXPECT_NE(
      after.find(
          R"({"type":"additional_tools","role":"developer","tools":[{"type":"function","name":"mcp__git__log")"),
      std::string::npos)
      << after;
  // The change comes after the user message that asks for the call.
  EXPECT_LT(after.find("#mock-call:mcp__git__log"), after.find("additional_tools"));
  EXPECT_EQ(ToolCallNames(effects), std::vector<std::string>{"mcp__git__log"});
  // The explainer names the change, with nothing lost.
  auto reports = Events(effects, "cache_report");
  ASSERT_FALSE(reports.empty());
  const JsonValue* change = reports[0]->Find("tool_change");
  ASSERT_NE(change, nullptr) << ToJson(*reports[0]);
  EXPECT_EQ(ToJson(*change), R"({"added":["mcp__git__log"],"removed":[],"lost_tokens":0})");
  EXPECT_TRUE(reports[0]->Find("break")->is_null()) << ToJson(*reports[0]);
  // Later requests carry the change again (history), and the rollout has it.
  EXPECT_NE(d.request_bodies().back().find("additional_tools"), std::string::npos);
  EXPECT_NE(d.RolloutText().find(R"("type":"tool_changes","added":[)"), std::string::npos);
}

TEST(NativeToolChanges, ResponsesRemovalIsANoticeAndTheMockNoLongerCallsTheTool) {
  SessionDriver d;
  Seed(&d);
  d.Start(Config("responses", kFeatureOn));
  d.Submit("hello", 1000);
  d.Update(kRemoveStatus, 1500);
  auto effects = d.Submit("#mock-call:mcp__git__status={}", 2000);
  const std::string& after = d.request_bodies()[1];
  EXPECT_NE(after.find("The following tools were removed and can no longer be called:\\n- "
                       "mcp__git__status"),
            std::string::npos)
      << after;
  EXPECT_EQ(after.find("additional_tools"), std::string::npos);
  EXPECT_EQ(after.substr(after.rfind("],\"tools\":")),
            d.request_bodies()[0].substr(d.request_bodies()[0].rfind("],\"tools\":")));
  EXPECT_TRUE(ToolCallNames(effects).empty());
}

TEST(NativeToolChanges, AnthropicSendsToolAdditionInASystemMessageWithItsBetas) {
  SessionDriver d;
  Seed(&d);
  d.Start(Config("anthropic", kFeatureOn));
  auto first = d.Submit("hello", 1000);
  for (const JsonValue* r : Effects(first, "model_request")) {
    const JsonValue* headers = r->Find("headers");
    const std::string beta(headers != nullptr ? headers->GetString("anthropic-beta").value_or("")
                                              : "");
    EXPECT_EQ(beta.find("inline-tools"), std::string::npos) << "no tool betas before a change";
  }
  d.Update(kAddLog, 1500);
  auto effects = d.Submit("#mock-call:mcp__git__log={}", 2000);
  const std::string& after = d.request_bodies()[1];
  EXPECT_NE(
      after.find(
          R"({"role":"system","content":[{"type":"tool_addition","tool":{"type":"tool_definition","definition":{"name":"mcp__git__log","description":"Shows the log.","input_schema":)"),
      std::string::npos)
      << after;
  EXPECT_EQ(ToolsArray(after), ToolsArray(d.request_bodies()[0]));
  auto requests = Effects(effects, "model_request");
  ASSERT_FALSE(requests.empty());
  const JsonValue* headers = requests[0]->Find("headers");
  ASSERT_NE(headers, nullptr);
  const std::string beta(headers->GetString("anthropic-beta").value_or(""));
  EXPECT_NE(beta.find("mid-conversation-tool-changes-2026-07-01"), std::string::npos) << beta;
  EXPECT_NE(beta.find("inline-tools-2026-09-15"), std::string::npos) << beta;
  EXPECT_EQ(ToolCallNames(effects), std::vector<std::string>{"mcp__git__log"});
  auto reports = Events(effects, "cache_report");
  ASSERT_FALSE(reports.empty());
  EXPECT_NE(reports[0]->Find("tool_change"), nullptr);
  EXPECT_TRUE(reports[0]->Find("break")->is_null()) << ToJson(*reports[0]);
  // A removal is a tool_removal reference; the mock then refuses to call it.
  d.Update(R"({"tools":[{"server":"git","name":"status","description":"Shows the status."}]})",
           2500);
  auto removed = d.Submit("#mock-call:mcp__git__log={}", 3000);
  EXPECT_NE(
      d.request_bodies().back().find(
          R"({"type":"tool_removal","tool":{"type":"tool_reference","name":"mcp__git__log"}})"),
      std::string::npos);
  EXPECT_TRUE(ToolCallNames(removed).empty());
}

TEST(NativeToolChanges, ChatFallsBackToDeferWithOneWarning) {
  SessionDriver d;
  Seed(&d);
  d.Start(Config("chat"));
  auto first = d.Submit("hello", 1000);
  d.Update(kAddLog, 1500);
  auto second = d.Submit("again", 2000);
  std::vector<std::string> codes = WarningCodes(first);
  for (const auto& c : WarningCodes(second)) codes.push_back(c);
  EXPECT_EQ(std::count(codes.begin(), codes.end(), "tool_policy_fallback"), 1);
  const std::string& after = d.request_bodies().back();
  EXPECT_NE(after.find("will become callable after the next context compaction"),
            std::string::npos);
  EXPECT_EQ(after.find("mcp__git__log\",\"description\""), std::string::npos)
      << "the tools array stays frozen";
}

TEST(NativeToolChanges, OffByDefaultOnAModelOutsideTheTableActsAsDeferWithoutWarning) {
  SessionDriver d;
  Seed(&d);
  d.Start(Config("responses"));
  auto first = d.Submit("hello", 1000);
  d.Update(kAddLog, 1500);
  auto second = d.Submit("again", 2000);
  EXPECT_EQ(d.request_bodies().back().find("additional_tools"), std::string::npos);
  EXPECT_NE(d.request_bodies().back().find("will become callable after the next context"),
            std::string::npos);
  for (const auto& c : WarningCodes(second)) EXPECT_NE(c, "tool_policy_fallback");
}

TEST(NativeToolChanges, ARefusalFallsBackToDeferForTheRestOfTheSession) {
  SessionDriver d;
  Seed(&d);
  int refusals = 0;
  d.fail = [&refusals](const std::string&,
                       const std::string& body) -> std::optional<std::pair<int, std::string>> {
    if (body.find("\"additional_tools\"") == std::string::npos) return std::nullopt;
    ++refusals;
    return std::make_pair(
        400, std::string(R"({"error":{"message":"Invalid input item type: 'additional_tools'.",)"
                         R"("type":"invalid_request_error","param":"input"}})"));
  };
  d.Start(Config("responses", kFeatureOn));
  d.Submit("hello", 1000);
  d.Update(kAddLog, 1500);
  auto effects = d.Submit("again", 2000);
  EXPECT_EQ(refusals, 1);
  auto codes = WarningCodes(effects);
  EXPECT_EQ(std::count(codes.begin(), codes.end(), "provider_feature_refused"), 1);
  for (const JsonValue* w : Events(effects, "warning")) {
    if (w->GetString("code") != "provider_feature_refused") continue;
    EXPECT_NE(w->GetString("message").value_or("").find("tool_changes"), std::string::npos);
  }
  EXPECT_TRUE(Effects(effects, "error").empty());
  const std::string& resent = d.request_bodies().back();
  EXPECT_EQ(resent.find("additional_tools"), std::string::npos);
  EXPECT_NE(resent.find("will become callable after the next context compaction"),
            std::string::npos);
  d.Update(R"({"tools":[]})", 2500);
  d.Submit("third", 3000);
  EXPECT_EQ(refusals, 1);
  EXPECT_EQ(d.request_bodies().back().find("additional_tools"), std::string::npos);
}

TEST(NativeToolChanges, ACompactionRebasesTheToolsArray) {
  SessionDriver d;
  Seed(&d);
  d.Start(Config("responses", kFeatureOn));
  d.Submit("hello", 1000);
  d.Update(kAddLog, 1500);
  d.Submit("again", 2000);
  EXPECT_EQ(d.request_bodies().back().find("\"name\":\"mcp__git__log\",\"description\"",
                                           d.request_bodies().back().rfind("],\"tools\":")),
            std::string::npos);
  d.Compact(3000);
  d.Submit("after", 4000);
  const std::string& after = d.request_bodies().back();
  EXPECT_NE(after.find("\"name\":\"mcp__git__log\"", after.rfind("],\"tools\":")),
            std::string::npos)
      << after;
  EXPECT_EQ(after.find("additional_tools"), std::string::npos);
}

TEST(NativeToolChanges, ACallRunningWhenItsToolIsRemovedGetsAToolError) {
  SessionDriver d;
  Seed(&d);
  d.Start(Config("responses", kFeatureOn));
  bool removed = false;
  d.host_tool = [&d, &removed](const std::string&, const std::string&) {
    if (!removed) {
      removed = true;
      d.Update(kRemoveStatus, 1500);  // the host's tool went away while the call ran
    }
    return std::string("late output");
  };
  auto effects = d.Submit("#mock-call:mcp__git__status={}", 1000);
  ASSERT_TRUE(removed);
  const std::string history = d.Call("inspect", R"({"format":"request"})");
  EXPECT_NE(history.find("was removed while this call was running"), std::string::npos) << history;
  EXPECT_EQ(history.find("late output"), std::string::npos);
  auto codes = WarningCodes(effects);
  EXPECT_NE(std::find(codes.begin(), codes.end(), "stale_delivery"), codes.end());
}

}  // namespace
}  // namespace agentctx
