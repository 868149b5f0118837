// SPDX-License-Identifier: MIT
// Chat Completions and Anthropic streams adapted into Responses events, and the
// Anthropic error classification.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "protocol/json_codec.h"
#include "protocol/sse_parser.h"
#include "provider/anthropic/anthropic_stream.h"
#include "provider/chat/chat_stream.h"

namespace agentctx {
namespace {

std::vector<JsonValue> Frame(std::string_view sse) {
  SseParser parser;
  SseOutput out;
  parser.Feed(sse, &out);
  EXPECT_TRUE(out.warnings.empty());
  return out.events;
}

std::vector<JsonValue> Chat(std::string_view sse, bool end = true) {
  ChatStreamAdapter adapter;
  std::vector<JsonValue> out;
  for (const auto& e : Frame(sse)) adapter.OnChunk(e, &out);
  if (end) adapter.OnEnd(&out);
  return out;
}

std::vector<JsonValue> Anthropic(std::string_view sse) {
  AnthropicStreamAdapter adapter;
  std::vector<JsonValue> out;
  for (const auto& e : Frame(sse)) adapter.OnEvent(e, &out);
  return out;
}

std::string Types(const std::vector<JsonValue>& events) {
  std::string s;
  for (const auto& e : events) s += std::string(e.GetString("type").value_or("?")) + " ";
  return s;
}

const char* const kChatTools =
    "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Let me "
    "\"}}]}\n\n"
    "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"look.\"}}]}\n\n"
    "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_a\","
    "\"type\":\"function\",\"function\":{\"name\":\"read_file\",\"arguments\":\"{\\\"pa\"}}]}}]}"
    "\n\n"
    "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":"
    "{\"arguments\":\"th\\\":1}\"}}]}}]}\n\n"
    "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n"
    "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":2000,\"completion_tokens\":30,"
    "\"total_tokens\":2030,\"prompt_tokens_details\":{\"cached_tokens\":1792}}}\n\n"
    "data: [DONE]\n\n";

TEST(ChatStream, TextToolCallsAndUsageBecomeResponsesEvents) {
  auto events = Chat(kChatTools, /*end=*/false);  // completes on the usage chunk
  EXPECT_EQ(Types(events),
            "response.output_text.delta response.output_text.delta response.output_item.done "
            "response.output_item.done response.completed ");
  EXPECT_EQ(
      ToJson(*events[2].Find("item")),
      R"({"type":"message","role":"assistant","content":[{"type":"output_text","text":"Let me look."}]})");
  EXPECT_EQ(
      ToJson(*events[3].Find("item")),
      R"({"type":"function_call","name":"read_file","arguments":"{\"path\":1}","call_id":"call_a"})");
  EXPECT_EQ(
      ToJson(*events[4].Find("response")->Find("usage")),
      R"({"input_tokens":2000,"input_tokens_details":{"cached_tokens":1792},"output_tokens":30,)"
      R"("output_tokens_details":{"reasoning_tokens":0},"total_tokens":2030})");
}

TEST(ChatStream, FinishWithoutUsageCompletesAtTheEndAndLengthIsIncomplete) {
  std::string no_usage =
      "data: "
      "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"},\"finish_reason\":\"stop\"}]}\n\n";
  EXPECT_EQ(Types(Chat(no_usage, false)), "response.output_text.delta ");
  auto ended = Chat(no_usage, true);
  EXPECT_EQ(Types(ended),
            "response.output_text.delta response.output_item.done response.completed ");
  EXPECT_EQ(ended.back().Find("response")->Find("usage"), nullptr);
  std::string length =
      "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"length\"}]}\n\n";
  auto cut = Chat(length);
  ASSERT_EQ(Types(cut), "response.incomplete ");
  EXPECT_EQ(MapResponseIncomplete(cut[0]).message,
            "Incomplete response returned, reason: max_output_tokens");
  // No finish_reason at all: nothing completes (the session reports stream_error).
  EXPECT_EQ(Types(Chat("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"x\"}}]}\n\n")),
            "response.output_text.delta ");
}

TEST(ChatStream, ErrorChunkFailsLikeResponses) {
  auto events = Chat(
      "data: {\"error\":{\"code\":\"rate_limit_exceeded\",\"message\":\"Please try again in "
      "2s\"}}\n\n");
  ASSERT_EQ(Types(events), "response.failed ");
  ModelFailure f = MapResponseFailed(events[0]);
  EXPECT_EQ(f.code, ErrorCode::kRateLimited);
  EXPECT_TRUE(f.retryable);
  EXPECT_EQ(f.retry_after_ms, 2000);
}

TEST(ChatStream, WrongShapesAreIgnored) {
  auto events = Chat(
      "data: {\"choices\":\"x\"}\n\ndata: {\"choices\":[7,{\"delta\":3}]}\n\n"
      "data: "
      "{\"choices\":[{\"delta\":{\"tool_calls\":[1,{\"index\":\"a\",\"function\":5}]}}]}\n\n");
  EXPECT_EQ(Types(events), "");
}

std::string AnthropicEvent(std::string_view type, std::string_view json) {
  return "event: " + std::string(type) + "\ndata: " + std::string(json) + "\n\n";
}

TEST(AnthropicStream, BlocksUsageAndStopBecomeResponsesEvents) {
  std::string sse =
      AnthropicEvent(
          "message_start",
          R"({"type":"message_start","message":{"id":"msg_1","usage":{"input_tokens":12,)"
          R"("cache_creation_input_tokens":300,"cache_read_input_tokens":2048,"output_tokens":1}}})") +
      AnthropicEvent("ping", R"({"type":"ping"})") +
      AnthropicEvent(
          "content_block_start",
          R"({"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}})") +
      AnthropicEvent(
          "content_block_delta",
          R"({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"On it."}})") +
      AnthropicEvent("content_block_stop", R"({"type":"content_block_stop","index":0})") +
      AnthropicEvent(
          "content_block_start",
          R"({"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_1","name":"read_file","input":{}}})") +
      AnthropicEvent(
          "content_block_delta",
          R"({"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"path\":"}})") +
      AnthropicEvent(
          "content_block_delta",
          R"({"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"\"a\"}"}})") +
      AnthropicEvent("content_block_stop", R"({"type":"content_block_stop","index":1})") +
      AnthropicEvent(
          "message_delta",
          R"({"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":40}})") +
      AnthropicEvent("message_stop", R"({"type":"message_stop"})");
  auto events = Anthropic(sse);
  EXPECT_EQ(Types(events),
            "response.output_text.delta response.output_item.done response.output_item.done "
            "response.completed ");
  EXPECT_EQ(
      ToJson(*events[2].Find("item")),
      R"({"type":"function_call","name":"read_file","arguments":"{\"path\":\"a\"}","call_id":"toolu_1"})");
  EXPECT_EQ(ToJson(*events[3].Find("response")->Find("usage")),
            R"({"input_tokens":2360,"input_tokens_details":{"cached_tokens":2048,)"
            R"("cache_creation_tokens":300},"output_tokens":40,"total_tokens":2400})");
}

TEST(AnthropicStream, TheWritesSplitByTtlReachTheUsage) {
  auto usage_of = [](std::string_view usage) {
    auto events =
        Anthropic(AnthropicEvent("message_start", R"({"type":"message_start","message":{"usage":)" +
                                                      std::string(usage) + "}}") +
                  AnthropicEvent("message_stop", R"({"type":"message_stop"})"));
    return ToJson(*events.back().Find("response")->Find("usage")->Find("input_tokens_details"));
  };
  EXPECT_EQ(usage_of(R"({"input_tokens":5,"cache_creation_input_tokens":300,)"
                     R"("cache_read_input_tokens":0,"cache_creation":)"
                     R"({"ephemeral_5m_input_tokens":100,"ephemeral_1h_input_tokens":200}})"),
            R"({"cached_tokens":0,"cache_creation_tokens":300,"cache_creation_1h_tokens":200})");
  // No split sent: no 1 h count (the explainer then predicts it); a count over the writes, or
  // of the wrong type, is clamped or read as 0.
  EXPECT_EQ(usage_of(R"({"input_tokens":5,"cache_creation_input_tokens":300})"),
            R"({"cached_tokens":0,"cache_creation_tokens":300})");
  EXPECT_EQ(usage_of(R"({"cache_creation_input_tokens":30,)"
                     R"("cache_creation":{"ephemeral_1h_input_tokens":99}})"),
            R"({"cached_tokens":0,"cache_creation_tokens":30,"cache_creation_1h_tokens":30})");
  EXPECT_EQ(usage_of(R"({"cache_creation_input_tokens":30,)"
                     R"("cache_creation":{"ephemeral_1h_input_tokens":"x"}})"),
            R"({"cached_tokens":0,"cache_creation_tokens":30,"cache_creation_1h_tokens":0})");
  EXPECT_EQ(usage_of(R"({"cache_creation_input_tokens":30,"cache_creation":null})"),
            R"({"cached_tokens":0,"cache_creation_tokens":30})");
}

TEST(AnthropicStream, ErrorsAndMaxTokensMapToTheSameFailures) {
  auto overloaded = Anthropic(AnthropicEvent(
      "error", R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})"));
  ASSERT_EQ(Types(overloaded), "response.failed ");
  ModelFailure f = MapResponseFailed(overloaded[0]);
  EXPECT_EQ(f.code, ErrorCode::kServerOverloaded);
  EXPECT_TRUE(f.retryable);
  auto too_long = Anthropic(AnthropicEvent(
      "error",
      R"({"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"}})"));
  EXPECT_EQ(MapResponseFailed(too_long[0]).code, ErrorCode::kContextWindowExceeded);
  auto cut =
      Anthropic(AnthropicEvent("message_delta",
                               R"({"type":"message_delta","delta":{"stop_reason":"max_tokens"}})") +
                AnthropicEvent("message_stop", R"({"type":"message_stop"})") +
                AnthropicEvent("message_stop", R"({"type":"message_stop"})"));
  EXPECT_EQ(Types(cut), "response.incomplete ");  // nothing after the terminal event
}

TEST(AnthropicErrors, HttpDeliveriesMapOverloadedRateLimitAndAuth) {
  ModelFailure overloaded = MapAnthropicErrorDelivery(
      529, R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})", "");
  EXPECT_EQ(overloaded.code, ErrorCode::kServerOverloaded);
  EXPECT_TRUE(overloaded.retryable);
  ModelFailure bare = MapAnthropicErrorDelivery(529, "", "");
  EXPECT_EQ(bare.code, ErrorCode::kServerOverloaded);
  EXPECT_TRUE(bare.retryable);
  ModelFailure limited = MapAnthropicErrorDelivery(
      429, R"({"type":"error","error":{"type":"rate_limit_error","message":"slow down"}})", "");
  EXPECT_EQ(limited.code, ErrorCode::kRateLimited);
  EXPECT_TRUE(limited.retryable);
  ModelFailure auth = MapAnthropicErrorDelivery(
      401, R"({"type":"error","error":{"type":"authentication_error","message":"bad key"}})", "");
  EXPECT_EQ(auth.code, ErrorCode::kUnauthorized);
  EXPECT_FALSE(auth.retryable);
  ModelFailure server = MapAnthropicErrorDelivery(
      500, R"({"type":"error","error":{"type":"api_error","message":"boom"}})", "");
  EXPECT_TRUE(server.retryable);
  EXPECT_FALSE(MapAnthropicErrorDelivery(400, "not json", "").retryable);
}

}  // namespace
}  // namespace agentctx
