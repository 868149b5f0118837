// SPDX-License-Identifier: MIT
// Deliveries a hostile or broken server (or host) can produce, at the facade: a response with
// more output items or more streamed bytes than one response may have (session/
// response_limits.h) fails at once with a clear, non-retryable error naming the limit, and a
// delivery whose `sse` or `events` has the wrong type is refused naming the field. The session
// stays usable afterwards.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "agentctx/engine.h"
#include "protocol/json_codec.h"
#include "session/response_limits.h"
#include "support/memory_file_system.h"

namespace agentctx {
namespace {

constexpr const char* kConfig =
    R"({"config":{"session_id":"s-1","model":{"slug":"mock-1"},"builtin_tools":false,)"
    R"("environments":[{"id":"local","cwd":"/repo","fs":"workspace"}]}})";

struct Fixture {
  Engine engine;
  std::uint32_t handle = 0;
  Fixture() {
    handle = engine.Open();
    auto fs = std::make_shared<MemoryFileSystem>();
    (void)fs->AddDir("/repo");
    engine.AddFileSystem(handle, "workspace", fs);
    EXPECT_NE(engine.Call(handle, "session.start", kConfig).find("\"ok\":true"), std::string::npos);
  }
  // Submits `text`; returns the request id of its model_request.
  std::string Submit(const std::string& text) {
    JsonValue env =
        *ParseJson(engine.Call(handle, "submit", R"({"text":)" + JsonString(text) + "}"));
    for (const JsonValue& e : env.Find("value")->Find("effects")->items()) {
      if (e.GetString("type") == "model_request") return std::string(*e.GetString("id"));
    }
    ADD_FAILURE() << "no model_request";
    return "";
  }
  // Delivers `sse` (as an input attachment) for `request_id`; returns the parsed envelope.
  JsonValue Deliver(const std::string& request_id, std::string_view sse, bool end = false) {
    std::string input = R"({"delivery":{"type":"model_events","request_id":)" +
                        JsonString(request_id) + R"(,"sse":{"$bytes":0})" +
                        (end ? R"(,"end":true)" : "") + "}}";
    return *ParseJson(engine.Call(handle, "deliver", input, {sse}));
  }
};

const JsonValue* EffectOf(const JsonValue& envelope, std::string_view type) {
  const JsonValue* value = envelope.Find("value");
  if (value == nullptr) return nullptr;
  for (const JsonValue& e : value->Find("effects")->items()) {
    if (e.GetString("type") == type) return &e;
  }
  return nullptr;
}

std::string ItemDone(std::size_t i) {
  return "event: response.output_item.done\ndata: "
         R"({"type":"response.output_item.done","output_index":)" +
         std::to_string(i) + R"(,"item":{"type":"message","id":"msg_)" + std::to_string(i) +
         R"(","role":"assistant","content":[{"type":"output_text","text":"hi"}]}})"
         "\n\n";
}

constexpr std::string_view kCompleted =
    "event: response.completed\ndata: "
    R"({"type":"response.completed","response":{"id":"r","usage":{"input_tokens":1,)"
    R"("output_tokens":1,"total_tokens":2}}})"
    "\n\n";

void ExpectUsableAfterwards(Fixture& f) {
  const std::string id = f.Submit("next");
  JsonValue env = f.Deliver(id, ItemDone(0) + std::string(kCompleted), true);
  const JsonValue* done = EffectOf(env, "turn_complete");
  ASSERT_NE(done, nullptr) << ToJson(env);
  EXPECT_EQ(done->GetString("reason"), "completed");
}

TEST(Regression, AResponseOverTheOutputItemLimitFailsAtOnceNotRetryable) {
  Fixture f;
  const std::string id = f.Submit("hi");
  std::string sse;
  for (std::size_t i = 0; i <= kMaxResponseOutputItems; ++i) sse += ItemDone(i);
  sse += kCompleted;
  JsonValue env = f.Deliver(id, sse, true);
  const JsonValue* error = EffectOf(env, "error");
  ASSERT_NE(error, nullptr) << ToJson(env).substr(0, 500);
  EXPECT_EQ(error->GetString("code"), "stream_error");
  EXPECT_EQ(error->GetBool("retryable"), false);
  EXPECT_EQ(error->GetString("message"),
            "the response has more than 4096 output items, the limit of one model response; the "
            "same request would get the same response, so it is not retried");
  const JsonValue* done = EffectOf(env, "turn_complete");
  ASSERT_NE(done, nullptr);
  EXPECT_EQ(done->GetString("reason"), "failed");
  // Nothing of that response was recorded.
  JsonValue history = *ParseJson(f.engine.Call(f.handle, "history", "{}"));
  ASSERT_TRUE(history.Find("value")->is_array());
  for (const JsonValue& entry : history.Find("value")->items()) {
    EXPECT_NE(entry.Find("item")->GetString("role"), "assistant") << ToJson(entry).substr(0, 200);
  }
  ExpectUsableAfterwards(f);
}

TEST(Regression, AResponseStreamingMoreThanTheByteLimitFailsAtOnceNotRetryable) {
  Fixture f;
  const std::string id = f.Submit("hi");
  // Comment lines: bytes that carry no event, 1 MiB per delivery.
  const std::string chunk = ":" + std::string((1u << 20) - 2, 'x') + "\n";
  JsonValue env;
  std::uint64_t sent = 0;
  while (sent <= kMaxResponseBytes) {
    env = f.Deliver(id, chunk);
    sent += chunk.size();
    if (sent <= kMaxResponseBytes) {
      ASSERT_EQ(EffectOf(env, "error"), nullptr) << "failed early, at " << sent << " bytes";
    }
  }
  const JsonValue* error = EffectOf(env, "error");
  ASSERT_NE(error, nullptr) << ToJson(env);
  EXPECT_EQ(error->GetString("code"), "stream_error");
  EXPECT_EQ(error->GetBool("retryable"), false);
  EXPECT_EQ(error->GetString("message"),
            "the response streamed more than 134217728 bytes, the limit of one model response; "
            "the same request would stream the same response, so it is not retried");
  const JsonValue* done = EffectOf(env, "turn_complete");
  ASSERT_NE(done, nullptr);
  EXPECT_EQ(done->GetString("reason"), "failed");
  ExpectUsableAfterwards(f);
}

TEST(Regression, ADeliverySseOrEventsOfTheWrongTypeIsInvalidInputNamingTheField) {
  Fixture f;
  const std::string id = f.Submit("hi");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"("sse":42)", "a delivery's `sse` must be a string or bytes, not a number"},
      {R"("sse":{"a":1})", "a delivery's `sse` must be a string or bytes, not an object"},
      {R"("sse":null)", "a delivery's `sse` must be a string or bytes, not null"},
      {R"("sse":[1])", "a delivery's `sse` must be a string or bytes, not an array"},
      {R"("events":"x")", "a delivery's `events` must be an array, not a string"},
  };
  for (const auto& [field, message] : cases) {
    std::string input =
        R"({"delivery":{"type":"model_events","request_id":)" + JsonString(id) + "," + field + "}}";
    JsonValue env = *ParseJson(f.engine.Call(f.handle, "deliver", input));
    ASSERT_EQ(env.GetBool("ok"), false) << field;
    EXPECT_EQ(env.Find("error")->GetString("code"), "invalid_input");
    EXPECT_EQ(env.Find("error")->GetString("message"), message);
    // Also without the `delivery` wrapper (the input itself is the delivery).
    input = R"({"type":"model_events","request_id":)" + JsonString(id) + "," + field + "}";
    env = *ParseJson(f.engine.Call(f.handle, "deliver", input));
    EXPECT_EQ(env.Find("error")->GetString("message"), message);
  }
  // The request is still pending: a proper delivery completes it.
  JsonValue env = f.Deliver(id, ItemDone(0) + std::string(kCompleted), true);
  const JsonValue* done = EffectOf(env, "turn_complete");
  ASSERT_NE(done, nullptr) << ToJson(env);
  EXPECT_EQ(done->GetString("reason"), "completed");
}

TEST(Regression, LargeEffectsEnvelopesAreWrappedInPlace) {
  // The envelope of a large response is the effects JSON wrapped in its own buffer: the
  // envelope text is the same as before, and complete.
  Fixture f;
  const std::string id = f.Submit("hi");
  std::string sse;
  for (std::size_t i = 0; i < 200; ++i) sse += ItemDone(i);
  sse += kCompleted;
  std::string input = R"({"delivery":{"type":"model_events","request_id":)" + JsonString(id) +
                      R"(,"sse":{"$bytes":0},"end":true}})";
  std::string envelope = f.engine.Call(f.handle, "deliver", input, {sse});
  EXPECT_EQ(envelope.substr(0, 39), R"({"v":1,"ok":true,"value":{"effects":[{")");
  EXPECT_EQ(envelope.back(), '}');
  ASSERT_TRUE(ParseJson(envelope).has_value());
}

}  // namespace
}  // namespace agentctx
