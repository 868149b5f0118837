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

TEST(MockSseWriter, FailureStream) {
  EXPECT_EQ(WriteFailureStream("resp_1", "server_error", "Mock failure: server_error."),
            "event: response.created\ndata: {\"type\":\"response.created\",\"response\":{\"id\":"
            "\"resp_1\"}}\n\nevent: response.failed\ndata: {\"type\":\"response.failed\","
            "\"response\":{\"id\":\"resp_1\",\"error\":{\"code\":\"server_error\",\"message\":"
            "\"Mock failure: server_error.\"}}}\n\n");
}

TEST(MockSseWriter, CallsHaveNoDeltas) {
  auto call = ParseJson(
      R"({"type":"function_call","id":"fc_1","name":"read_file","arguments":"{}","call_id":"c"})");
  ASSERT_TRUE(call.has_value());
  MockUsage usage;
  std::string sse = WriteSuccessStream("resp_1", {*call}, usage);
  EXPECT_EQ(sse.find(".delta"), std::string::npos);
  EXPECT_NE(
      sse.find("event: response.output_item.added\ndata: {\"type\":\"response.output_item."
               "added\",\"output_index\":0,\"item\":{\"type\":\"function_call\",\"id\":"
               "\"fc_1\",\"name\":\"read_file\",\"arguments\":\"{}\",\"call_id\":\"c\"}}\n\n"),
      std::string::npos);
}

}  // namespace
}  // namespace agentctx
