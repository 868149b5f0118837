// SPDX-License-Identifier: MIT
// Model streams into a Session: the mock's SSE split at every byte
// boundary (even inside a character) records the same items; malformed SSE, cut streams and
// failed responses give an error and leave no orphan call in history (nothing is recorded before
// response.completed), and the turn recovers by retry or interrupt.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "mock_model/mock_model.h"
#include "protocol/json_codec.h"
#include "session/session.h"
#include "support/attachments.h"
#include "support/memory_file_system.h"

namespace agentctx {
namespace {

const char* const kConfig =
    R"({"session_id":"st-1","model":{"slug":"mock-1","instructions":"Be helpful."},)"
    R"("approval_policy":"never","sandbox":{"mode":"read-only"},)"
    R"("environments":[{"id":"local","cwd":"/repo","shell":"bash","fs":"workspace"}]})";

// A session driven directly (no facade), so deliveries can carry any bytes.
class Direct {
 public:
  Direct() : fs_(std::make_shared<MemoryFileSystem>()) {
    EXPECT_TRUE(fs_->AddFile("/repo/notes.txt", "one\ntwo\n").has_value());
    FileSystemMap map;
    map["workspace"] = fs_;
    EffectSink sink;
    auto config = ParseSessionConfig(*ParseJson(kConfig), nullptr);
    EXPECT_TRUE(config.has_value());
    auto created = Session::Create(std::move(*config), map, 0, &sink);
    EXPECT_TRUE(created.has_value());
    if (created) session_ = std::move(*created);
  }

  JsonValue Submit(const std::string& text, bool parse_effects = true) {
    EffectSink sink;
    EXPECT_TRUE(session_->Submit(SubmitInput{text, {}, std::nullopt}, 1000, &sink).has_value());
    return parse_effects ? Effects(sink) : JsonValue();
  }

  JsonValue DeliverSse(std::string request_id, std::string sse, bool parse_effects = true) {
    JsonValue d = JsonValue::Object();
    d.Set("type", JsonValue::String("model_events"));
    d.Set("request_id", JsonValue::String(std::move(request_id)));
    d.Set("sse", JsonValue::String(std::move(sse)));  // raw bytes: may end inside a character
    return Deliver(d, parse_effects);
  }

  JsonValue End(std::string request_id, bool parse_effects = true) {
    JsonValue d = JsonValue::Object();
    d.Set("type", JsonValue::String("model_events"));
    d.Set("request_id", JsonValue::String(std::move(request_id)));
    d.Set("end", JsonValue::Bool(true));
    return Deliver(d, parse_effects);
  }

  JsonValue Deliver(const JsonValue& delivery, bool parse_effects = true) {
    EffectSink sink;
    EXPECT_TRUE(session_->Deliver(delivery, 1000, &sink).has_value());
    return parse_effects ? Effects(sink) : JsonValue();
  }

  JsonValue Retry(const std::string& id) {
    EffectSink sink;
    EXPECT_TRUE(session_->Retry(id, 1000, &sink).has_value());
    return Effects(sink);
  }

  JsonValue Interrupt() {
    EffectSink sink;
    EXPECT_TRUE(session_->Interrupt(1000, &sink).has_value());
    return Effects(sink);
  }

  std::string HistoryJson() const { return ToJson(session_->History()); }
  std::string Preview() const { return session_->PromptPreview().value_or("?"); }
  Session& session() { return *session_; }

  static JsonValue Effects(const EffectSink& sink) {
    std::vector<std::string_view> attachments;
    JsonValue parsed = *ParseJson(sink.ToJson(&attachments));
    return *testing::InlineAttachments(std::move(parsed), attachments).Find("effects");
  }

 private:
  std::shared_ptr<MemoryFileSystem> fs_;
  std::unique_ptr<Session> session_;
};

const JsonValue* FindEffect(const JsonValue& effects, std::string_view type) {
  for (const auto& e : effects.items()) {
    if (e.GetString("type") == type) return &e;
  }
  return nullptr;
}

std::string BodyOf(const JsonValue& effects) {
  const JsonValue* r = FindEffect(effects, "model_request");
  return r == nullptr ? "" : std::string(*r->GetString("body"));
}

bool HasItemType(const std::string& history_or_body, std::string_view type) {
  return history_or_body.find("\"type\":\"" + std::string(type) + "\"") != std::string::npos;
}

// The mock's SSE answer to `body` (multi-byte text: the user message is echoed).
std::string MockSse(const std::string& body) {
  MockModel mock;
  auto sse = mock.Handle("responses", body, 1000);
  EXPECT_TRUE(sse.has_value());
  return sse.value_or("");
}

const char* const kUnicodeMessage = "héllo wörld 😀 — ünïcödé everywhere ☃ 漢字";

TEST(SessionStream, SseSplitAtEveryByteBoundaryRecordsTheSameItems) {
  Direct reference;
  std::string body = BodyOf(reference.Submit(kUnicodeMessage));
  std::string sse = MockSse(body);
  ASSERT_NE(sse.find("\xF0\x9F\x98\x80"), std::string::npos);  // 😀 is in the stream
  reference.DeliverSse("req-1", sse);
  reference.End("req-1");
  std::string expected = reference.HistoryJson();
  ASSERT_TRUE(HasItemType(expected, "reasoning"));
  ASSERT_NE(expected.find("Mock reply to: héllo wörld 😀"), std::string::npos) << expected;

  for (std::size_t cut = 0; cut <= sse.size(); ++cut) {
    Direct d;
    d.Submit(kUnicodeMessage, /*parse_effects=*/false);
    d.DeliverSse("req-1", sse.substr(0, cut), false);
    d.DeliverSse("req-1", sse.substr(cut), false);
    d.End("req-1", false);
    ASSERT_EQ(d.HistoryJson(), expected) << "split at byte " << cut;
  }
}

TEST(SessionStream, SseOneByteAtATimeRecordsTheSameItemsAndDeltas) {
  Direct whole;
  std::string body = BodyOf(whole.Submit(kUnicodeMessage));
  std::string sse = MockSse(body);
  JsonValue all = whole.DeliverSse("req-1", sse);
  Direct bytewise;
  bytewise.Submit(kUnicodeMessage);
  std::string deltas;
  for (char c : sse) {
    JsonValue effects = bytewise.DeliverSse("req-1", std::string(1, c));
    for (const auto& e : effects.items()) {
      const JsonValue* event = e.Find("event");
      if (event != nullptr && event->GetString("type") == "text_delta") {
        deltas += event->GetString("delta").value_or("");
      }
    }
  }
  EXPECT_EQ(bytewise.HistoryJson(), whole.HistoryJson());
  EXPECT_NE(deltas.find("Mock reply to: héllo wörld 😀"), std::string::npos) << deltas;
}

// A function_call whose stream then goes wrong: the call must never reach history.
const char* const kCallDone =
    "event: response.output_item.done\n"
    "data: {\"type\":\"response.output_item.done\",\"output_index\":0,\"item\":{\"type\":"
    "\"function_call\",\"id\":\"fc_1\",\"name\":\"read_file\",\"arguments\":\"{\\\"path\\\":"
    "\\\"notes.txt\\\"}\",\"call_id\":\"call_orphan\"}}\n\n";

TEST(SessionStream, MalformedSseThenEndIsAnErrorWithNoOrphanCall) {
  Direct d;
  d.Submit("hello");
  std::string before = d.HistoryJson();
  JsonValue first = d.DeliverSse("req-1", std::string(kCallDone) + "data: {oops}\n\n");
  EXPECT_NE(ToJson(first).find("sse_parse_error"), std::string::npos) << ToJson(first);
  JsonValue ended = d.End("req-1");
  const JsonValue* error = FindEffect(ended, "error");
  ASSERT_NE(error, nullptr) << ToJson(ended);
  EXPECT_EQ(error->GetString("code"), "stream_error");
  EXPECT_EQ(error->GetBool("retryable"), true);
  EXPECT_EQ(FindEffect(ended, "turn_complete"), nullptr);
  EXPECT_EQ(FindEffect(ended, "persist"), nullptr);  // nothing recorded
  EXPECT_EQ(d.HistoryJson(), before);
  EXPECT_EQ(d.Preview().find("call_orphan"), std::string::npos);
  // Interrupting the suspended turn records nothing of the failed attempt either.
  JsonValue interrupted = d.Interrupt();
  EXPECT_EQ(FindEffect(interrupted, "turn_complete")->GetString("reason"), "interrupted");
  EXPECT_EQ(d.HistoryJson(), before);
  std::string next = BodyOf(d.Submit("again"));
  EXPECT_EQ(next.find("call_orphan"), std::string::npos);
  EXPECT_FALSE(HasItemType(next, "function_call_output"));
}

TEST(SessionStream, CutInsideAnEventIsAnErrorAndRetryRecordsTheCallWithItsOutput) {
  Direct d;
  std::string body = BodyOf(d.Submit("Please read notes.txt"));
  std::string full = MockSse(body);
  std::size_t cut = full.find("response.completed");
  ASSERT_NE(cut, std::string::npos);
  // Everything up to the middle of the completed event: the calls are done but never committed.
  d.DeliverSse("req-1", full.substr(0, cut + 10));
  std::string before = d.HistoryJson();
  JsonValue ended = d.End("req-1");
  ASSERT_NE(FindEffect(ended, "error"), nullptr);
  EXPECT_EQ(FindEffect(ended, "error")->GetString("message"),
            "stream closed before response.completed");
  EXPECT_FALSE(HasItemType(d.HistoryJson(), "function_call"));
  EXPECT_EQ(d.HistoryJson(), before);
  // Retry: same id and body, attempt 2; the full stream then records call and output together.
  JsonValue retried = d.Retry("req-1");
  const JsonValue* request = FindEffect(retried, "model_request");
  ASSERT_NE(request, nullptr);
  EXPECT_EQ(request->GetInt("attempt"), 2);
  EXPECT_EQ(request->GetString("body"), body);
  JsonValue done = d.DeliverSse("req-1", full);
  std::string history = d.HistoryJson();
  EXPECT_TRUE(HasItemType(history, "function_call"));
  EXPECT_TRUE(HasItemType(history, "function_call_output"));
  EXPECT_NE(FindEffect(done, "model_request"), nullptr);  // the next step
}

TEST(SessionStream, FailedResponseAfterItemsRecordsNothing) {
  Direct d;
  d.Submit("hello");
  std::string before = d.HistoryJson();
  JsonValue failed = d.DeliverSse(
      "req-1", std::string(kCallDone) +
                   "data: {\"type\":\"response.failed\",\"response\":{\"error\":{\"code\":"
                   "\"context_length_exceeded\",\"message\":\"too long\"}}}\n\n");
  const JsonValue* error = FindEffect(failed, "error");
  ASSERT_NE(error, nullptr) << ToJson(failed);
  EXPECT_EQ(error->GetString("code"), "context_window_exceeded");
  EXPECT_EQ(error->GetBool("retryable"), false);
  EXPECT_EQ(FindEffect(failed, "turn_complete")->GetString("reason"), "failed");
  EXPECT_EQ(d.HistoryJson(), before);
  // Events after the terminal one and the host's end are stale.
  JsonValue late = d.DeliverSse("req-1", MockSse(d.Preview()));
  EXPECT_NE(ToJson(late).find("stale_delivery"), std::string::npos);
  EXPECT_EQ(d.HistoryJson(), before);
}

TEST(SessionStream, EndAfterAFailedStreamIsSilentButAttemptTwoMustComplete) {
  Direct d;
  d.Submit("hello");
  JsonValue failed = d.DeliverSse(
      "req-1",
      "data: {\"type\":\"response.failed\",\"response\":{\"error\":{\"code\":\"server_error\","
      "\"message\":\"boom\"}}}\n\n");
  ASSERT_NE(FindEffect(failed, "error"), nullptr);
  EXPECT_EQ(FindEffect(failed, "error")->GetBool("retryable"), true);
  // The host closes the stream it was reading: expected protocol, not a stale delivery.
  EXPECT_TRUE(d.End("req-1").items().empty());
  d.Retry("req-1");
  // Attempt 2 ends without response.completed: that is a stream error again.
  JsonValue cut = d.End("req-1");
  ASSERT_NE(FindEffect(cut, "error"), nullptr) << ToJson(cut);
  EXPECT_EQ(FindEffect(cut, "error")->GetString("code"), "stream_error");
}

TEST(SessionStream, EventsAfterCompletedAreIgnored) {
  Direct d;
  std::string body = BodyOf(d.Submit("hello"));
  std::string sse = MockSse(body);
  JsonValue done = d.DeliverSse("req-1", sse + std::string(kCallDone));
  EXPECT_EQ(FindEffect(done, "turn_complete")->GetString("reason"), "completed");
  EXPECT_EQ(d.HistoryJson().find("call_orphan"), std::string::npos);
}

}  // namespace
}  // namespace agentctx
