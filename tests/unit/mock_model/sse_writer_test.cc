// SPDX-License-Identifier: MIT
#include "mock_model/sse_writer.h"

#include <gtest/gtest.h>

#include <string>

#include "protocol/json_codec.h"
#include "support/utf8.h"

namespace agentctx {
namespace {

TEST(MockSseWriter, DeltasAreAtMost32BytesOnCharacterBoundaries) {
  std::string text = "Mock reply to: ";
  for (int i = 0; i < 30; ++i) text += i % 3 == 0 ? "é" : i % 3 == 1 ? "😀" : "ab";
  std::string joined;
  for (std::string_view piece : SplitDeltas(text)) {
    EXPECT_LE(piece.size(), 32u);
    EXPECT_TRUE(IsValidUtf8(piece)) << piece;
    joined += piece;
  }
  EXPECT_EQ(joined, text);
  EXPECT_TRUE(SplitDeltas("").empty());
  std::string sixty_four(64, 'a');
  auto exact = SplitDeltas(sixty_four);
  ASSERT_EQ(exact.size(), 2u);
  EXPECT_EQ(exact[0].size(), 32u);
  // A 4-byte character straddling byte 32 moves whole into the next piece.
  std::string straddling = std::string(30, 'a') + "😀" + "b";
  auto straddle = SplitDeltas(straddling);
  ASSERT_EQ(straddle.size(), 2u);
  EXPECT_EQ(straddle[0], std::string(30, 'a'));
  EXPECT_EQ(straddle[1], "😀b");
}

TEST(MockSseWriter, EventFraming) {
  std::string out;
  JsonValue data = JsonValue::Object();
  data.Set("type", JsonValue::String("x"));
  AppendSseEvent(&out, "x", data);
  EXPECT_EQ(out, "event: x\ndata: {\"type\":\"x\"}\n\n");
}

MockResponseMeta Meta() {
  MockResponseMeta meta;
  meta.id = "resp_1";
  meta.model = "m";
  meta.created_at = 1767225600;
  return meta;
}

// The full response objects (what SDKs read), in the API's field order.
TEST(MockSseWriter, FailureStream) {
  const std::string pending =
      R"({"id":"resp_1","object":"response","created_at":1767225600,"status":"in_progress",)"
      R"("error":null,"incomplete_details":null,"model":"m","output":[],"usage":null})";
  EXPECT_EQ(WriteFailureStream(Meta(), "server_error", "Mock failure: server_error."),
            "event: response.created\ndata: "
            R"({"type":"response.created","sequence_number":0,"response":)" +
                pending +
                "}\n\nevent: response.in_progress\ndata: "
                R"({"type":"response.in_progress","sequence_number":1,"response":)" +
                pending +
                "}\n\nevent: response.failed\ndata: "
                R"({"type":"response.failed","sequence_number":2,"response":{"id":"resp_1",)"
                R"("object":"response","created_at":1767225600,"status":"failed","error":)"
                R"({"code":"server_error","message":"Mock failure: server_error."},)"
                R"("incomplete_details":null,"model":"m","output":[],"usage":null}})"
                "\n\n");
  EXPECT_EQ(WriteFailureJson(Meta(), "rate_limit_exceeded", "slow down"),
            R"({"id":"resp_1","object":"response","created_at":1767225600,"status":"failed",)"
            R"("error":{"code":"rate_limit_exceeded","message":"slow down"},)"
            R"("incomplete_details":null,"model":"m","output":[],"usage":null})");
}

// Every event is numbered; text parts are announced before their deltas and closed after, as
// the SDKs' accumulators require; `completed` carries the final items and the usage.
TEST(MockSseWriter, SuccessStreamEventsForMessagesAndReasoning) {
  auto reasoning = ParseJson(
      R"({"type":"reasoning","id":"rs_1","summary":[{"type":"summary_text","text":"plan"}],)"
      R"("encrypted_content":"e"})");
  auto message = ParseJson(
      R"({"type":"message","id":"msg_1","role":"assistant","content":[{"type":"output_text",)"
      R"("text":"hello"}]})");
  MockUsage usage;
  usage.input_tokens = 7;
  usage.output_tokens = 3;
  usage.total_tokens = 10;
  std::string sse = WriteSuccessStream(Meta(), {*reasoning, *message}, usage);
  std::vector<std::string> types;
  std::int64_t expected_seq = 0;
  JsonValue last;
  for (std::size_t start = 0; start < sse.size();) {
    std::size_t end = sse.find("\n\n", start);
    ASSERT_NE(end, std::string::npos);
    std::string block = sse.substr(start, end - start);
    start = end + 2;
    auto data = ParseJson(block.substr(block.find("\ndata: ") + 7));
    ASSERT_TRUE(data.has_value());
    EXPECT_EQ(data->Find("sequence_number")->int_value(), expected_seq++);
    types.emplace_back(data->GetString("type").value_or(""));
    last = *data;
  }
  EXPECT_EQ(
      types,
      (std::vector<std::string>{
          "response.created", "response.in_progress", "response.output_item.added",
          "response.reasoning_summary_part.added", "response.reasoning_summary_text.delta",
          "response.reasoning_summary_text.done", "response.reasoning_summary_part.done",
          "response.output_item.done", "response.output_item.added", "response.content_part.added",
          "response.output_text.delta", "response.output_text.done", "response.content_part.done",
          "response.output_item.done", "response.completed"}));
  EXPECT_NE(sse.find(R"({"type":"response.content_part.added","sequence_number":9,)"
                     R"("item_id":"msg_1","output_index":1,"content_index":0,"part":)"
                     R"({"type":"output_text","annotations":[],"text":""}})"),
            std::string::npos);
  EXPECT_EQ(ToJson(*last.Find("response")),
            R"({"id":"resp_1","object":"response","created_at":1767225600,"status":"completed",)"
            R"("error":null,"incomplete_details":null,"model":"m","output":[)" +
                ToJson(*reasoning) + "," + ToJson(*message) +
                R"(],"usage":{"input_tokens":7,"input_tokens_details":{"cached_tokens":0},)"
                R"("output_tokens":3,"output_tokens_details":{"reasoning_tokens":0},)"
                R"("total_tokens":10}})");
  // stream:false: the same completed response object, alone.
  EXPECT_EQ(WriteSuccessJson(Meta(), {*reasoning, *message}, usage),
            ToJson(*last.Find("response")));
}

TEST(MockSseWriter, CallsHaveNoDeltas) {
  auto call = ParseJson(
      R"({"type":"function_call","id":"fc_1","name":"read_file","arguments":"{}","call_id":"c"})");
  ASSERT_TRUE(call.has_value());
  MockUsage usage;
  std::string sse = WriteSuccessStream(Meta(), {*call}, usage);
  EXPECT_EQ(sse.find(".delta"), std::string::npos);
  EXPECT_NE(sse.find("event: response.output_item.added\ndata: {\"type\":\"response.output_item."
                     "added\",\"sequence_number\":2,\"output_index\":0,\"item\":{\"type\":"
                     "\"function_call\",\"id\":\"fc_1\",\"name\":\"read_file\",\"arguments\":"
                     "\"{}\",\"call_id\":\"c\"}}\n\n"),
            std::string::npos);
}

}  // namespace
}  // namespace agentctx
