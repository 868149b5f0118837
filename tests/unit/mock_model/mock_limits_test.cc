// SPDX-License-Identifier: MIT
// The mock model under large requests: its work is linear in the items (each tool output finds
// its call through an index, not a scan of every earlier item), and a request over the item
// limit is refused with a clear error before any other work. Timing is not asserted here (the
// stress suite measures it); these tests check the answers at sizes that used to take seconds
// to minutes.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mock_model/mock_model.h"
#include "mock_model/mock_request.h"
#include "unit/mock_model/mock_test_support.h"

namespace agentctx {
namespace {

using testing::Body;
using testing::Call;
using testing::Output;
using testing::ReplyText;
using testing::UserMsg;

std::size_t CountOf(std::string_view text, std::string_view needle) {
  std::size_t n = 0;
  for (std::size_t at = text.find(needle); at != std::string_view::npos;
       at = text.find(needle, at + needle.size())) {
    ++n;
  }
  return n;
}

TEST(Regression, MockSummarises24000ToolOutputsEachWithItsOwnCall) {
  constexpr int kPairs = 24000;
  std::vector<std::string> items = {UserMsg("read them all")};
  items.reserve(2 * kPairs + 1);
  for (int i = 0; i < kPairs; ++i) {
    const std::string id = "call_" + std::to_string(i);
    // Every 1000th call is a list_dir, so a wrong call/output pairing changes the text.
    if (i % 1000 == 0) {
      items.push_back(Call("list_dir", R"({"path":"/d)" + std::to_string(i) + R"("})", id));
    } else {
      items.push_back(Call("read_file", R"({"path":"/f)" + std::to_string(i) + R"("})", id));
    }
  }
  for (int i = 0; i < kPairs; ++i) {
    const std::string id = "call_" + std::to_string(i);
    items.push_back(Output(id, i % 1000 == 0 ? "Absolute path: /d\na\nb" : "L1: x\nL2: y"));
  }
  MockModel mock;
  auto sse = mock.Handle("responses", Body(items), 0);
  ASSERT_TRUE(sse.has_value()) << sse.error().message;
  const std::string reply = ReplyText(*sse);
  EXPECT_EQ(CountOf(reply, "\n") + 1, static_cast<std::size_t>(kPairs));
  EXPECT_EQ(CountOf(reply, ": 2 lines."), static_cast<std::size_t>(kPairs - kPairs / 1000));
  EXPECT_EQ(CountOf(reply, ": 2 entries."), static_cast<std::size_t>(kPairs / 1000));
  EXPECT_EQ(reply.substr(0, 21), "Listed /d0: 2 entries");
  EXPECT_NE(reply.find("\nRead /f23999: 2 lines."), std::string::npos);
}

TEST(Regression, MockPairsAnOutputWithTheLastCallOfItsIdBeforeIt) {
  // Two calls share an id: the output names the later one before it; a call after the output
  // does not count.
  MockModel mock;
  std::string body = Body({Call("read_file", R"({"path":"/old"})", "c1"), UserMsg("go"),
                           Call("list_dir", R"({"path":"/new"})", "c1"), Output("c1", "a\nb"),
                           Call("read_file", R"({"path":"/later"})", "c1")});
  auto sse = mock.Handle("responses", body, 0);
  ASSERT_TRUE(sse.has_value());
  EXPECT_EQ(ReplyText(*sse), "Listed /new: 2 entries.");
  // An output whose call is before the last user message still finds it.
  body = Body({Call("read_file", R"({"path":"/a"})", "c9"), UserMsg("go"), Output("c9", "L1: x")});
  sse = mock.Handle("responses", body, 0);
  ASSERT_TRUE(sse.has_value());
  EXPECT_EQ(ReplyText(*sse), "Read /a: 1 line.");
}

std::string ManyMessages(std::size_t n, std::string_view endpoint) {
  std::string body = endpoint == "responses" ? R"({"model":"m","stream":true,"input":[)"
                                             : R"({"model":"m","max_tokens":5,"messages":[)";
  for (std::size_t i = 0; i < n; ++i) {
    if (i != 0) body += ",";
    body += R"({"role":"user","content":"x"})";
  }
  return body + "]}";
}

TEST(Regression, MockRefusesARequestOverTheItemLimitWithAClearError) {
  for (std::string_view endpoint : {"responses", "chat/completions", "messages"}) {
    MockModel mock;
    auto refused = mock.Handle(endpoint, ManyMessages(kMaxMockInputItems + 1, endpoint), 0);
    ASSERT_FALSE(refused.has_value()) << endpoint;
    EXPECT_EQ(refused.error().code, ErrorCode::kInvalidInput);
    EXPECT_EQ(refused.error().message,
              "request body has 65537 input items and content parts; the mock model answers at "
              "most 65536 per request");
    EXPECT_EQ(refused.error().details, (std::vector<std::pair<std::string, std::string>>{
                                           {"limit", "65536"}, {"items", "65537"}}));
  }
  // At the limit, the request is answered.
  MockModel at_limit;
  auto answered = at_limit.Handle("responses", ManyMessages(kMaxMockInputItems, "responses"), 0);
  ASSERT_TRUE(answered.has_value()) << answered.error().message;
  EXPECT_EQ(ReplyText(*answered), "Mock reply to: x");
  // Content parts count too.
  std::string parts = R"({"model":"m","input":[{"role":"user","content":[)";
  for (std::size_t i = 0; i <= kMaxMockInputItems; ++i) {
    parts += std::string(i != 0 ? "," : "") + R"({"type":"input_text","text":"x"})";
  }
  parts += "]}]}";
  MockModel mock;
  auto refused = mock.Handle("responses", parts, 0);
  ASSERT_FALSE(refused.has_value());
  EXPECT_NE(refused.error().message.find("65538 input items and content parts"), std::string::npos);
}

// `n` input_text parts, comma-separated.
std::string TextParts(std::size_t n) {
  std::string parts;
  parts.reserve(n * 32);
  for (std::size_t i = 0; i < n; ++i) {
    parts += std::string(i != 0 ? "," : "") + R"({"type":"input_text","text":"x"})";
  }
  return parts;
}

// A tool output whose `n` parts sit inside the output (Responses), inside a tool message
// (Chat) or inside an Anthropic tool_result's content: one call, its output and a user message.
std::string NestedPartsBody(std::string_view endpoint, std::size_t n) {
  if (endpoint == "responses") {
    return R"({"model":"m","input":[{"role":"user","content":"go"},)"
           R"({"type":"function_call","name":"read_file","arguments":"{\"path\":\"/f\"}","call_id":"c1"},)"
           R"({"type":"function_call_output","call_id":"c1","output":[)" +
           TextParts(n) + "]}]}";
  }
  if (endpoint == "chat/completions") {
    return R"({"model":"m","messages":[{"role":"user","content":"go"},)"
           R"({"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":)"
           R"({"name":"read_file","arguments":"{\"path\":\"/f\"}"}}]},)"
           R"({"role":"tool","tool_call_id":"c1","content":[)" +
           TextParts(n) + "]}]}";
  }
  std::string blocks;
  blocks.reserve(n * 28);
  for (std::size_t i = 0; i < n; ++i) {
    blocks += std::string(i != 0 ? "," : "") + R"({"type":"text","text":"x"})";
  }
  return R"({"model":"m","max_tokens":5,"messages":[{"role":"user","content":"go"},)"
         R"({"role":"assistant","content":[{"type":"tool_use","id":"c1","name":"read_file",)"
         R"("input":{"path":"/f"}}]},{"role":"user","content":[{"type":"tool_result",)"
         R"("tool_use_id":"c1","content":[)" +
         blocks + "]}]}]}";
}

TEST(Regression, MockCountsThePartsNestedInToolOutputsAgainstTheItemLimit) {
  // Parts nested in a tool output count like any other: over the limit, refused before any
  // other work (they once held serve-mock for minutes, uncounted).
  for (std::string_view endpoint : {"responses", "chat/completions", "messages"}) {
    SCOPED_TRACE(endpoint);
    MockModel mock;
    auto refused = mock.Handle(endpoint, NestedPartsBody(endpoint, kMaxMockInputItems), 0);
    ASSERT_FALSE(refused.has_value());
    EXPECT_EQ(refused.error().code, ErrorCode::kInvalidInput);
    EXPECT_NE(refused.error().message.find("input items and content parts; the mock model "
                                           "answers at most 65536 per request"),
              std::string::npos)
        << refused.error().message;
    // Exactly the count of every array element: the items, their content, the nested parts.
    const std::size_t expected = endpoint == "responses"          ? 3 + kMaxMockInputItems
                                 : endpoint == "chat/completions" ? 3 + 1 + kMaxMockInputItems
                                                                  : 3 + 1 + 1 + kMaxMockInputItems;
    EXPECT_EQ(refused.error().details,
              (std::vector<std::pair<std::string, std::string>>{
                  {"limit", "65536"}, {"items", std::to_string(expected)}}));
  }
}

TEST(Regression, MockAnswersNestedToolOutputPartsUnderTheLimitInLinearWork) {
  // 60 000 parts in one tool output (just under the limit) are answered; quadratic work in the
  // parts would take minutes here (the native tests fail after 300 s).
  for (std::string_view endpoint : {"responses", "chat/completions", "messages"}) {
    SCOPED_TRACE(endpoint);
    MockModel mock;
    auto answered = mock.Handle(endpoint, NestedPartsBody(endpoint, 60000), 0);
    ASSERT_TRUE(answered.has_value()) << answered.error().message;
    EXPECT_FALSE(answered->empty());
  }
}

}  // namespace
}  // namespace agentctx
