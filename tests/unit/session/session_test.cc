// SPDX-License-Identifier: MIT
// Whole-conversation tests through the Engine facade against the embedded mock model.
#include <gtest/gtest.h>

#include "protocol/json_codec.h"
#include "support/session_driver.h"

namespace agentctx {
namespace {

using testing::SessionDriver;

std::string Config(std::string extra = "") {
  return R"({"session_id":"s-1","model":{"slug":"mock-1","instructions":"You are a helpful coding agent."},)"
         R"("approval_policy":"never","sandbox":{"mode":"read-only"},)"
         R"("environments":[{"id":"local","cwd":"/repo","shell":"bash","fs":"workspace"}])" +
         extra + "}";
}

std::vector<std::string> Types(const std::vector<JsonValue>& effects) {
  std::vector<std::string> out;
  for (const auto& e : effects) out.emplace_back(e.GetString("type").value_or("?"));
  return out;
}

const JsonValue* Find(const std::vector<JsonValue>& effects, std::string_view type) {
  for (const auto& e : effects) {
    if (e.GetString("type") == type) return &e;
  }
  return nullptr;
}

TEST(Session, CreatePersistsSessionMetaThenInstructionsLoaded) {
  SessionDriver d;
  auto env = ParseJson(d.Start(Config()));
  ASSERT_TRUE(env->GetBool("ok").value_or(false)) << ToJson(*env);
  const auto& effects = env->Find("value")->Find("effects")->items();
  ASSERT_EQ(effects.size(), 2u);
  EXPECT_EQ(effects[0].GetString("type"), "persist");
  EXPECT_NE(effects[0].Find("lines")->items()[0].string_value().find("\"type\":\"session_meta\""),
            std::string::npos);
  EXPECT_EQ(effects[1].Find("event")->GetString("type"), "instructions_loaded");
}

TEST(Session, FirstRequestIsTheSpec916ByteBody) {
  SessionDriver d;
  d.Start(Config(R"(,"builtin_tools":false)"));
  d.Submit("hi", 0);
  ASSERT_GE(d.request_bodies().size(), 1u);
  EXPECT_EQ(d.request_bodies()[0].size(), 916u) << d.request_bodies()[0];
  EXPECT_TRUE(d.request_bodies()[0].ends_with(
      R"("tools":[],"tool_choice":"auto","parallel_tool_calls":true,"reasoning":{},"store":false,"stream":true,"include":["reasoning.encrypted_content"],"prompt_cache_key":"s-1"})"));
}

TEST(Session, ToolCallsThenAnswerWithPrefixStableRequests) {
  SessionDriver d;
  ASSERT_TRUE(d.fs()->AddFile("/repo/src/main.rs", "fn main() {\n  run();\n}\n").has_value());
  ASSERT_TRUE(d.fs()->AddFile("/repo/README.md", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n").has_value());
  d.Start(Config());
  auto effects = d.Submit("Please read src/main.rs and README.md.", 0);
  const JsonValue* done = Find(effects, "turn_complete");
  ASSERT_NE(done, nullptr);
  EXPECT_EQ(done->GetString("reason"), "completed");
  EXPECT_EQ(done->GetString("last_agent_message"),
            "Read src/main.rs: 3 lines.\nRead README.md: 10 lines.");
  ASSERT_EQ(d.request_bodies().size(), 2u);
  // Request 2's input starts with request 1's input bytes (history only grows).
  const std::string& a = d.request_bodies()[0];
  const std::string& b = d.request_bodies()[1];
  std::size_t input_end = a.find("],\"tools\":");
  ASSERT_NE(input_end, std::string::npos);
  EXPECT_EQ(b.substr(0, input_end), a.substr(0, input_end));
  auto summary = ParseJson(d.Call("cache_summary", "{}"));
  EXPECT_EQ(summary->Find("value")->Find("breaks")->members().size(), 0u);
}

TEST(Session, SseSplitAtEveryByteGivesTheSameConversation) {
  SessionDriver whole;
  SessionDriver bytewise;
  bytewise.chunk_size = 1;
  for (SessionDriver* d : {&whole, &bytewise}) {
    ASSERT_TRUE(d->fs()->AddFile("/repo/a.txt", "one\r\ntwo\n").has_value());
    d->Start(Config());
    d->Submit("read a.txt please", 0);
  }
  EXPECT_EQ(whole.request_bodies(), bytewise.request_bodies());
  EXPECT_EQ(whole.RolloutText(), bytewise.RolloutText());
}

TEST(Session, RejectedCallsChangeNothing) {
  SessionDriver d;
  d.Start(Config());
  std::string before = d.Call("history", "{}");
  auto first = ParseJson(d.Call("submit", R"({"text":"hello"})"));
  ASSERT_TRUE(first->GetBool("ok").value_or(false));
  std::string mid = d.Call("history", "{}");
  auto again = ParseJson(d.Call("submit", R"({"text":"again"})"));
  EXPECT_EQ(again->Find("error")->GetString("code"), "turn_in_progress");
  EXPECT_EQ(d.Call("history", "{}"), mid);
  auto bad = ParseJson(d.Call("update", R"({"delta":{"sandbox":{"mode":"bogus"}}})"));
  EXPECT_EQ(bad->Find("error")->GetString("code"), "invalid_config");
  EXPECT_NE(before, mid);
}

TEST(Session, StaleDeliveryWarns) {
  SessionDriver d;
  d.Start(Config());
  auto r = ParseJson(
      d.Call("deliver", R"({"delivery":{"type":"model_events","request_id":"req-9","sse":"x"}})"));
  ASSERT_TRUE(r->GetBool("ok").value_or(false));
  EXPECT_NE(ToJson(*r).find("stale_delivery"), std::string::npos);
}

TEST(Session, CutStreamIsRetryableAndRetryResendsTheSameBody) {
  SessionDriver d;
  d.Start(Config());
  auto submitted = ParseJson(d.Call("submit", R"({"text":"hello"})"));
  std::string body;
  for (const auto& e : submitted->Find("value")->Find("effects")->items()) {
    if (e.GetString("type") == "model_request") body = std::string(*e.GetString("body"));
  }
  ASSERT_FALSE(body.empty());
  auto cut = ParseJson(
      d.Call("deliver", R"({"delivery":{"type":"model_events","request_id":"req-1","end":true}})"));
  std::string cut_json = ToJson(*cut);
  EXPECT_NE(
      cut_json.find(
          R"("type":"error","code":"stream_error","message":"stream closed before response.completed","retryable":true,"request_id":"req-1")"),
      std::string::npos)
      << cut_json;
  EXPECT_EQ(cut_json.find("turn_complete"), std::string::npos);
  auto retried = ParseJson(d.Call("retry", R"({"request_id":"req-1"})"));
  const JsonValue& req = retried->Find("value")->Find("effects")->items().back();
  EXPECT_EQ(req.GetString("id"), "req-1");
  EXPECT_EQ(req.GetInt("attempt"), 2);
  EXPECT_EQ(req.GetString("body"), body);
  auto wrong = ParseJson(d.Call("retry", R"({"request_id":"req-1"})"));
  EXPECT_EQ(wrong->Find("error")->GetString("code"), "invalid_state");
}

TEST(Session, HostToolOutputsAreRecordedInCallOrder) {
  SessionDriver d;
  d.Start(Config(R"(,"tools":[{"server":"git","name":"status"}],"builtin_tools":false)"));
  // No built-ins: references can't become read_file calls, so the mock just answers; drive the
  // host-call path by delivering a model stream with two calls directly.
  auto submitted = ParseJson(d.Call("submit", R"({"text":"hi"})"));
  ASSERT_TRUE(submitted->GetBool("ok").value_or(false));
  std::string sse =
      "data: "
      "{\"type\":\"response.output_item.done\",\"item\":{\"type\":\"function_call\",\"name\":\"mcp_"
      "_git__status\",\"arguments\":\"{}\",\"call_id\":\"call_a\"}}\n\n"
      "data: "
      "{\"type\":\"response.output_item.done\",\"item\":{\"type\":\"function_call\",\"name\":\"mcp_"
      "_git__status\",\"arguments\":\"{\\\"v\\\":1}\",\"call_id\":\"call_b\"}}\n\n"
      "data: {\"type\":\"response.completed\",\"response\":{\"id\":\"r\"}}\n\n";
  auto delivered = ParseJson(d.Call(
      "deliver", "{\"delivery\":{\"type\":\"model_events\",\"request_id\":\"req-1\",\"sse\":" +
                     JsonString(sse) + "}}"));
  auto effects = delivered->Find("value")->Find("effects")->items();
  std::vector<std::string> calls;
  for (const auto& e : effects) {
    if (e.GetString("type") == "tool_call") {
      calls.emplace_back(*e.GetString("call_id"));
      EXPECT_EQ(e.GetString("server"), "git");
      EXPECT_EQ(e.GetString("tool"), "status");
    }
  }
  EXPECT_EQ(calls, (std::vector<std::string>{"call_a", "call_b"}));
  auto first = ParseJson(
      d.Call("deliver", R"({"delivery":{"type":"tool_output","call_id":"call_b","output":"B"}})"));
  EXPECT_EQ(ToJson(*first).find("model_request"), std::string::npos);
  auto second = ParseJson(
      d.Call("deliver", R"({"delivery":{"type":"tool_output","call_id":"call_a","output":"A"}})"));
  std::string next = ToJson(*second);
  std::size_t a = next.find(R"(\"call_id\":\"call_a\",\"output\":\"A\")");
  std::size_t b = next.find(R"(\"call_id\":\"call_b\",\"output\":\"B\")");
  ASSERT_NE(a, std::string::npos) << next;
  ASSERT_NE(b, std::string::npos);
  EXPECT_LT(a, b);
  EXPECT_NE(next.find("\"model_request\""), std::string::npos);
}

TEST(Session, ProbeModeAppendsTheReplacementNoticeWithoutBreakingThePrefix) {
  SessionDriver d;
  ASSERT_TRUE(d.fs()->AddDir("/repo/.git").has_value());
  ASSERT_TRUE(d.fs()->AddFile("/repo/AGENTS.md", "reply prefix: [a]").has_value());
  d.Start(Config(R"(,"agents_md":{"refresh":"probe"})"));
  d.Submit("hello", 0);
  d.fs()->SetClock(5000);
  ASSERT_TRUE(d.fs()->Write("/repo/AGENTS.md", "reply prefix: [b]", false).has_value());
  auto effects = d.Submit("hello again", 1000);
  const JsonValue* done = Find(effects, "turn_complete");
  ASSERT_NE(done, nullptr);
  EXPECT_EQ(done->GetString("last_agent_message"), "[b] Mock reply to: hello again");
  const std::string& last = d.request_bodies().back();
  EXPECT_NE(last.find("These AGENTS.md instructions replace all previously provided AGENTS.md "
                      "instructions.\\n\\nreply prefix: [b]"),
            std::string::npos);
  auto summary = ParseJson(d.Call("cache_summary", "{}"));
  EXPECT_EQ(summary->Find("value")->Find("breaks")->members().size(), 0u) << ToJson(*summary);
}

TEST(Session, SelectionModeDoesNotSeeEdits) {
  SessionDriver d;
  ASSERT_TRUE(d.fs()->AddFile("/repo/AGENTS.md", "reply prefix: [a]").has_value());
  d.Start(Config());
  d.Submit("hello", 0);
  ASSERT_TRUE(d.fs()->Write("/repo/AGENTS.md", "reply prefix: [b]", false).has_value());
  auto effects = d.Submit("again", 1000);
  EXPECT_EQ(Find(effects, "turn_complete")->GetString("last_agent_message"),
            "[a] Mock reply to: again");
}

TEST(Session, CwdChangeAppendsEnvironmentContext) {
  SessionDriver d;
  ASSERT_TRUE(d.fs()->AddDir("/repo/src").has_value());  // a cwd must exist
  d.Start(Config());
  d.Submit("one", 0);
  auto updated = d.Update(R"({"cwd":"/repo/src"})", 10);
  d.Submit("two", 20);
  const std::string& last = d.request_bodies().back();
  EXPECT_NE(last.find("<environment_context>\\n  <cwd>/repo/src</cwd>"), std::string::npos);
  EXPECT_EQ(Types(updated).size(), 0u);
}

}  // namespace
}  // namespace agentctx
