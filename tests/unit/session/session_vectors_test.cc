// SPDX-License-Identifier: MIT
// The session protocol's test vectors, one test per case, through the Engine facade.
// One more case ("same script natively and in WASI → byte-identical effect JSON") is the session
// fixture corpus: session_fixtures_test.cc runs in all three gtest builds, and the Embind and
// WASI-host runners compare against the same expected files.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "protocol/json_codec.h"
#include "support/session_driver.h"

namespace agentctx {
namespace {

using testing::SessionDriver;

const char* const kConfig =
    R"({"session_id":"s-1","model":{"slug":"mock-1","instructions":"You are a helpful coding agent."},)"
    R"("builtin_tools":false,"approval_policy":"never","sandbox":{"mode":"read-only"},)"
    R"("environments":[{"id":"local","cwd":"/repo","shell":"bash","fs":"workspace"}]})";

JsonValue Envelope(const std::string& text) {
  auto parsed = ParseJson(text);
  EXPECT_TRUE(parsed.has_value()) << text;
  return parsed.value_or(JsonValue());
}

std::vector<JsonValue> Effects(const std::string& envelope) {
  JsonValue env = Envelope(envelope);
  EXPECT_EQ(env.GetBool("ok"), true) << envelope;
  const JsonValue* value = env.Find("value");
  if (value == nullptr || value->Find("effects") == nullptr) return {};
  return value->Find("effects")->items();
}

// "persist", "event:<type>", "error:<code>", "model_request:<id>#<attempt>", …
std::vector<std::string> Shape(const std::vector<JsonValue>& effects) {
  std::vector<std::string> out;
  for (const auto& e : effects) {
    std::string type(e.GetString("type").value_or("?"));
    if (type == "event") {
      type += ":" + std::string(e.Find("event")->GetString("type").value_or("?"));
      if (const JsonValue* code = e.Find("event")->Find("code")) type += ":" + code->string_value();
    } else if (type == "error") {
      type += ":" + std::string(e.GetString("code").value_or("?"));
    } else if (type == "model_request") {
      type += ":" + std::string(e.GetString("id").value_or("?")) + "#" +
              std::to_string(e.GetInt("attempt").value_or(0));
    } else if (type == "tool_call") {
      type += ":" + std::string(e.GetString("call_id").value_or("?"));
    }
    out.push_back(type);
  }
  return out;
}

// Rollout line labels: the type, or the event_msg payload type.
std::vector<std::string> LineLabels(const JsonValue& persist) {
  std::vector<std::string> out;
  for (const auto& line : persist.Find("lines")->items()) {
    auto parsed = ParseJson(line.string_value());
    std::string type(parsed->GetString("type").value_or("?"));
    const JsonValue* payload = parsed->Find("payload");
    if (type == "event_msg" || type == "response_item") {
      std::string_view inner = payload->GetString("type").value_or("?");
      if (type == "response_item" && inner == "message") {
        type += ":" + std::string(payload->GetString("role").value_or("?"));
      } else {
        type = std::string(inner);
      }
    }
    out.push_back(type);
  }
  return out;
}

std::string Submit(SessionDriver* d, const std::string& text) {
  return d->Call("submit", "{\"text\":" + JsonString(text) + ",\"now_ms\":0}");
}

// The state a rejected call must leave unchanged.
std::string State(SessionDriver* d) {
  return d->Call("history", "{}") + d->Call("world_state", "{}") + d->Call("stats", "{}") +
         d->Call("prompt_preview", "{}") + d->Call("cache_summary", "{}");
}

TEST(SessionVectors, CreateEmitsSessionMetaThenInstructionsLoaded) {
  SessionDriver d;
  auto effects =
      Effects(d.Call("session.start", std::string("{\"config\":") + kConfig + ",\"now_ms\":0}"));
  ASSERT_EQ(Shape(effects), (std::vector<std::string>{"persist", "event:instructions_loaded"}));
  EXPECT_EQ(LineLabels(effects[0]), (std::vector<std::string>{"session_meta"}));
  EXPECT_TRUE(effects[0].Find("lines")->items()[0].string_value().starts_with(
      R"({"timestamp":"1970-01-01T00:00:00.000Z","type":"session_meta","payload":{"id":"s-1",)"));
}

TEST(SessionVectors, FreshSubmitEffectsInOrder) {
  SessionDriver d;
  d.Start(kConfig);
  auto effects = Effects(Submit(&d, "hi"));
  EXPECT_EQ(Shape(effects),
            (std::vector<std::string>{"persist", "event:turn_started", "event:item_done",
                                      "event:item_done", "event:item_done", "event:cache_report",
                                      "model_request:req-1#1"}));
  EXPECT_EQ(LineLabels(effects[0]),
            (std::vector<std::string>{"task_started", "response_item:developer",
                                      "response_item:user", "world_state", "turn_context",
                                      "response_item:user", "user_message", "cache_report"}));
  EXPECT_EQ(effects.back().GetString("purpose"), "turn");
  EXPECT_EQ(effects.back().GetString("endpoint"), "responses");
  EXPECT_EQ(effects.back().GetString("body")->size(), 916u);
}

TEST(SessionVectors, SubmitWhileARequestIsPendingIsTurnInProgress) {
  SessionDriver d;
  d.Start(kConfig);
  Submit(&d, "hi");
  std::string before = State(&d);
  JsonValue env = Envelope(Submit(&d, "again"));
  EXPECT_EQ(env.GetBool("ok"), false);
  EXPECT_EQ(env.Find("error")->GetString("code"), "turn_in_progress");
  EXPECT_EQ(State(&d), before);
}

TEST(SessionVectors, DeliveryForAnUnknownRequestIsStale) {
  SessionDriver d;
  d.Start(kConfig);
  Submit(&d, "hi");
  std::string before = State(&d);
  auto effects = Effects(
      d.Call("deliver",
             R"({"delivery":{"type":"model_events","request_id":"req-9","sse":"data: {}\n\n"}})"));
  EXPECT_EQ(Shape(effects), (std::vector<std::string>{"event:warning:stale_delivery"}));
  EXPECT_EQ(State(&d), before);
  auto tool = Effects(d.Call(
      "deliver", R"({"delivery":{"type":"tool_output","call_id":"call_nope","output":"x"}})"));
  EXPECT_EQ(Shape(tool), (std::vector<std::string>{"event:warning:stale_delivery"}));
}

TEST(SessionVectors, StreamEndWithoutCompletedThenRetry) {
  SessionDriver d;
  d.Start(kConfig);
  auto submitted = Effects(Submit(&d, "hi"));
  std::string body(*submitted.back().GetString("body"));
  auto ended = Effects(
      d.Call("deliver", R"({"delivery":{"type":"model_events","request_id":"req-1","end":true}})"));
  ASSERT_EQ(Shape(ended), (std::vector<std::string>{"error:stream_error"}));
  EXPECT_EQ(ended[0].GetBool("retryable"), true);
  EXPECT_EQ(ended[0].GetString("request_id"), "req-1");
  EXPECT_EQ(ended[0].GetString("message"), "stream closed before response.completed");
  auto retried = Effects(d.Call("retry", R"({"request_id":"req-1"})"));
  ASSERT_EQ(Shape(retried), (std::vector<std::string>{"model_request:req-1#2"}));
  EXPECT_EQ(retried[0].GetString("body"), body);
}

TEST(SessionVectors, RetryOfARequestThatIsNotFailedRetryableIsInvalidState) {
  SessionDriver d;
  d.Start(kConfig);
  EXPECT_EQ(Envelope(d.Call("retry", R"({"request_id":"req-1"})")).Find("error")->GetString("code"),
            "invalid_state");
  Submit(&d, "hi");
  std::string before = State(&d);
  EXPECT_EQ(Envelope(d.Call("retry", R"({"request_id":"req-1"})")).Find("error")->GetString("code"),
            "invalid_state");
  EXPECT_EQ(State(&d), before);
}

TEST(SessionVectors, InterruptWhenIdleHasNoEffects) {
  SessionDriver d;
  d.Start(kConfig);
  EXPECT_TRUE(Effects(d.Call("interrupt", "{}")).empty());
}

TEST(SessionVectors, TwoHostCallsOutputsInReverseOrder) {
  SessionDriver d;
  d.Start(std::string(kConfig).replace(std::string(kConfig).find(R"("builtin_tools")"), 0,
                                       R"("tools":[{"server":"git","name":"status"}],)"));
  Submit(&d, "hi");
  std::string sse =
      "data: {\"type\":\"response.output_item.done\",\"item\":{\"type\":\"function_call\",\"name\":"
      "\"mcp__git__status\",\"arguments\":\"{}\",\"call_id\":\"call_a\"}}\n\n"
      "data: {\"type\":\"response.output_item.done\",\"item\":{\"type\":\"function_call\",\"name\":"
      "\"mcp__git__status\",\"arguments\":\"{\\\"v\\\":1}\",\"call_id\":\"call_b\"}}\n\n"
      "data: {\"type\":\"response.completed\",\"response\":{\"id\":\"r\"}}\n\n";
  auto calls = Effects(d.Call("deliver",
                              "{\"delivery\":{\"type\":\"model_events\",\"request_id\":"
                              "\"req-1\",\"sse\":" +
                                  JsonString(sse) + "}}"));
  auto shape = Shape(calls);
  ASSERT_GE(shape.size(), 2u);
  EXPECT_EQ(std::vector<std::string>(shape.end() - 2, shape.end()),
            (std::vector<std::string>{"tool_call:call_a", "tool_call:call_b"}));
  auto first = Effects(
      d.Call("deliver", R"({"delivery":{"type":"tool_output","call_id":"call_b","output":"B"}})"));
  EXPECT_TRUE(first.empty());  // nothing recorded, no request until every output is in
  auto second = Effects(
      d.Call("deliver", R"({"delivery":{"type":"tool_output","call_id":"call_a","output":"A"}})"));
  ASSERT_FALSE(second.empty());
  auto lines = second[0].Find("lines")->items();
  ASSERT_GE(lines.size(), 2u);
  EXPECT_NE(lines[0].string_value().find(R"("call_id":"call_a","output":"A")"), std::string::npos);
  EXPECT_NE(lines[1].string_value().find(R"("call_id":"call_b","output":"B")"), std::string::npos);
  EXPECT_EQ(Shape(second).back(), "model_request:req-2#1");
  // A second output for an answered call is stale.
  auto again = Effects(
      d.Call("deliver", R"({"delivery":{"type":"tool_output","call_id":"call_a","output":"A"}})"));
  EXPECT_EQ(Shape(again), (std::vector<std::string>{"event:warning:stale_delivery"}));
}

TEST(SessionVectors, BogusSandboxModeIsInvalidConfigAndChangesNothing) {
  SessionDriver d;
  d.Start(kConfig);
  std::string before = State(&d);
  JsonValue env = Envelope(d.Call("update", R"({"delta":{"sandbox":{"mode":"bogus"}}})"));
  EXPECT_EQ(env.GetBool("ok"), false);
  EXPECT_EQ(env.Find("error")->GetString("code"), "invalid_config");
  EXPECT_EQ(State(&d), before);
  // The next turn still speaks of the read-only sandbox.
  d.Submit("hi", 0);
  EXPECT_NE(d.request_bodies().back().find("`sandbox_mode` is `read-only`"), std::string::npos);
}

}  // namespace
}  // namespace agentctx
