// SPDX-License-Identifier: MIT
// Tests for replay analysis (docs/replay.md): hand-written Codex-format
// fixtures with known figures, the older layout, torn/corrupt input, and the six real Codex
// rollouts in ../shared/rollouts (read in place, never copied; skipped when unreachable, as in
// a user's clone). replay_causes_test.cc covers each cause; replay_layout_test.cc the request
// layouts of the Codex versions and --dump-requests.
#include "rollout/replay.h"

#include <dirent.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "protocol/json_codec.h"
#include "rollout/replay_causes.h"
#include "support/fixtures.h"

namespace agentctx {
namespace {

using testing::ReadFixture;

JsonValue Replay(const std::string& text) {
  auto report = ReplayReport(text);
  EXPECT_TRUE(report.has_value()) << (report ? "" : report.error().message);
  return report ? std::move(report).value() : JsonValue::Object();
}

std::string Field(const JsonValue& v, std::string_view key) {
  const JsonValue* f = v.Find(key);
  return f == nullptr ? "<absent>" : ToJson(*f);
}

TEST(Replay, CodexTwoTurnsIsThreePrefixRequests) {
  // Turn, tool call + output, 2nd turn → 3 requests, each input a prefix of
  // the next, no break. Items as recorded: dev 173, env 164, user 101 | reasoning 148,
  // call 151, output 107 | reasoning 98, assistant 98, user 98.
  std::optional<std::string> text = ReadFixture("rollouts/codex_two_turns.jsonl");
  ASSERT_TRUE(text.has_value());
  JsonValue report = Replay(*text);
  EXPECT_EQ(Field(report, "session_id"), R"("0190c0de-0000-7000-8000-000000000001")");
  EXPECT_EQ(Field(report, "lines"), "27");
  EXPECT_EQ(Field(report, "warnings"), "[]");
  const JsonValue& requests = *report.Find("requests");
  ASSERT_EQ(requests.items().size(), 3u);
  EXPECT_EQ(Field(requests.items()[0], "prompt_bytes"), "438");
  EXPECT_EQ(Field(requests.items()[0], "lost_tokens_by_cause"), R"({"new_input":1200})");
  // 1200 → 1300 input: cacheable(1200) = 1152 of the repeated prefix, all cached; 148 new.
  EXPECT_EQ(ToJson(requests.items()[1]),
            R"({"request_id":"req-2","line":15,"time":"2026-01-01T00:00:02.102Z",)"
            R"("model":"gpt-5.4","reconstructed":true,"after_compaction":false,"input_items":6,)"
            R"("prompt_bytes":844,)"
            R"("prompt_tokens":211,"shared_prefix_bytes":438,"reuse_bp":5189,)"
            R"("max_reuse_bp":5189,"predicted_cached_tokens":1152,"ideal_cached_tokens":1152,)"
            R"("break":null,"input_tokens":1300,"cached_input_tokens":1152,"output_tokens":20,)"
            R"("uncached_input_tokens":148,"new_input_tokens":148,"lost_tokens":0,)"
            R"("cause":"new_input","cause_section":null,"lost_tokens_by_cause":{"new_input":148},)"
            R"("gap_ms":100,"cost_usd":0.000529,"lost_cost_usd":0})");
  EXPECT_EQ(Field(requests.items()[2], "prompt_bytes"), "1138");
  EXPECT_EQ(Field(requests.items()[2], "shared_prefix_bytes"), "844");
  EXPECT_EQ(Field(requests.items()[2], "lost_tokens_by_cause"), R"({"new_input":120})");
  EXPECT_EQ(ToJson(*report.Find("summary")),
            R"({"requests":3,"usage_only_requests":0,"prompt_bytes":2420,)"
            R"("shared_prefix_bytes":1282,"max_shared_prefix_bytes":1282,)"
            R"("predicted_cached_tokens":2432,"ideal_cached_tokens":2432,"reuse_bp":5297,)"
            R"("max_reuse_bp":5297,"breaks":{},"compactions":0,"unrebuilt_compactions":0,)"
            R"("usage_source":"token_count","repeated_usage_lines":0,"requests_with_usage":3,)"
            R"("input_tokens":3900,"cached_input_tokens":2432,"output_tokens":70,)"
            R"("reasoning_output_tokens":24,"reported_cached_bp":6235,)"
            R"("uncached_input_tokens":1468,"new_input_tokens":1468,"lost_tokens":0,)"
            R"("lost_tokens_by_cause":{"new_input":1468},"rollout_total_token_usage":null,)"
            R"("usage_matches_rollout_total":null,"ttl_ms":300000,)"
            R"("prices_per_million_usd":{"input":1.25,"cached_input":0.125,"output":10},)"
            R"("cost":{"cached_input_usd":0.000304,"uncached_input_usd":0.001835,)"
            R"("output_usd":0.0007,"total_usd":0.002839,"by_cause_usd":{"new_input":0.001835},)"
            R"("lost_extra_usd":0}})");
}

// A recorded item of 300 000 extra keys (a hostile rollout) replays like the plain one, in
// linear work: copying the item without its internal_ fields looked each key up among those
// copied before it.
TEST(Replay, AnItemOfManyKeysReplaysInLinearWork) {
  std::optional<std::string> text = ReadFixture("rollouts/codex_two_turns.jsonl");
  ASSERT_TRUE(text.has_value());
  std::string wide;
  bool widened = false;
  std::size_t start = 0;
  while (start < text->size()) {
    std::size_t end = text->find('\n', start);
    if (end == std::string::npos) end = text->size();
    std::string line = text->substr(start, end - start);
    start = end + 1;
    auto parsed = ParseJson(line);
    if (!widened && parsed && parsed->GetString("type") == "response_item") {
      JsonValue* payload = parsed->Find("payload");
      ASSERT_NE(payload, nullptr);
      for (int i = 0; i < 300000; ++i) {
        payload->members().push_back(JsonMember{"x" + std::to_string(i), JsonValue::Int(i)});
      }
      line = ToJson(*parsed);
      widened = true;
    }
    wide += line + "\n";
  }
  ASSERT_TRUE(widened);
  JsonValue report = Replay(wide);
  EXPECT_EQ(report.Find("requests")->items().size(), 3u);
  EXPECT_EQ(Field(report, "warnings"), "[]");
}

TEST(Replay, CodexCompactedIsHistoryRewrite) {
  // A `compacted` → history_rewritten_by_compaction at the next request.
  // req-1 = dev 173 + env 164 + user 95; req-2 = user 95 + compaction 60 + dev + env + user 85.
  std::optional<std::string> text = ReadFixture("rollouts/codex_compacted.jsonl");
  ASSERT_TRUE(text.has_value());
  JsonValue report = Replay(*text);
  const JsonValue& requests = *report.Find("requests");
  ASSERT_EQ(requests.items().size(), 2u);
  EXPECT_EQ(Field(requests.items()[0], "break"), "null");
  EXPECT_EQ(Field(requests.items()[0], "prompt_bytes"), "432");
  const JsonValue& second = requests.items()[1];
  EXPECT_EQ(Field(second, "shared_prefix_bytes"), "26");
  EXPECT_EQ(Field(second, "after_compaction"), "true");
  EXPECT_EQ(Field(requests.items()[0], "after_compaction"), "false");
  EXPECT_EQ(Field(second, "max_reuse_bp"), "7487");
  // The 400-token prompt is under the cacheable minimum: nothing could have been cached, so
  // its 400 repeated tokens are below_minimum although the compaction also broke the prefix.
  EXPECT_EQ(Field(second, "break"),
            R"({"reason":"history_rewritten_by_compaction","section":"developer",)"
            R"("item_index":0,"byte_offset":26,"lost_tokens":0})");
  EXPECT_EQ(Field(second, "lost_tokens_by_cause"), R"({"below_minimum":400})");
  const JsonValue& summary = *report.Find("summary");
  EXPECT_EQ(Field(summary, "compactions"), "1");
  EXPECT_EQ(Field(summary, "breaks"),
            R"({"history_rewritten_by_compaction":{"count":1,"lost_tokens":0}})");
}

TEST(Replay, TableRendering) {
  std::optional<std::string> text = ReadFixture("rollouts/codex_compacted.jsonl");
  ASSERT_TRUE(text.has_value());
  EXPECT_EQ(
      RenderReplayTable(Replay(*text), /*all_requests=*/true),
      "session               0190c0de-0000-7000-8000-000000000002\n"
      "cli version           0.105.0\n"
      "lines                 21\n"
      "requests              2 reconstructed, 2 with usage (token_count, 0 repeated lines "
      "skipped)\n"
      "compactions           1\n"
      "prompt reuse          2.57% of prompt bytes shared with the previous request (best "
      "42.81%)\n"
      "input tokens          1,300, cached 0 (0.00%), output 35\n"
      "uncached input        1,300 = new 900 + lost 400\n"
      "cost                  $0.0020 (cached input $0.0000, uncached input $0.0016, output "
      "$0.0004; misses cost $0.0005 more than cached) at $1.25 / $0.125 / $10 per million "
      "input / cached / output\n"
      "idle TTL              300,000 ms\n"
      "uncached input by cause\n"
      "  cause                              requests      tokens    share       cost\n"
      "  new_input                                 1         900   69.23%    $0.0011\n"
      "  below_minimum                             1         400   30.76%    $0.0005\n"
      "top misses\n"
      "  request    line      input       lost  miss cost  cause\n"
      "  req-2        19        400        400    $0.0005  below_minimum\n"
      "requests\n"
      "  request    line  time                          input     cached       lost  miss cost  "
      "cause\n"
      "  req-1         8  2026-01-01T00:00:01.004Z        900          0          0    $0.0000  "
      "new_input\n"
      "  req-2        19  2026-01-01T00:01:00.006Z        400          0        400    $0.0005  "
      "below_minimum\n");
}

TEST(Replay, TableGroupsThousandsAndItsTopMissesFitOneHundredColumns) {
  std::optional<std::string> text = ReadFixture("rollouts/codex_0169_layout.jsonl");
  ASSERT_TRUE(text.has_value());
  std::string table = RenderReplayTable(Replay(*text));
  EXPECT_NE(table.find("input tokens          9,250, cached 2,944 (31.82%), output 60\n"),
            std::string::npos)
      << table;
  std::size_t misses = table.find("top misses\n");
  ASSERT_NE(misses, std::string::npos) << table;
  EXPECT_NE(
      table.find("  req-3        21      3,150      3,072    $0.0038  model_changed (model)\n"),
      std::string::npos)
      << table;
  for (std::size_t at = misses, end; at < table.size(); at = end + 1) {
    end = table.find('\n', at);
    if (end == std::string::npos) end = table.size();
    EXPECT_LE(end - at, 100u) << table.substr(at, end - at);
  }
}

TEST(Replay, TableWithoutUsageHasNoCost) {
  // An older Codex layout records no token counts: no cost can be estimated, and the table
  // says so instead of $0; the prefix reuse is still known.
  std::optional<std::string> text = ReadFixture("rollouts/codex_two_turns.jsonl");
  ASSERT_TRUE(text.has_value());
  std::string without;
  for (std::size_t at = 0, end; at < text->size(); at = end + 1) {
    end = text->find('\n', at);
    if (end == std::string::npos) end = text->size();
    std::string line = text->substr(at, end - at);
    if (line.find("\"token_count\"") == std::string::npos) without += line + "\n";
  }
  std::string table = RenderReplayTable(Replay(without));
  EXPECT_NE(table.find("cost                  no usage recorded — cost cannot be estimated\n"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("input tokens          no usage recorded\n"), std::string::npos) << table;
  EXPECT_NE(table.find("requests              3 reconstructed, none with usage"), std::string::npos)
      << table;
  EXPECT_NE(table.find("prompt reuse          "), std::string::npos) << table;
  EXPECT_EQ(table.find("$0.0000"), std::string::npos) << table;
}

TEST(Replay, ModelChangeFromTurnContextAndUnknownItems) {
  std::string text =
      R"({"type":"session_meta","payload":{"id":"s"}})"
      "\n"
      R"({"type":"turn_context","payload":{"model":"m1"}})"
      "\n"
      R"({"type":"response_item","payload":{"type":"message","role":"user","content":[]}})"
      "\n"
      R"({"type":"response_item","payload":{"type":"web_search_call","status":"completed","action":{"type":"search","query":"x"}}})"
      "\n"
      R"({"type":"response_item","payload":{"type":"inter_agent_communication","z":1,"a":2}})"
      "\n"
      R"({"type":"turn_context","payload":{"model":"m2"}})"
      "\n"
      R"({"type":"response_item","payload":{"type":"reasoning","summary":[]}})"
      "\n";
  JsonValue report = Replay(text);
  const JsonValue& requests = *report.Find("requests");
  ASSERT_EQ(requests.items().size(), 2u);
  EXPECT_EQ(Field(requests.items()[0], "input_items"), "1");
  EXPECT_EQ(Field(requests.items()[0], "input_tokens"), "null");
  EXPECT_EQ(Field(requests.items()[1], "model"), R"("m2")");
  EXPECT_EQ(Field(requests.items()[1], "input_items"), "3");
  // The unknown item is kept as opaque JSON in source key order: 45 + 86 + 48 bytes.
  EXPECT_EQ(Field(requests.items()[1], "prompt_bytes"), "179");
  EXPECT_EQ(Field(*requests.items()[1].Find("break"), "reason"), R"("model_changed")");
}

TEST(Replay, OlderLayoutWithBareItems) {
  // {id,timestamp,instructions,git} header, bare items, record_type lines, CRLF.
  std::string text =
      "{\"id\":\"old-1\",\"timestamp\":\"2025-09-10T18:58:38.331Z\",\"instructions\":\"x\"}\r\n"
      "{\"record_type\":\"state\"}\r\n"
      "{\"type\":\"message\",\"role\":\"user\",\"content\":[{\"type\":\"input_text\","
      "\"text\":\"hi\"}]}\r\n"
      "{\"type\":\"reasoning\",\"id\":\"rs_1\",\"summary\":[]}\r\n"
      "{\"type\":\"function_call\",\"name\":\"shell\",\"arguments\":\"{}\",\"call_id\":\"c1\"}\r\n"
      "{\"record_type\":\"state\"}\r\n"
      "{\"type\":\"function_call_output\",\"call_id\":\"c1\",\"output\":\"ok\"}\r\n"
      "{\"type\":\"message\",\"role\":\"assistant\",\"content\":[{\"type\":\"output_text\","
      "\"text\":\"done\"}]}\r\n";
  JsonValue report = Replay(text);
  EXPECT_EQ(Field(report, "session_id"), R"("old-1")");
  const JsonValue& requests = *report.Find("requests");
  ASSERT_EQ(requests.items().size(), 2u);
  EXPECT_EQ(Field(requests.items()[0], "line"), "4");
  EXPECT_EQ(Field(requests.items()[1], "input_items"), "4");
  EXPECT_EQ(Field(requests.items()[1], "break"), "null");
}

TEST(Replay, UnansweredCallGetsAbortedOutput) {
  std::string text =
      R"({"type":"response_item","payload":{"type":"function_call","name":"f","arguments":"{}","call_id":"c1"}})"
      "\n"
      R"({"type":"response_item","payload":{"type":"message","role":"user","content":[]}})"
      "\n"
      R"({"type":"response_item","payload":{"type":"reasoning","summary":[]}})"
      "\n";
  JsonValue report = Replay(text);
  const JsonValue& requests = *report.Find("requests");
  ASSERT_EQ(requests.items().size(), 2u);
  // Input: call, synthetic `aborted` output, user message.
  EXPECT_EQ(Field(requests.items()[1], "input_items"), "3");
}

TEST(Replay, TornLastLineWarns) {
  std::optional<std::string> text = ReadFixture("rollouts/codex_two_turns.jsonl");
  ASSERT_TRUE(text.has_value());
  JsonValue report = Replay(*text + R"({"timestamp":"2026-)");
  EXPECT_EQ(Field(report, "lines"), "27");
  EXPECT_EQ(Field(*report.Find("warnings")->items().data(), "code"), R"("rollout_torn_line")");
  EXPECT_EQ(report.Find("requests")->items().size(), 3u);
}

TEST(Replay, CorruptLineIsAnError) {
  std::optional<std::string> text = ReadFixture("rollouts/codex_two_turns.jsonl");
  ASSERT_TRUE(text.has_value());
  std::string broken;
  std::size_t start = 0;
  for (int line = 1; line <= 10; ++line) {
    std::size_t lf = text->find('\n', start);
    broken += (line == 3 ? std::string("{\"type\":") : text->substr(start, lf - start)) + "\n";
    start = lf + 1;
  }
  auto report = ReplayReport(broken);
  ASSERT_FALSE(report.has_value());
  EXPECT_EQ(report.error().code, ErrorCode::kRolloutCorrupt);
  EXPECT_NE(report.error().message.find("line 3"), std::string::npos);
}

// --- the six real Codex rollouts, read in place ---------------------------------------------

std::optional<std::string> RealRolloutDir() {
  // The shared folder sits beside the main checkout; worktrees live one level deeper.
  for (const char* candidate :
       {ACTX_SOURCE_DIR "/../shared/rollouts", ACTX_SOURCE_DIR "/../../shared/rollouts"}) {
    if (DIR* dir = opendir(candidate)) {
      closedir(dir);
      return std::string(candidate);
    }
  }
  return std::nullopt;
}

std::vector<std::string> JsonlFiles(const std::string& dir_path) {
  std::vector<std::string> names;
  if (DIR* dir = opendir(dir_path.c_str())) {
    while (dirent* e = readdir(dir)) {
      std::string name = e->d_name;
      if (name.size() > 6 && name.substr(name.size() - 6) == ".jsonl") names.push_back(name);
    }
    closedir(dir);
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::optional<std::string> ReadAll(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return std::nullopt;
  std::string out;
  char buf[65536];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  std::fclose(f);
  return out;
}

std::uint64_t Count(const JsonValue& v, std::string_view key) {
  std::optional<std::int64_t> n = v.GetInt(key);
  return n && *n > 0 ? static_cast<std::uint64_t>(*n) : 0;
}

std::optional<JsonValue> RealReport(const std::string& dir, const std::string& prefix) {
  for (const std::string& name : JsonlFiles(dir)) {
    if (name.rfind(prefix, 0) != 0) continue;
    std::optional<std::string> text = ReadAll(dir + "/" + name);
    if (!text) return std::nullopt;
    auto report = ReplayReport(*text);
    if (!report) return std::nullopt;
    return std::move(report).value();
  }
  return std::nullopt;
}

TEST(ReplayRealRollouts, EveryUncachedTokenHasACauseAndNoNumberIsImpossible) {
  std::optional<std::string> dir = RealRolloutDir();
  if (!dir) GTEST_SKIP() << "../shared/rollouts is not reachable from this runner";
  std::vector<std::string> files = JsonlFiles(*dir);
  ASSERT_GE(files.size(), 6u);
  for (const std::string& name : files) {
    SCOPED_TRACE(name);
    std::optional<std::string> text = ReadAll(*dir + "/" + name);
    ASSERT_TRUE(text.has_value());
    auto report = ReplayReport(*text);
    ASSERT_TRUE(report.has_value()) << report.error().message;
    EXPECT_EQ(Field(*report, "warnings"), "[]");
    EXPECT_GE(report->Find("requests")->items().size(), 1u);
    EXPECT_FALSE(RenderReplayTable(*report, true).empty());
    const JsonValue& s = *report->Find("summary");
    std::uint64_t by_cause = 0;
    for (const JsonMember& m : s.Find("lost_tokens_by_cause")->members()) {
      by_cause += static_cast<std::uint64_t>(*m.value.int_value());
    }
    EXPECT_EQ(by_cause, Count(s, "uncached_input_tokens"));
    if (Count(s, "requests_with_usage") > 0) {
      EXPECT_LE(Count(s, "predicted_cached_tokens"), Count(s, "input_tokens"));
      EXPECT_LE(Count(s, "ideal_cached_tokens"), Count(s, "input_tokens"));
    }
    std::optional<std::uint64_t> prev_input;
    for (const JsonValue& r : report->Find("requests")->items()) {
      if (r.Find("input_tokens")->is_null()) continue;
      SCOPED_TRACE(ToJson(r.Find("request_id") ? *r.Find("request_id") : JsonValue()));
      EXPECT_LE(Count(r, "predicted_cached_tokens"), Count(r, "input_tokens"));
      EXPECT_LE(Count(r, "ideal_cached_tokens"), Count(r, "input_tokens"));
      if (prev_input) {
        EXPECT_LE(Count(r, "lost_tokens"), *prev_input);
      }
      EXPECT_EQ(Count(r, "new_input_tokens") + Count(r, "lost_tokens"),
                Count(r, "uncached_input_tokens"));
      prev_input = Count(r, "input_tokens");
    }
    // Usage counted once per request: the sums are the rollout's own final total.
    if (Count(s, "requests_with_usage") > 0) {
      EXPECT_EQ(ToJson(*s.Find("usage_matches_rollout_total")), "true");
    }
    // The cost shown (the playground adds the requests' rows, each counted once) is the cost
    // of the rollout's own final total at the same prices.
    if (const JsonValue* total = s.Find("rollout_total_token_usage"); !total->is_null()) {
      std::uint64_t input = 0, cached = 0;
      for (const JsonValue& r : report->Find("requests")->items()) {
        input += Count(r, "input_tokens");
        cached += Count(r, "cached_input_tokens");
      }
      EXPECT_EQ(input, Count(*total, "input_tokens"));
      EXPECT_EQ(cached, Count(*total, "cached_input_tokens"));
      ReplayPrices prices;
      std::uint64_t total_pico =
          (Count(*total, "input_tokens") - Count(*total, "cached_input_tokens")) * prices.input +
          Count(*total, "cached_input_tokens") * prices.cached_input +
          Count(*total, "output_tokens") * prices.output;
      EXPECT_EQ(ToJson(*s.Find("cost")->Find("total_usd")), ToJson(UsdNumber(total_pico)));
    }
    std::printf(
        "[ figures  ] %s: uncached %llu = by cause %llu; input %llu cached %llu output "
        "%llu; cost $%s\n",
        name.substr(0, 40).c_str(),
        static_cast<unsigned long long>(Count(s, "uncached_input_tokens")),
        static_cast<unsigned long long>(by_cause),
        static_cast<unsigned long long>(Count(s, "input_tokens")),
        static_cast<unsigned long long>(Count(s, "cached_input_tokens")),
        static_cast<unsigned long long>(Count(s, "output_tokens")),
        s.Find("cost")->Find("total_usd")->string_value().c_str());
  }
}

TEST(ReplayRealRollouts, QuelklefCompactionAndMissesAreExplained) {
  std::optional<std::string> dir = RealRolloutDir();
  if (!dir) GTEST_SKIP() << "../shared/rollouts is not reachable from this runner";
  std::optional<JsonValue> report = RealReport(*dir, "Quelklef__");
  ASSERT_TRUE(report.has_value());
  const JsonValue& s = *report->Find("summary");
  EXPECT_EQ(Field(s, "compactions"), "1");
  // 566 token_count events with usage, 185 distinct: counted once each, the session costs
  // $4.96 at the default prices (the rollout's own total), not the $14.95 of adding them all.
  EXPECT_EQ(Count(s, "requests_with_usage"), 185u);
  EXPECT_EQ(Count(s, "repeated_usage_lines"), 381u);
  EXPECT_EQ(Count(s, "input_tokens"), 18041015u);
  EXPECT_EQ(Field(*s.Find("cost"), "total_usd"), "4.96407475");
  // The first request after the `compacted` line (1 821) is blamed on the compaction.
  const JsonValue* after = nullptr;
  for (const JsonValue& r : report->Find("requests")->items()) {
    if (r.GetInt("line").value_or(0) > 1821) {
      after = &r;
      break;
    }
  }
  ASSERT_NE(after, nullptr);
  EXPECT_EQ(after->GetString("cause"), "history_rewritten_by_compaction");
  const JsonValue* brk = after->Find("break");
  ASSERT_TRUE(brk != nullptr && brk->is_object()) << ToJson(*after);
  EXPECT_EQ(brk->GetString("reason"), "history_rewritten_by_compaction");
  // The model switch and the 29-minute pause are named; the rest of the misses had an intact
  // prefix.
  const JsonValue& causes = *s.Find("lost_tokens_by_cause");
  EXPECT_GT(Count(causes, "model_changed"), 0u);
  EXPECT_GT(Count(causes, "idle_past_ttl"), 0u);
  EXPECT_GT(Count(causes, "server_miss"), 0u);
}

TEST(ReplayRealRollouts, CabinetGovernanceMissesAreNotHidden) {
  // On this rollout an older replay said "breaks: none" while requests 17, 27 and 47 were
  // mostly misses.
  std::optional<std::string> dir = RealRolloutDir();
  if (!dir) GTEST_SKIP() << "../shared/rollouts is not reachable from this runner";
  std::optional<JsonValue> report =
      RealReport(*dir, "olivia215215__cabinet-governance__rollout-2026-05-12T21");
  ASSERT_TRUE(report.has_value());
  const std::vector<JsonValue>& requests = report->Find("requests")->items();
  ASSERT_GE(requests.size(), 47u);
  for (std::size_t n : {17u, 27u, 47u}) {
    const JsonValue& r = requests[n - 1];
    SCOPED_TRACE(ToJson(r));
    EXPECT_GT(Count(r, "lost_tokens") * 2, Count(r, "input_tokens"));
    EXPECT_EQ(r.GetString("cause"), "server_miss");
  }
  EXPECT_EQ(Count(requests[46], "input_tokens"), 80006u);
  EXPECT_EQ(Count(requests[46], "cached_input_tokens"), 2432u);
  EXPECT_NE(RenderReplayTable(*report).find("req-47"), std::string::npos);
}

}  // namespace
}  // namespace agentctx
