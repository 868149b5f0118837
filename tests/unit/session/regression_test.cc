// SPDX-License-Identifier: MIT
// Regression tests for defects found in review, through the Engine facade.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "prompt/prompt_bytes.h"
#include "protocol/json_codec.h"
#include "support/session_driver.h"

namespace agentctx {
namespace {

using testing::SessionDriver;

// A host tool and a tiny truncation budget (bytes 100 -> 120 bytes kept).
const char* const kConfig =
    R"({"session_id":"s-reg","model":{"slug":"mock-1","truncation":{"mode":"bytes","limit":100}},)"
    R"("builtin_tools":false,"tools":[{"server":"git","name":"status"}],)"
    R"("environments":[{"id":"local","cwd":"/repo","fs":"workspace"}]})";

const std::string kTwoCalls =
    "data: {\"type\":\"response.output_item.done\",\"item\":{\"type\":\"function_call\",\"name\":"
    "\"mcp__git__status\",\"arguments\":\"{}\",\"call_id\":\"call_a\"}}\n\n"
    "data: {\"type\":\"response.output_item.done\",\"item\":{\"type\":\"function_call\",\"name\":"
    "\"mcp__git__status\",\"arguments\":\"{}\",\"call_id\":\"call_b\"}}\n\n"
    "data: {\"type\":\"response.completed\",\"response\":{\"id\":\"r\"}}\n\n";

std::string DeliverSse(const std::string& sse, std::int64_t now) {
  return "{\"delivery\":{\"type\":\"model_events\",\"request_id\":\"req-1\",\"sse\":" +
         JsonString(sse) + "},\"now_ms\":" + std::to_string(now) + "}";
}

// Every recorded tool output is truncated, also the ones interrupt() records.
TEST(Regression, Issue12InterruptTruncatesToolOutputs) {
  SessionDriver d;
  d.Start(kConfig);
  d.Call("submit", R"({"text":"hi","now_ms":1})");
  d.Call("deliver", DeliverSse(kTwoCalls, 2));
  const std::string long_output(5000, 'x');
  d.Call("deliver", "{\"delivery\":{\"type\":\"tool_output\",\"call_id\":\"call_a\",\"output\":\"" +
                        long_output + "\"},\"now_ms\":3}");
  std::string interrupted = d.Call("interrupt", R"({"now_ms":4})");
  EXPECT_NE(interrupted.find("chars truncated"), std::string::npos) << interrupted;
  EXPECT_EQ(interrupted.find(long_output), std::string::npos);
  std::string history = d.Call("history", "{}");
  EXPECT_NE(history.find("chars truncated"), std::string::npos);
  EXPECT_EQ(history.find(long_output), std::string::npos);
}

// A rejected call changes nothing, the clock included.
TEST(Regression, Issue12RejectedDeliverDoesNotAdvanceTheClock) {
  SessionDriver d;
  d.Start(kConfig);
  d.Call("submit", R"({"text":"hi","now_ms":1000})");
  std::string rejected = d.Call(
      "deliver", R"({"delivery":{"type":"tool_output","call_id":"call_a"},"now_ms":99000000})");
  EXPECT_NE(rejected.find("\"invalid_input\""), std::string::npos) << rejected;
  rejected =
      d.Call("deliver", R"({"delivery":{"type":"bogus","request_id":"req-1"},"now_ms":99000000})");
  EXPECT_NE(rejected.find("\"invalid_input\""), std::string::npos) << rejected;
  // The next accepted call persists lines stamped with its own time, not the rejected one's.
  std::string accepted = d.Call("deliver", DeliverSse(kTwoCalls, 2000));
  EXPECT_NE(accepted.find("1970-01-01T00:00:02"), std::string::npos) << accepted;
  EXPECT_EQ(accepted.find("1970-01-02T03:"), std::string::npos) << accepted;  // 99 000 s later
}

// A 100 MB submit was an abort in the package; now a clear invalid_input that
// leaves the session idle and usable.
TEST(Regression, Issue17HugeSubmitIsRejectedAndTheSessionStaysUsable) {
  SessionDriver d;
  d.Start(kConfig);
  const std::string huge(std::size_t{16} * 1024 * 1024 + 1, 'x');
  std::string rejected = d.Call("submit", "{\"text\":\"" + huge + "\"}");
  EXPECT_NE(rejected.find("\"invalid_input\""), std::string::npos);
  EXPECT_NE(rejected.find("the limit is"), std::string::npos);
  EXPECT_EQ(d.Call("history", "{}"), R"({"v":1,"ok":true,"value":[]})");
  std::string ok = d.Call("submit", R"({"text":"small"})");
  EXPECT_NE(ok.find("\"model_request\""), std::string::npos) << ok.substr(0, 300);
}

// A response whose SSE event passed the 32 MiB limit ended in a retryable
// stream_error, and the CLI sent the same request five more times for the same failure. The
// dropped event makes the end of stream a non-retryable failure that ends the turn.
TEST(Regression, Issue17OversizedSseEventFailsTheTurnWithoutARetry) {
  SessionDriver d;
  d.Start(kConfig);
  d.Call("submit", R"({"text":"hi","now_ms":1})");
  // 33 MiB of one event's data line, delivered the way a stream arrives: in 1 MiB chunks.
  std::string fed = d.Call(
      "deliver", DeliverSse("data: {\"type\":\"response.output_text.delta\",\"delta\":\"", 2));
  const std::string chunk(std::size_t{1} << 20, 'x');
  for (int i = 0; i < 33; ++i) fed += d.Call("deliver", DeliverSse(chunk, 2));
  fed += d.Call("deliver", DeliverSse("\"}\n\n", 2));
  EXPECT_NE(fed.find("sse_event_too_large"), std::string::npos) << fed.substr(0, 300);
  std::string ended =
      d.Call("deliver",
             R"({"delivery":{"type":"model_events","request_id":"req-1","end":true},"now_ms":3})");
  EXPECT_NE(ended.find("\"stream_error\""), std::string::npos) << ended;
  EXPECT_NE(ended.find("\"retryable\":false"), std::string::npos) << ended;
  EXPECT_NE(ended.find("not retried"), std::string::npos) << ended;
  EXPECT_NE(ended.find("\"turn_complete\""), std::string::npos) << ended;
  std::string next = d.Call("submit", R"({"text":"again","now_ms":4})");
  EXPECT_NE(next.find("\"model_request\""), std::string::npos) << next.substr(0, 300);
}

// A stream cut short without an oversized event stays retryable.
TEST(Regression, Issue17StreamClosedEarlyStaysRetryable) {
  SessionDriver d;
  d.Start(kConfig);
  d.Call("submit", R"({"text":"hi","now_ms":1})");
  std::string ended =
      d.Call("deliver",
             R"({"delivery":{"type":"model_events","request_id":"req-1","end":true},"now_ms":3})");
  EXPECT_NE(ended.find("\"stream_error\""), std::string::npos) << ended;
  EXPECT_NE(ended.find("\"retryable\":true"), std::string::npos) << ended;
}

// One definition of cacheable(t) (prompt/prompt_bytes.h), used by the explainer and the mock's
// simulator.
TEST(Regression, Issue12CacheableHasOneDefinition) {
  EXPECT_EQ(Cacheable(1023), 0u);
  EXPECT_EQ(Cacheable(1024), 1024u);
  EXPECT_EQ(Cacheable(1151), 1024u);
  EXPECT_EQ(Cacheable(1152), 1152u);
  EXPECT_EQ(Cacheable(5000), 4992u);
  EXPECT_EQ(TokensForBytes(702), 176u);
}

}  // namespace
}  // namespace agentctx
