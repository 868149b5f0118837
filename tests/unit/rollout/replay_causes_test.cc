// SPDX-License-Identifier: MIT
// Tests for replay's usage matching and causes (rollout/replay_causes.h): one small
// hand-made Codex rollout per cause, built line by line below, with the figures worked out by
// hand in each test. Every report is also checked for the invariants: the causes add up to the
// uncached input of each request and of the summary, lost ≤ the previous prompt, predicted ≤
// input.
#include "rollout/replay_causes.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "protocol/json_codec.h"
#include "rollout/replay.h"
#include "rollout/timestamp.h"

namespace agentctx {
namespace {

// Writes Codex 0.105-style lines: each with a timestamp, token_count events with running totals.
class Rollout {
 public:
  explicit Rollout(std::string version = "0.105.0", std::string base = "") {
    std::string meta = R"({"id":"s1","cli_version":")" + version + "\"";
    if (!base.empty()) meta += R"(,"base_instructions":{"text":")" + base + "\"}";
    Line("session_meta", meta + "}");
    Context("m1");
  }
  void Advance(std::int64_t ms) { now_ms_ += ms; }
  void Line(const std::string& type, const std::string& payload) {
    text_ += R"({"timestamp":")" + FormatTimestamp(now_ms_) + R"(","type":")" + type +
             R"(","payload":)" + payload + "}\n";
  }
  void Context(const std::string& model) {
    Line("turn_context", R"({"cwd":"/r","approval_policy":"never","model":")" + model + "\"}");
  }
  void User(const std::string& text) {
    Line("response_item",
         R"({"type":"message","role":"user","content":[{"type":"input_text","text":")" + text +
             "\"}]}");
  }
  void Developer(const std::string& text) {
    Line("response_item",
         R"({"type":"message","role":"developer","content":[{"type":"input_text","text":")" + text +
             "\"}]}");
  }
  // A model response: reasoning + call, then (repeats + 1) token_count lines, then the output.
  void Call(const std::string& id, std::uint64_t input, std::uint64_t cached, int repeats = 0,
            const std::string& output = "ok") {
    Line("response_item", R"({"type":"reasoning","summary":[],"encrypted_content":"e"})");
    Line("response_item", R"({"type":"function_call","name":"shell","arguments":"{}",)"
                          R"("call_id":")" +
                              id + "\"}");
    Usage(input, cached, 10, repeats);
    Advance(500);
    Line("response_item",
         R"({"type":"function_call_output","call_id":")" + id + R"(","output":")" + output + "\"}");
  }
  void Usage(std::uint64_t input, std::uint64_t cached, std::uint64_t output, int repeats = 0) {
    in_ += input;
    cached_ += cached;
    out_ += output;
    auto usage = [](std::uint64_t i, std::uint64_t c, std::uint64_t o) {
      return R"({"input_tokens":)" + std::to_string(i) + R"(,"cached_input_tokens":)" +
             std::to_string(c) + R"(,"output_tokens":)" + std::to_string(o) +
             R"(,"reasoning_output_tokens":0,"total_tokens":)" + std::to_string(i + o) + "}";
    };
    std::string line = R"({"type":"token_count","info":{"total_token_usage":)" +
                       usage(in_, cached_, out_) + R"(,"last_token_usage":)" +
                       usage(input, cached, output) + "}}";
    for (int i = 0; i <= repeats; ++i) Line("event_msg", line);
  }
  const std::string& text() const { return text_; }

 private:
  std::string text_;
  std::int64_t now_ms_ = 1767225600000;  // 2026-01-01
  std::uint64_t in_ = 0, cached_ = 0, out_ = 0;
};

std::uint64_t U(const JsonValue& v, std::string_view key) {
  std::optional<std::int64_t> n = v.GetInt(key);
  return n ? static_cast<std::uint64_t>(*n) : 0;
}

std::uint64_t SumOf(const JsonValue* causes) {
  std::uint64_t sum = 0;
  if (causes != nullptr && causes->is_object()) {
    for (const JsonMember& m : causes->members())
      sum += static_cast<std::uint64_t>(*m.value.int_value());
  }
  return sum;
}

// The invariants every report keeps.
void CheckInvariants(const JsonValue& report) {
  const JsonValue& summary = *report.Find("summary");
  EXPECT_EQ(SumOf(summary.Find("lost_tokens_by_cause")), U(summary, "uncached_input_tokens"));
  std::optional<std::uint64_t> prev_input;
  for (const JsonValue& r : report.Find("requests")->items()) {
    if (r.Find("input_tokens")->is_null()) continue;
    SCOPED_TRACE(ToJson(r));
    EXPECT_EQ(SumOf(r.Find("lost_tokens_by_cause")), U(r, "uncached_input_tokens"));
    EXPECT_LE(U(r, "predicted_cached_tokens"), U(r, "input_tokens"));
    EXPECT_LE(U(r, "ideal_cached_tokens"), U(r, "input_tokens"));
    if (prev_input) {
      EXPECT_LE(U(r, "lost_tokens"), *prev_input);
    }
    prev_input = U(r, "input_tokens");
  }
}

JsonValue Replay(const std::string& text, ReplayOptions options = ReplayOptions()) {
  auto report = ReplayReport(text, options);
  EXPECT_TRUE(report.has_value()) << (report ? "" : report.error().message);
  if (!report) return JsonValue::Object();
  CheckInvariants(*report);
  return std::move(report).value();
}

const JsonValue& Request(const JsonValue& report, std::size_t i) {
  return report.Find("requests")->items().at(i);
}

std::string Causes(const JsonValue& v) { return ToJson(*v.Find("lost_tokens_by_cause")); }

// Two requests 5000 → 6000 input tokens; the second sent `gap_ms` after the first finished
// (its last input, the user's next message, is written then).
Rollout TwoRequests(std::uint64_t second_cached, std::int64_t gap_ms) {
  Rollout r;
  r.User("go");
  r.Call("c1", 5000, 0);
  r.Advance(gap_ms - 500);
  r.User("next");
  r.Call("c2", 6000, second_cached);
  return r;
}

TEST(ReplayCauses, RepeatedPrefixCachedLeavesOnlyNewInput) {
  // ideal = cacheable(min(5000, 6000)) = 4992: all of it cached, 1008 new.
  JsonValue report = Replay(TwoRequests(4992, 2000).text());
  EXPECT_EQ(Causes(Request(report, 0)), R"({"new_input":5000})");
  EXPECT_EQ(Causes(Request(report, 1)), R"({"new_input":1008})");
  EXPECT_EQ(ToJson(*Request(report, 1).Find("cause")), R"("new_input")");
  EXPECT_EQ(U(Request(report, 1), "lost_tokens"), 0u);
  EXPECT_EQ(U(Request(report, 1), "ideal_cached_tokens"), 4992u);
  EXPECT_EQ(ToJson(*report.Find("summary")->Find("lost_tokens_by_cause")), R"({"new_input":6008})");
}

TEST(ReplayCauses, IntactPrefixNotCachedIsServerMiss) {
  JsonValue report = Replay(TwoRequests(1024, 2000).text());
  EXPECT_EQ(Causes(Request(report, 1)), R"({"new_input":1008,"server_miss":3968})");
  EXPECT_EQ(ToJson(*Request(report, 1).Find("cause")), R"("server_miss")");
  EXPECT_EQ(U(Request(report, 1), "gap_ms"), 2000u);
}

TEST(ReplayCauses, GapPastTheTtlIsIdle) {
  JsonValue report = Replay(TwoRequests(0, 300001).text());
  EXPECT_EQ(Causes(Request(report, 1)), R"({"new_input":1008,"idle_past_ttl":4992})");
  // The TTL is an option: with 10 minutes the same gap is a server miss.
  ReplayOptions ten_minutes;
  ten_minutes.ttl_ms = 600000;
  JsonValue longer = Replay(TwoRequests(0, 300001).text(), ten_minutes);
  EXPECT_EQ(Causes(Request(longer, 1)), R"({"new_input":1008,"server_miss":4992})");
  EXPECT_EQ(ToJson(*longer.Find("summary")->Find("ttl_ms")), "600000");
}

TEST(ReplayCauses, RequestSentBeforeThePreviousFinishedIsConcurrent) {
  // The tool output (the second request's last input) is stamped before the usage line of the
  // first response: the second request overlapped the first.
  Rollout r;
  r.User("go");
  r.Line("response_item", R"({"type":"reasoning","summary":[],"encrypted_content":"e"})");
  r.Line("response_item",
         R"({"type":"function_call","name":"shell","arguments":"{}","call_id":"c1"})");
  r.Advance(3000);
  r.Usage(5000, 0, 10);
  r.Advance(-2000);
  r.Line("response_item", R"({"type":"function_call_output","call_id":"c1","output":"ok"})");
  r.Advance(4000);
  r.Call("c2", 6000, 0);
  JsonValue report = Replay(r.text());
  EXPECT_EQ(Causes(Request(report, 1)), R"({"new_input":1008,"concurrent":4992})");
  EXPECT_EQ(ToJson(*Request(report, 1).Find("gap_ms")), "-2000");
}

TEST(ReplayCauses, PromptUnderTheMinimumIsBelowMinimum) {
  // 800 → 900 tokens: the 800 repeated tokens were never cacheable (prompts under 1024 are not
  // stored), so they are lost to below_minimum; 100 are new.
  Rollout r;
  r.User("go");
  r.Call("c1", 800, 0);
  r.Call("c2", 900, 0);
  JsonValue report = Replay(r.text());
  EXPECT_EQ(Causes(Request(report, 1)), R"({"new_input":100,"below_minimum":800})");
  EXPECT_EQ(U(Request(report, 1), "ideal_cached_tokens"), 800u);
}

TEST(ReplayCauses, ModelSwitchIsClientSide) {
  Rollout r;
  r.User("go");
  r.Call("c1", 5000, 0);
  r.Context("m2");
  r.Call("c2", 6000, 0);
  JsonValue report = Replay(r.text());
  const JsonValue& second = Request(report, 1);
  EXPECT_EQ(Causes(second), R"({"new_input":1008,"model_changed":4992})");
  EXPECT_EQ(ToJson(*second.Find("cause_section")), R"("model")");
  EXPECT_EQ(U(second, "predicted_cached_tokens"), 0u);
  EXPECT_EQ(U(*second.Find("break"), "lost_tokens"), 4992u);
  EXPECT_EQ(ToJson(*report.Find("summary")->Find("breaks")),
            R"({"model_changed":{"count":1,"lost_tokens":4992}})");
}

TEST(ReplayCauses, CompactionRewritesHistory) {
  // Item sizes follow the token counts (about 4 bytes a token): the second request's prompt is
  // mostly the 20 000-byte tool output, which the compaction drops.
  Rollout r;
  r.User("go");
  r.Call("c1", 1000, 0, 0, std::string(20000, 'x'));
  r.Call("c2", 6000, 0);
  r.Line("compacted", R"({"message":"","replacement_history":[{"type":"message","role":"user",)"
                      R"("content":[{"type":"input_text","text":"go"}]},{"type":"compaction",)"
                      R"("encrypted_content":"x"}]})");
  r.User("continue");
  r.Call("c3", 2000, 0);
  JsonValue report = Replay(r.text());
  const JsonValue& third = Request(report, 2);
  // raw = min(6000, 2000) → ideal 1920; the break is after the first item (`go`, about 10
  // tokens before it: under the minimum, so nothing could stay cached): all 1920 are the
  // compaction's.
  EXPECT_EQ(ToJson(*third.Find("cause")), R"("history_rewritten_by_compaction")");
  EXPECT_EQ(Causes(third), R"({"new_input":80,"history_rewritten_by_compaction":1920})");
  EXPECT_EQ(ToJson(*third.Find("break")->Find("item_index")), "1");
  EXPECT_EQ(U(*report.Find("summary"), "compactions"), 1u);
}

TEST(ReplayCauses, ClientShareIsBoundedByTheTokensAfterTheBreak) {
  // The compaction keeps the first three items byte for byte and drops the fourth onwards
  // (reasoning, call, output: about a quarter of the previous prompt). Only the tokens after
  // the break are the client's; the rest of the miss is a server miss.
  Rollout r;
  std::string big(4000, 'a');
  r.User(big);
  r.User(big);
  r.User(big);
  r.Call("c1", 3060, 0, 0, big);
  r.Call("c2", 4125, 2944);
  std::string user = R"({"type":"message","role":"user","content":[{"type":"input_text","text":")" +
                     big + R"("}]},)";
  r.Line("compacted", R"({"message":"","replacement_history":[)" + user + user + user +
                          R"({"type":"compaction","encrypted_content":"x"}]})");
  r.Call("c3", 4200, 0);
  JsonValue report = Replay(r.text());
  const JsonValue& third = Request(report, 2);
  std::uint64_t client = U(*third.Find("lost_tokens_by_cause"), "history_rewritten_by_compaction");
  std::uint64_t server = U(*third.Find("lost_tokens_by_cause"), "server_miss");
  // ideal = Cacheable(min(4125, 4200)) = 4096; after the break 4125 · 4177 / 16414 = 1049
  // tokens, so 3076 could have stayed cached → Cacheable 3072: the client lost 1024.
  EXPECT_EQ(U(third, "ideal_cached_tokens"), 4096u);
  EXPECT_EQ(client, 1024u);
  EXPECT_EQ(server, 3072u);  // most of the prompt was intact
  EXPECT_EQ(client + server, U(third, "lost_tokens"));
  EXPECT_EQ(U(third, "predicted_cached_tokens"), 3072u);
  EXPECT_EQ(ToJson(*third.Find("cause")), R"("server_miss")");
}

// An agentctx rollout of two requests (5000 → 6000 input tokens, nothing cached) whose lines
// include the session's own cache report of each request (`cache_report`); `second_shared` and
// `second_break` are the second report's shared prefix bytes (of 20 000) and break.
std::string AgentctxTwoRequests(std::uint64_t second_shared, const std::string& second_break) {
  auto report_line = [](const std::string& body) {
    return R"({"type":"event_msg","payload":{"type":"cache_report",)" + body + "}}\n";
  };
  return R"({"type":"session_meta","payload":{"id":"s","originator":"agentctx","cli_version":"0.1.0"}})"
         "\n"
         R"({"type":"response_item","payload":{"type":"message","role":"user","content":[]}})"
         "\n" +
         report_line(R"("request_id":"r1","prompt_bytes":20000,"prompt_tokens":5000,)"
                     R"("shared_prefix_bytes":0,"reuse_bp":0,"max_reuse_bp":0,)"
                     R"("predicted_cached_tokens":0,"ideal_cached_tokens":0,"break":null)") +
         R"({"type":"response_item","payload":{"type":"reasoning","summary":[]}})"
         "\n"
         R"({"type":"response_item","payload":{"type":"function_call","name":"f","arguments":"{}","call_id":"c"}})"
         "\n"
         R"({"type":"event_msg","payload":{"type":"token_count","info":{"last_token_usage":{"input_tokens":5000}}}})"
         "\n"
         R"({"type":"response_item","payload":{"type":"function_call_output","call_id":"c","output":"x"}})"
         "\n" +
         report_line(R"("request_id":"r2","prompt_bytes":24000,"prompt_tokens":6000,)"
                     R"("shared_prefix_bytes":)" +
                     std::to_string(second_shared) +
                     R"(,"reuse_bp":0,"max_reuse_bp":8333,"predicted_cached_tokens":0,)"
                     R"("ideal_cached_tokens":4992,"break":)" +
                     second_break) +
         R"({"type":"response_item","payload":{"type":"reasoning","summary":[]}})"
         "\n"
         R"({"type":"event_msg","payload":{"type":"token_count","info":{"last_token_usage":{"input_tokens":6000}}}})"
         "\n";
}

TEST(ReplayCauses, RecordedCacheReportSeesTheTools) {
  // agentctx rollouts record the session's own cache report before each request; it saw the tool
  // list (rollouts never record tools), so its tools_changed break is the cause.
  JsonValue report = Replay(AgentctxTwoRequests(
      100, R"({"reason":"tools_changed","section":"tools","byte_offset":100,"lost_tokens":4992})"));
  const JsonValue& second = Request(report, 1);
  EXPECT_EQ(Causes(second), R"({"new_input":1008,"tools_changed":4992})");
  EXPECT_EQ(ToJson(*second.Find("cause_section")), R"("tools")");
  EXPECT_EQ(U(second, "prompt_bytes"), 24000u);
  EXPECT_EQ(ToJson(*report.Find("summary")->Find("breaks")),
            R"({"tools_changed":{"count":1,"lost_tokens":4992}})");
}

TEST(ReplayCauses, ChangedInstructionsAreClientSide) {
  // The session's report saw the instructions change 10 000 bytes in (Codex rollouts keep one
  // instruction text per session, so only a recorded report can say this). Half the previous
  // prompt was before the break: 2500 tokens that could have stayed cached, Cacheable 2432;
  // the client lost ideal − 2432 = 2560 of the 4992, the rest is the provider's.
  JsonValue report = Replay(AgentctxTwoRequests(
      10000, R"({"reason":"instructions_changed","section":"instructions","byte_offset":10000,)"
             R"("lost_tokens":2496})"));
  const JsonValue& second = Request(report, 1);
  EXPECT_EQ(Causes(second), R"({"new_input":1008,"instructions_changed":2560,"server_miss":2432})");
  EXPECT_EQ(ToJson(*second.Find("cause_section")), R"("instructions")");
  EXPECT_EQ(ToJson(*second.Find("cause")), R"("instructions_changed")");
  EXPECT_EQ(U(second, "predicted_cached_tokens"), 2432u);
  EXPECT_EQ(ToJson(*report.Find("summary")->Find("breaks")),
            R"({"instructions_changed":{"count":1,"lost_tokens":2560}})");
}

TEST(ReplayCauses, ChangedCacheKeyLosesTheWholePrompt) {
  // Another prompt_cache_key is another cache namespace, like another model: however much of
  // the prompt is byte-identical (the report says 10 000 bytes), none of it can be reused.
  JsonValue report = Replay(AgentctxTwoRequests(
      10000, R"({"reason":"cache_key_changed","section":"cache_key","byte_offset":0,)"
             R"("lost_tokens":4992})"));
  const JsonValue& second = Request(report, 1);
  EXPECT_EQ(Causes(second), R"({"new_input":1008,"cache_key_changed":4992})");
  EXPECT_EQ(ToJson(*second.Find("cause_section")), R"("cache_key")");
  EXPECT_EQ(U(second, "predicted_cached_tokens"), 0u);
}

TEST(ReplayCauses, RewrittenItemIsItemEdited) {
  // A call whose output is recorded late: the second request sent the call with the synthetic
  // `aborted` output (prompt/for_prompt.h), the third with the real output further on, so the
  // previous prompt changed at item 3 (the synthetic output, origin `tool`). All but ~70 of the
  // 7000 previous tokens were after it, fewer than the cacheable minimum: all of ideal
  // (Cacheable(7000) = 6912) is the edit's.
  Rollout r;
  r.User("go");
  r.Line("response_item", R"({"type":"reasoning","summary":[],"encrypted_content":"e"})");
  r.Line("response_item",
         R"({"type":"function_call","name":"shell","arguments":"{}","call_id":"c1"})");
  r.Usage(2000, 0, 10);
  r.User(std::string(20000, 'n'));
  r.Call("c2", 7000, 1920);
  r.Line("response_item", R"({"type":"function_call_output","call_id":"c1","output":"late"})");
  r.Line("response_item", R"({"type":"reasoning","summary":[],"encrypted_content":"e"})");
  r.Usage(7100, 0, 10);
  JsonValue report = Replay(r.text());
  EXPECT_EQ(Causes(Request(report, 1)), R"({"new_input":5080})");
  const JsonValue& third = Request(report, 2);
  EXPECT_EQ(Causes(third), R"({"new_input":188,"item_edited":6912})");
  EXPECT_EQ(ToJson(*third.Find("cause")), R"("item_edited")");
  EXPECT_EQ(ToJson(*third.Find("cause_section")), R"("tool")");
  EXPECT_EQ(ToJson(*third.Find("break")->Find("item_index")), "3");
  EXPECT_EQ(ToJson(*report.Find("summary")->Find("breaks")),
            R"({"item_edited":{"count":1,"lost_tokens":6912}})");
}

TEST(ReplayUsage, RepeatedTotalsCountOnce) {
  Rollout r;
  r.User("go");
  r.Call("c1", 5000, 0, /*repeats=*/2);
  r.Call("c2", 6000, 4992, /*repeats=*/3);
  JsonValue report = Replay(r.text());
  const JsonValue& s = *report.Find("summary");
  EXPECT_EQ(U(s, "requests_with_usage"), 2u);
  EXPECT_EQ(U(s, "repeated_usage_lines"), 5u);
  EXPECT_EQ(U(s, "input_tokens"), 11000u);
  EXPECT_EQ(ToJson(*s.Find("usage_matches_rollout_total")), "true");
  EXPECT_EQ(ToJson(*s.Find("usage_source")), R"("token_count")");
  EXPECT_EQ(ToJson(*report.Find("warnings")), "[]");
}

TEST(ReplayUsage, LastUsageThatDisagreesWithTheTotalWarns) {
  std::string text =
      R"({"type":"session_meta","payload":{"id":"s"}})"
      "\n"
      R"({"type":"response_item","payload":{"type":"reasoning","summary":[]}})"
      "\n"
      R"({"type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":100},"last_token_usage":{"input_tokens":100}}}})"
      "\n"
      R"({"type":"response_item","payload":{"type":"message","role":"user","content":[]}})"
      "\n"
      R"({"type":"response_item","payload":{"type":"reasoning","summary":[]}})"
      "\n"
      R"({"type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":250},"last_token_usage":{"input_tokens":120}}}})"
      "\n";
  JsonValue report = Replay(text);
  EXPECT_EQ(ToJson(*report.Find("warnings")->items()[0].Find("code")), R"("usage_total_mismatch")");
  EXPECT_EQ(U(*report.Find("summary"), "input_tokens"), 220u);
  EXPECT_EQ(ToJson(*report.Find("summary")->Find("usage_matches_rollout_total")), "false");
}

TEST(ReplayUsage, UsageBeforeTheOutputGoesToTheNextRequest) {
  // Codex 0.5x writes token_count before the items of the response it counts.
  std::string text =
      R"({"type":"session_meta","payload":{"id":"s","cli_version":"0.58.0"}})"
      "\n"
      R"({"type":"response_item","payload":{"type":"message","role":"user","content":[]}})"
      "\n"
      R"({"type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":100},"last_token_usage":{"input_tokens":100}}}})"
      "\n"
      R"({"type":"response_item","payload":{"type":"reasoning","summary":[]}})"
      "\n"
      R"({"type":"response_item","payload":{"type":"function_call","name":"f","arguments":"{}","call_id":"c"}})"
      "\n"
      R"({"type":"response_item","payload":{"type":"function_call_output","call_id":"c","output":"x"}})"
      "\n"
      R"({"type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":100},"last_token_usage":{"input_tokens":100}}}})"
      "\n"
      R"({"type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":230},"last_token_usage":{"input_tokens":130}}}})"
      "\n"
      R"({"type":"response_item","payload":{"type":"reasoning","summary":[]}})"
      "\n";
  JsonValue report = Replay(text);
  ASSERT_EQ(report.Find("requests")->items().size(), 2u);
  EXPECT_EQ(U(Request(report, 0), "input_tokens"), 100u);
  EXPECT_EQ(U(Request(report, 1), "input_tokens"), 130u);
  EXPECT_EQ(U(*report.Find("summary"), "usage_only_requests"), 0u);
}

TEST(ReplayUsage, UsageNoRequestTakesIsAUsageOnlyRequest) {
  // Two responses' usage after one run of output (e.g. a compaction request in between).
  Rollout r;
  r.User("go");
  r.Call("c1", 5000, 0);
  r.Usage(5200, 4992, 300);
  r.Call("c2", 6000, 4992);
  JsonValue report = Replay(r.text());
  ASSERT_EQ(report.Find("requests")->items().size(), 3u);
  const JsonValue& only = Request(report, 1);
  EXPECT_EQ(ToJson(*only.Find("reconstructed")), "false");
  EXPECT_EQ(ToJson(*only.Find("prompt_bytes")), "null");
  EXPECT_EQ(U(only, "input_tokens"), 5200u);
  const JsonValue& s = *report.Find("summary");
  EXPECT_EQ(U(s, "usage_only_requests"), 1u);
  EXPECT_EQ(U(s, "requests"), 2u);
  EXPECT_EQ(U(s, "input_tokens"), 16200u);
  EXPECT_EQ(ToJson(*s.Find("usage_matches_rollout_total")), "true");
}

TEST(ReplayUsage, TokenUsageRecordsReplaceTokenCounts) {
  std::string text =
      R"({"type":"session_meta","payload":{"id":"child","cli_version":"0.169.0"}})"
      "\n"
      R"({"type":"token_usage_record","payload":{"thread_id":"parent","response_id":"r0","usage":{"input_tokens":9000}}})"
      "\n"
      R"({"type":"response_item","payload":{"type":"message","role":"user","content":[]}})"
      "\n"
      R"({"type":"response_item","payload":{"type":"reasoning","summary":[]}})"
      "\n"
      R"({"type":"token_usage_record","payload":{"thread_id":"child","response_id":"r1","usage":{"input_tokens":2000,"cached_input_tokens":0,"output_tokens":5},"thread_token_usage":{"input_tokens":2000,"cached_input_tokens":0,"output_tokens":5}}})"
      "\n"
      R"({"type":"token_usage_record","payload":{"thread_id":"child","response_id":"r1","usage":{"input_tokens":2000,"cached_input_tokens":0,"output_tokens":5}}})"
      "\n"
      R"({"type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":2000},"last_token_usage":{"input_tokens":2000}}}})"
      "\n";
  JsonValue report = Replay(text);
  const JsonValue& s = *report.Find("summary");
  EXPECT_EQ(ToJson(*s.Find("usage_source")), R"("token_usage_record")");
  EXPECT_EQ(U(s, "requests_with_usage"), 1u);
  EXPECT_EQ(U(s, "input_tokens"), 2000u);
  EXPECT_EQ(U(s, "repeated_usage_lines"), 1u);
  EXPECT_EQ(ToJson(*s.Find("usage_matches_rollout_total")), "true");
}

TEST(ReplayCost, ExactAtConfiguredPrices) {
  ReplayOptions options;
  options.prices.input = 2000000;  // $2 / $0.5 / $8 per million
  options.prices.cached_input = 500000;
  options.prices.output = 8000000;
  JsonValue report = Replay(TwoRequests(1024, 2000).text(), options);
  // Input 11000 (cached 1024, uncached 9976), output 20:
  // 1024·0.5 + 9976·2 + 20·8 = 512 + 19952 + 160 = 20624 micro-USD.
  const JsonValue& cost = *report.Find("summary")->Find("cost");
  EXPECT_EQ(ToJson(cost),
            R"({"cached_input_usd":0.000512,"uncached_input_usd":0.019952,"output_usd":0.00016,)"
            R"("total_usd":0.020624,"by_cause_usd":{"new_input":0.012016,"server_miss":0.007936},)"
            R"("lost_extra_usd":0.005952})");
  EXPECT_EQ(ToJson(*Request(report, 1).Find("lost_cost_usd")), "0.007936");
  EXPECT_EQ(ToJson(*report.Find("summary")->Find("prices_per_million_usd")),
            R"({"input":2,"cached_input":0.5,"output":8})");
}

TEST(ReplayCost, UsdNumberIsExact) {
  EXPECT_EQ(ToJson(UsdNumber(0)), "0");
  EXPECT_EQ(ToJson(UsdNumber(1)), "0.000000000001");
  EXPECT_EQ(ToJson(UsdNumber(4961234125000)), "4.961234125");
  EXPECT_EQ(ToJson(UsdNumber(12000000000000)), "12");
}

TEST(ReplayOptionsJson, ReadsEveryOption) {
  auto input = ParseJson(
      R"({"text":"","ttl_ms":60000,"prices":{"input":1.5,"cached_input":0.15,"output":12,)"
      R"("cache_write":3},"provider":"anthropic","dump_requests":true,"requests":true,"top":3})");
  ASSERT_TRUE(input.has_value());
  auto o = ReplayOptionsFromJson(*input);
  ASSERT_TRUE(o.has_value()) << o.error().message;
  EXPECT_EQ(o->ttl_ms, 60000);
  EXPECT_EQ(o->prices.input, 1500000u);
  EXPECT_EQ(o->prices.cached_input, 150000u);
  EXPECT_EQ(o->prices.output, 12000000u);
  EXPECT_EQ(o->prices.cache_write, 3000000u);
  EXPECT_EQ(o->provider, Provider::kAnthropic);
  EXPECT_TRUE(o->dump_requests);
  EXPECT_TRUE(o->table_all_requests);
  EXPECT_EQ(o->top_misses, 3u);
  auto defaults = ReplayOptionsFromJson(JsonValue::Object());
  ASSERT_TRUE(defaults.has_value());
  EXPECT_EQ(defaults->ttl_ms, 300000);
  EXPECT_EQ(defaults->prices.input, 1250000u);
  EXPECT_FALSE(defaults->provider.has_value());
}

TEST(ReplayOptionsJson, RejectsBadValues) {
  for (const char* bad :
       {R"({"ttl_ms":-1})", R"({"ttl_ms":"5"})", R"({"prices":{"input":-1}})",
        R"({"prices":{"input":1e3}})", R"({"prices":{"output":0.0000001}})", R"({"prices":3})",
        R"({"dump_requests":1})", R"({"top":1.5})", R"({"provider":"gemini"})", R"({"provider":1})",
        R"({"prices":{"cache_write":1}})"}) {
    SCOPED_TRACE(bad);
    auto input = ParseJson(bad);
    ASSERT_TRUE(input.has_value());
    auto o = ReplayOptionsFromJson(*input);
    ASSERT_FALSE(o.has_value());
    EXPECT_EQ(o.error().code, ErrorCode::kInvalidInput);
  }
}

}  // namespace
}  // namespace agentctx
