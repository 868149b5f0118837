// SPDX-License-Identifier: MIT
// Compaction through the Engine facade: manual compact() as its
// own turn, the request shape, persistence order, failures, trimming, retries, interrupt, the
// stall guard, the tool freeze, remote deliveries and token accounting in events.
#include <gtest/gtest.h>

#include "compaction_session_util.h"

namespace agentctx {
namespace {

using compaction_test::AssistantJson;
using compaction_test::Config;
using compaction_test::Effects;
using compaction_test::Events;
using compaction_test::HistoryItems;
using compaction_test::IsSummaryRequest;
using compaction_test::LineKinds;
using compaction_test::ReadCallJson;
using compaction_test::Seed;
using compaction_test::SessionDriver;
using compaction_test::Sse;
using compaction_test::WarningCodes;

std::string Failed(const std::string& code, const std::string& message = "boom") {
  return "event: response.failed\ndata: "
         R"({"type":"response.failed","response":{"error":{"code":")" +
         code + R"(","message":")" + message + "\"}}}\n\n";
}

std::string InputOf(const std::string& body) {
  std::size_t start = body.find("\"input\":[");
  std::size_t end = body.find("],\"tools\":");
  return body.substr(start, end - start);
}

TEST(SessionCompaction, ManualCompactIsItsOwnTurnWithAPrefixStableRequest) {
  SessionDriver d;
  Seed(&d);
  d.Start(Config());
  d.Submit("first manual turn", 1000);
  const std::string turn_body = d.request_bodies().back();
  auto effects = d.Compact(2000);
  ASSERT_EQ(d.request_bodies().size(), 2u);
  const std::string& compact_body = d.request_bodies().back();
  auto requests = Effects(effects, "model_request");
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].GetString("purpose"), "compact");
  EXPECT_EQ(requests[0].GetString("endpoint"), "responses");
  // Same instructions and tools; the turn's input then the summarization message; tool_choice
  // none and no parallel calls.
  std::size_t tools_at = turn_body.find(",\"tools\":");
  std::size_t tools_end = turn_body.find(",\"tool_choice\":");
  EXPECT_NE(compact_body.find(turn_body.substr(tools_at, tools_end - tools_at)), std::string::npos);
  std::string turn_input = InputOf(turn_body);
  EXPECT_TRUE(InputOf(compact_body).starts_with(turn_input));
  EXPECT_NE(
      compact_body.find(
          R"({"type":"input_text","text":"You are performing a CONTEXT CHECKPOINT COMPACTION.)"),
      std::string::npos);
  EXPECT_NE(compact_body.find(R"("tool_choice":"none","parallel_tool_calls":false)"),
            std::string::npos);
  // Own turn: turn_started … turn_complete, compaction started/completed, long_thread.
  auto started = Events(effects, "turn_started");
  ASSERT_EQ(started.size(), 1u);
  EXPECT_EQ(started[0].GetString("turn_id"), "turn-2");
  auto compaction = Events(effects, "compaction");
  ASSERT_EQ(compaction.size(), 2u);
  EXPECT_EQ(compaction[0].GetString("phase"), "started");
  EXPECT_EQ(compaction[0].GetString("trigger"), "manual");
  EXPECT_EQ(compaction[0].GetString("strategy"), "local");
  EXPECT_EQ(compaction[0].Find("tokens_after"), nullptr);
  EXPECT_EQ(compaction[1].GetString("phase"), "completed");
  EXPECT_LT(*compaction[1].GetInt("tokens_after"), *compaction[1].GetInt("tokens_before"));
  EXPECT_GE(*compaction[1].GetInt("freed_bp"), 500);
  auto warnings = WarningCodes(effects);
  EXPECT_EQ(warnings, (std::vector<std::string>{"long_thread"}));
  auto done = Effects(effects, "turn_complete");
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0].GetString("reason"), "completed");
  EXPECT_EQ(done[0].Find("last_agent_message"), nullptr);
  // The summary request is explained without a break (its prefix is the turn's).
  auto reports = Events(effects, "cache_report");
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_TRUE(reports[0].Find("break")->is_null());
  // Rollout: task_started, cache_report, token_count, compacted, context_compacted, task_complete.
  std::vector<std::string> kinds = LineKinds(d.rollout());
  std::vector<std::string> tail(kinds.end() - 6, kinds.end());
  EXPECT_EQ(tail, (std::vector<std::string>{
                      "event_msg:task_started", "event_msg:cache_report", "event_msg:token_count",
                      "compacted", "event_msg:context_compacted", "event_msg:task_complete"}));
  // The next request is the one allowed break.
  auto next = d.Submit("second manual turn", 3000);
  auto next_reports = Events(next, "cache_report");
  ASSERT_EQ(next_reports.size(), 1u);
  EXPECT_EQ(next_reports[0].Find("break")->GetString("reason"), "history_rewritten_by_compaction");
  EXPECT_EQ(next_reports[0].Find("break")->GetString("section"), "permissions");
  EXPECT_EQ(next_reports[0].Find("break")->GetInt("item_index"), 0);
  auto stats = ParseJson(d.Call("stats", "{}"));
  EXPECT_EQ(stats->Find("value")->GetInt("compactions"), 1);
}

TEST(SessionCompaction, CompactIsRejectedDuringATurnAndChangesNothing) {
  SessionDriver d;
  Seed(&d);
  d.Start(Config());
  d.hold = true;
  d.Submit("hello", 1000);
  std::string before = d.Call("history", "{}");
  auto r = ParseJson(d.Call("compact", "{}"));
  EXPECT_EQ(r->Find("error")->GetString("code"), "turn_in_progress");
  EXPECT_EQ(d.Call("history", "{}"), before);
  auto bad = ParseJson(d.Call("interrupt", "{}"));
  EXPECT_TRUE(bad->GetBool("ok").value_or(false));
  auto wrong_id = ParseJson(d.Call("compact", R"({"turn_id":7})"));
  EXPECT_EQ(wrong_id->Find("error")->GetString("code"), "invalid_input");
  auto named = ParseJson(d.Call("compact", R"({"turn_id":"my-compact"})"));
  EXPECT_NE(ToJson(*named).find(R"({"type":"turn_started","turn_id":"my-compact"})"),
            std::string::npos);
}

TEST(SessionCompaction, MidTurnPersistsCompactedWorldStateTurnContextThenContextCompacted) {
  SessionDriver d;
  Seed(&d);
  d.Start(Config(R"(,"context_window":100000,"auto_compact_token_limit":400)"));
  auto effects = d.Submit("please read notes.txt", 1000);
  std::vector<std::string> kinds = LineKinds(d.rollout());
  auto at = std::find(kinds.begin(), kinds.end(), "compacted");
  ASSERT_NE(at, kinds.end());
  EXPECT_EQ(*(at + 1), "world_state");
  EXPECT_EQ(*(at + 2), "turn_context");
  EXPECT_EQ(*(at + 3), "event_msg:context_compacted");
  std::size_t i = static_cast<std::size_t>(at - kinds.begin());
  EXPECT_NE(d.rollout()[i + 1].find(R"("payload":{"full":true,"state":{)"), std::string::npos);
  auto done = Effects(effects, "turn_complete");
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0].GetString("reason"), "completed");
  // The step after the compaction appends no context (the baseline is the reinjected one).
  auto ws = ParseJson(d.Call("world_state", "{}"));
  EXPECT_NE(ToJson(*ws).find("\"agents_md\""), std::string::npos);
}

TEST(SessionCompaction, NonRetryableFailureLeavesHistoryUnchangedAndFailsTheTurn) {
  SessionDriver d;
  Seed(&d);
  d.respond = [](const std::string& endpoint,
                 const std::string& body) -> std::optional<std::string> {
    if (IsSummaryRequest(endpoint, body)) return Failed("invalid_prompt", "bad prompt");
    return std::nullopt;
  };
  d.Start(Config());
  d.Submit("hello", 1000);
  std::string before = d.Call("history", "{}");
  auto effects = d.Compact(2000);
  auto errors = Effects(effects, "error");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].GetString("code"), "compaction_failed");
  EXPECT_EQ(errors[0].GetString("message"), "compaction failed: invalid_request: bad prompt");
  EXPECT_EQ(errors[0].GetBool("retryable"), false);
  EXPECT_EQ(Effects(effects, "turn_complete")[0].GetString("reason"), "failed");
  EXPECT_EQ(d.Call("history", "{}"), before);
  EXPECT_TRUE(Events(effects, "compaction").size() == 1u);  // started only
  for (const auto& line : d.rollout()) EXPECT_EQ(line.find("\"compacted\""), std::string::npos);
  // The session goes on normally.
  auto next = d.Submit("again", 3000);
  EXPECT_EQ(Effects(next, "turn_complete")[0].GetString("reason"), "completed");
}

TEST(SessionCompaction, ContextOverflowTrimsTheOldestItemAndAsksAgain) {
  SessionDriver d;
  Seed(&d);
  auto failures = std::make_shared<int>(0);
  d.respond = [failures](const std::string& endpoint,
                         const std::string& body) -> std::optional<std::string> {
    if (IsSummaryRequest(endpoint, body) && *failures < 2) {
      ++*failures;
      return Failed("context_length_exceeded", "too long");
    }
    return std::nullopt;
  };
  d.Start(Config());
  d.Submit("please read notes.txt", 1000);
  auto effects = d.Compact(2000);
  auto requests = Effects(effects, "model_request");
  ASSERT_EQ(requests.size(), 3u);
  std::vector<std::string> ids;
  for (const auto& r : requests) ids.emplace_back(*r.GetString("id"));
  EXPECT_NE(ids[0], ids[1]);
  std::vector<JsonValue> warnings;
  for (const auto& w : Events(effects, "warning")) {
    if (w.GetString("code") == "compaction_trimmed") warnings.push_back(w);
  }
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_EQ(warnings[0].GetString("message"),
            "Trimmed 1 oldest item(s) from the compaction request to fit the context window.");
  EXPECT_EQ(warnings[1].GetString("message"),
            "Trimmed 2 oldest item(s) from the compaction request to fit the context window.");
  // Each retry drops the head of the input.
  std::string in0 = InputOf(std::string(*requests[0].GetString("body")));
  std::string in1 = InputOf(std::string(*requests[1].GetString("body")));
  std::string in2 = InputOf(std::string(*requests[2].GetString("body")));
  EXPECT_LT(in1.size(), in0.size());
  EXPECT_LT(in2.size(), in1.size());
  EXPECT_TRUE(in0.ends_with(in1.substr(std::string("\"input\":[").size())));
  EXPECT_EQ(Effects(effects, "error").size(), 0u);
  EXPECT_EQ(Events(effects, "compaction").back().GetString("phase"), "completed");
  // The trimmed retry is explained as a compaction rewrite, not an edit.
  auto reports = Events(effects, "cache_report");
  ASSERT_EQ(reports.size(), 3u);
  EXPECT_EQ(reports[1].Find("break")->GetString("reason"), "history_rewritten_by_compaction");
  // The full history's real user message survives in the rebuilt history.
  auto items = HistoryItems(&d);
  ASSERT_EQ(items.size(), 2u);
  EXPECT_NE(ToJson(items[0]).find("please read notes.txt"), std::string::npos);
}

TEST(SessionCompaction, NothingLeftToTrimFailsWithTheUnderlyingCode) {
  SessionDriver d;
  Seed(&d);
  d.respond = [](const std::string& endpoint,
                 const std::string& body) -> std::optional<std::string> {
    if (IsSummaryRequest(endpoint, body)) return Failed("context_length_exceeded", "too long");
    return std::nullopt;
  };
  d.Start(Config());
  d.Submit("hello", 1000);
  std::string before = d.Call("history", "{}");
  auto effects = d.Compact(2000);
  auto errors = Effects(effects, "error");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].GetString("code"), "compaction_failed");
  EXPECT_EQ(errors[0].GetString("message"), "compaction failed: context_window_exceeded: too long");
  EXPECT_EQ(d.Call("history", "{}"), before);
}

TEST(SessionCompaction, RetryableFailureSuspendsAndRetryResendsTheSameBody) {
  SessionDriver d;
  Seed(&d);
  auto failed = std::make_shared<bool>(false);
  d.respond = [failed](const std::string& endpoint,
                       const std::string& body) -> std::optional<std::string> {
    if (IsSummaryRequest(endpoint, body) && !*failed) {
      *failed = true;
      return Failed("rate_limit_exceeded", "Please try again in 1s");
    }
    return std::nullopt;
  };
  d.Start(Config());
  d.Submit("hello", 1000);
  auto effects = d.Compact(2000);
  auto errors = Effects(effects, "error");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].GetString("code"), "rate_limited");
  EXPECT_EQ(errors[0].GetBool("retryable"), true);
  EXPECT_TRUE(Effects(effects, "turn_complete").empty());
  std::string id(*errors[0].GetString("request_id"));
  std::string body = d.request_bodies().back();
  auto retried = d.Call("retry", R"({"request_id":")" + id + R"(","now_ms":3000})");
  auto parsed = ParseJson(retried);
  const JsonValue& req = parsed->Find("value")->Find("effects")->items().back();
  EXPECT_EQ(req.GetString("purpose"), "compact");
  EXPECT_EQ(req.GetInt("attempt"), 2);
  EXPECT_EQ(req.GetString("body"), body);
}

TEST(SessionCompaction, InterruptDuringACompactionLeavesHistoryUnchanged) {
  for (const char* strategy : {"local", "remote"}) {
    SessionDriver d;
    Seed(&d);
    d.Start(Config("", std::string(R"(,"compaction":{"strategy":")") + strategy + "\"}"));
    d.Submit("please read notes.txt", 1000);
    std::string before = d.Call("history", "{}");
    std::string rollout_before = d.RolloutText();
    d.hold = true;
    d.Compact(2000);
    ASSERT_EQ(d.held().size(), 1u);
    auto effects = d.Interrupt(2500);
    auto done = Effects(effects, "turn_complete");
    ASSERT_EQ(done.size(), 1u);
    EXPECT_EQ(done[0].GetString("reason"), "interrupted");
    EXPECT_EQ(d.Call("history", "{}"), before) << strategy;
    // Late answers are stale and change nothing.
    d.hold = false;
    auto late = d.AnswerHeld(3000);
    EXPECT_EQ(WarningCodes(late)[0], "stale_delivery");
    EXPECT_EQ(d.Call("history", "{}"), before);
    std::string added = d.RolloutText().substr(rollout_before.size());
    EXPECT_EQ(added.find("\"compacted\""), std::string::npos);
    EXPECT_NE(added.find("\"turn_aborted\""), std::string::npos);
    // The next turn works and has no compaction break.
    auto next = d.Submit("again", 4000);
    EXPECT_EQ(Effects(next, "turn_complete")[0].GetString("reason"), "completed");
  }
}

TEST(SessionCompaction, InterruptDuringAPreTurnCompactionDropsThePendingInput) {
  SessionDriver d;
  Seed(&d);
  d.Start(Config(R"(,"context_window":100000,"auto_compact_token_limit":500)"));
  d.Submit("hello there, please remember the word PINEAPPLE", 1000);
  std::string before = d.Call("history", "{}");
  d.hold = true;
  auto effects = d.Submit("what was the word?", 2000);
  ASSERT_EQ(Events(effects, "compaction").size(), 1u);
  d.Interrupt(2500);
  EXPECT_EQ(d.Call("history", "{}"), before);
}

TEST(SessionCompaction, StallGuardPausesAutoCompactionUntilAManualOneFrees) {
  SessionDriver d;
  Seed(&d);
  auto long_summary = std::make_shared<bool>(true);
  d.respond = [long_summary](const std::string& endpoint,
                             const std::string& body) -> std::optional<std::string> {
    if (!IsSummaryRequest(endpoint, body)) return std::nullopt;
    return Sse({AssistantJson(*long_summary ? std::string(4000, 's') : std::string("short"))});
  };
  d.Start(Config(R"(,"context_window":100000,"auto_compact_token_limit":500)"));
  d.Submit("hello there, please remember the word PINEAPPLE", 1000);
  auto second = d.Submit("what was the word?", 2000);
  auto compaction = Events(second, "compaction");
  ASSERT_EQ(compaction.size(), 2u);
  std::int64_t freed = *compaction[1].GetInt("freed_bp");
  EXPECT_LT(freed, 500);
  std::int64_t before = *compaction[1].GetInt("tokens_before");
  std::int64_t after = *compaction[1].GetInt("tokens_after");
  auto warnings = Events(second, "warning");
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_EQ(warnings[0].GetString("code"), "long_thread");
  EXPECT_EQ(warnings[1].GetString("code"), "compaction_stalled");
  std::int64_t magnitude = freed < 0 ? -freed : freed;
  std::string pct = std::string(freed < 0 ? "-" : "") + std::to_string(magnitude / 100) + "." +
                    (magnitude % 100 < 10 ? "0" : "") + std::to_string(magnitude % 100);
  EXPECT_EQ(warnings[1].GetString("message"), "Compaction freed only " + pct +
                                                  "% of the context (" + std::to_string(before) +
                                                  " \xE2\x86\x92 " + std::to_string(after) +
                                                  " tokens); automatic compaction is paused.");
  // Stalled: over the limit, yet no automatic compaction.
  auto third = d.Submit("and now?", 3000);
  EXPECT_TRUE(Events(third, "compaction").empty());
  // A manual compaction that frees ≥ 5 % clears the stall.
  *long_summary = false;
  auto manual = d.Compact(4000);
  EXPECT_GE(*Events(manual, "compaction")[1].GetInt("freed_bp"), 500);
  // Automatic compaction is back: the compacted history alone is over this tiny limit.
  auto fourth = d.Submit("one more", 5000);
  auto again = Events(fourth, "compaction");
  ASSERT_EQ(again.size(), 2u);
  EXPECT_EQ(again[0].GetString("trigger"), "pre_turn");
}

TEST(SessionCompaction, ModelChangeClearsTheStall) {
  SessionDriver d;
  Seed(&d);
  d.respond = [](const std::string& endpoint,
                 const std::string& body) -> std::optional<std::string> {
    if (!IsSummaryRequest(endpoint, body)) return std::nullopt;
    return Sse({AssistantJson(std::string(4000, 's'))});
  };
  d.Start(Config(R"(,"context_window":100000,"auto_compact_token_limit":500)"));
  d.Submit("hello there, please remember the word PINEAPPLE", 1000);
  d.Submit("what was the word?", 2000);
  EXPECT_TRUE(Events(d.Submit("stalled?", 3000), "compaction").empty());
  d.Update(R"({"model":{"slug":"mock-2"}})", 3500);
  EXPECT_EQ(Events(d.Submit("after the model change", 4000), "compaction").size(), 2u);
}

TEST(SessionCompaction, NoWindowOrAutoOffMeansNoAutomaticCompaction) {
  for (const std::string& config :
       {Config(), Config(R"(,"context_window":100000,"auto_compact_token_limit":500)",
                         R"(,"compaction":{"auto":false})")}) {
    SessionDriver d;
    Seed(&d);
    d.Start(config);
    d.Submit("please read notes.txt", 1000);
    auto second = d.Submit("and again notes.txt", 2000);
    EXPECT_TRUE(Events(second, "compaction").empty());
    for (const auto& body : d.request_bodies()) {
      EXPECT_EQ(body.find("CONTEXT CHECKPOINT"), std::string::npos);
    }
  }
}

TEST(SessionCompaction, TokenUsageCarriesTheContextWindow) {
  SessionDriver d;
  Seed(&d);
  d.Start(Config(R"(,"context_window":272000)"));
  auto effects = d.Submit("hello", 1000);
  auto usage = Events(effects, "token_usage");
  ASSERT_EQ(usage.size(), 1u);
  EXPECT_EQ(usage[0].GetInt("context_window"), 272000);
  EXPECT_EQ(*usage[0].GetInt("context_tokens"),
            *usage[0].GetInt("input_tokens") + *usage[0].GetInt("output_tokens"));
}

TEST(SessionCompaction, RemoteDeliveriesMustMatchTheEndpoint) {
  SessionDriver d;
  Seed(&d);
  d.Start(Config("", R"(,"compaction":{"strategy":"remote"})"));
  d.Submit("hello", 1000);
  d.hold = true;
  d.Compact(2000);
  ASSERT_EQ(d.held().size(), 1u);
  std::string id = d.held()[0].id;
  EXPECT_EQ(d.held()[0].endpoint, "responses/compact");
  // The compact body: model, input, instructions, tools, parallel_tool_calls, reasoning,
  // prompt_cache_key in that order; no store/stream/include/tool_choice.
  const std::string& body = d.held()[0].body;
  EXPECT_TRUE(body.starts_with(R"({"model":"mock-1","input":[)"));
  EXPECT_NE(body.find(R"(],"instructions":"Be helpful.","tools":[)"), std::string::npos);
  EXPECT_TRUE(
      body.ends_with(R"(,"parallel_tool_calls":true,"reasoning":{},"prompt_cache_key":"s-c"})"));
  EXPECT_EQ(body.find("\"store\""), std::string::npos);
  EXPECT_EQ(body.find("tool_choice"), std::string::npos);
  auto sse = ParseJson(d.Call("deliver", R"({"delivery":{"type":"model_events","request_id":")" +
                                             id + R"(","sse":"data: {}\n\n"}})"));
  EXPECT_EQ(sse->Find("error")->GetString("code"), "invalid_input");
  auto bad = ParseJson(d.Call("deliver", R"({"delivery":{"type":"model_response","request_id":")" +
                                             id + R"(","body":"{\"nope\":1}"}})"));
  ASSERT_TRUE(bad->GetBool("ok").value_or(false));
  std::string bad_json = ToJson(*bad);
  EXPECT_NE(
      bad_json.find(
          R"("code":"compaction_failed","message":"compaction failed: invalid_input: the responses/compact body has no `output` array")"),
      std::string::npos)
      << bad_json;
  // model_response for a turn request is refused.
  d.hold = true;
  d.Submit("next", 3000);
  ASSERT_EQ(d.held().size(), 2u);
  auto wrong =
      ParseJson(d.Call("deliver", R"({"delivery":{"type":"model_response","request_id":")" +
                                      d.held()[1].id + R"(","body":"{}"}})"));
  EXPECT_EQ(wrong->Find("error")->GetString("code"), "invalid_input");
}

TEST(SessionCompaction, CompactionReleasesTheToolFreeze) {
  SessionDriver d;
  Seed(&d);
  d.Start(Config("", R"(,"tool_policy":"defer","builtin_tools":false)"));
  d.Submit("hello", 1000);
  d.Update(R"({"tools":[{"name":"fmt","description":"Formats code"}]})", 1500);
  d.Submit("again", 2000);
  EXPECT_EQ(d.request_bodies().back().find("\"tools\":[]"),
            d.request_bodies().back().find("\"tools\":"));  // still frozen
  EXPECT_NE(d.request_bodies().back().find("<tools>"), std::string::npos);
  d.Compact(3000);
  EXPECT_NE(d.request_bodies().back().find("\"tools\":[]"), std::string::npos);  // same array
  d.Submit("after", 4000);
  const std::string& last = d.request_bodies().back();
  EXPECT_NE(last.find(R"("tools":[{"type":"function","name":"fmt")"), std::string::npos);
  // The pending-tools notice is gone from the new context.
  std::size_t summary = last.find("Another language model started");
  ASSERT_NE(summary, std::string::npos);
  EXPECT_EQ(last.find("<tools>", summary), std::string::npos);
}

TEST(SessionCompaction, ResumeRebuildsACodexCompactedWithoutReplacementHistory) {
  std::string rollout =
      R"({"timestamp":"2026-01-01T00:00:00.000Z","type":"session_meta","payload":{"id":"s-c","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/repo","originator":"codex"}})"
      "\n"
      R"({"timestamp":"2026-01-01T00:00:01.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>\n  <cwd>/repo</cwd>\n</environment_context>"}]}})"
      "\n"
      R"({"timestamp":"2026-01-01T00:00:01.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"task one"}]}})"
      "\n"
      R"({"timestamp":"2026-01-01T00:00:02.000Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"done"}]}})"
      "\n"
      R"({"timestamp":"2026-01-01T00:00:03.000Z","type":"compacted","payload":{"message":"IMPORTED SUMMARY"}})"
      "\n";
  SessionDriver d;
  Seed(&d);
  auto env = ParseJson(d.Call(
      "session.resume", "{\"config\":" + Config() + ",\"rollout\":" + JsonString(rollout) + "}"));
  ASSERT_TRUE(env->GetBool("ok").value_or(false)) << ToJson(*env);
  EXPECT_EQ(ToJson(*env).find("unsupported_item"), std::string::npos);
  auto items = HistoryItems(&d);
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(
      ToJson(items[0]),
      R"({"type":"message","role":"user","content":[{"type":"input_text","text":"task one"}]})");
  EXPECT_EQ(
      ToJson(items[1]),
      R"({"type":"message","role":"user","content":[{"type":"input_text","text":"IMPORTED SUMMARY"}]})");
  auto stats = ParseJson(d.Call("stats", "{}"));
  EXPECT_EQ(stats->Find("value")->GetInt("compactions"), 1);
}

}  // namespace
}  // namespace agentctx
