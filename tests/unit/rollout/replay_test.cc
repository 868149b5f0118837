// SPDX-License-Identifier: MIT
// Tests for replay analysis (SPEC §13.4 and the §13 vectors): hand-written Codex-format
// fixtures with known figures, the older layout, torn/corrupt input, and the six real Codex
// rollouts in ../shared/rollouts (read in place, never copied; skipped when unreachable).
#include "rollout/replay.h"

#include <dirent.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "protocol/json_codec.h"
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
  // SPEC §13 vector: turn, tool call + output, 2nd turn → 3 requests, each input a prefix of
  // the next, no break. Canonical item sizes: dev 173, env 164, user 101 | reasoning 133,
  // call 127, output 107 | reasoning 83, assistant 98, user 98.
  std::optional<std::string> text = ReadFixture("rollouts/codex_two_turns.jsonl");
  ASSERT_TRUE(text.has_value());
  JsonValue report = Replay(*text);
  EXPECT_EQ(Field(report, "session_id"), R"("0190c0de-0000-7000-8000-000000000001")");
  EXPECT_EQ(Field(report, "lines"), "27");
  EXPECT_EQ(Field(report, "warnings"), "[]");
  const JsonValue& requests = *report.Find("requests");
  ASSERT_EQ(requests.items().size(), 3u);
  EXPECT_EQ(ToJson(requests.items()[0]),
            R"({"request_id":"req-1","line":9,"model":"gpt-5.4","input_items":3,)"
            R"("prompt_bytes":438,"prompt_tokens":110,"shared_prefix_bytes":0,"reuse_bp":0,)"
            R"("max_reuse_bp":0,"predicted_cached_tokens":0,"ideal_cached_tokens":0,)"
            R"("break":null,"input_tokens":1200,"cached_input_tokens":0})");
  EXPECT_EQ(ToJson(requests.items()[1]),
            R"({"request_id":"req-2","line":15,"model":"gpt-5.4","input_items":6,)"
            R"("prompt_bytes":805,"prompt_tokens":202,"shared_prefix_bytes":438,)"
            R"("reuse_bp":5440,"max_reuse_bp":5440,"predicted_cached_tokens":0,)"
            R"("ideal_cached_tokens":0,"break":null,"input_tokens":1300,)"
            R"("cached_input_tokens":1152})");
  EXPECT_EQ(ToJson(requests.items()[2]),
            R"({"request_id":"req-3","line":24,"model":"gpt-5.4","input_items":9,)"
            R"("prompt_bytes":1084,"prompt_tokens":271,"shared_prefix_bytes":805,)"
            R"("reuse_bp":7426,"max_reuse_bp":7426,"predicted_cached_tokens":0,)"
            R"("ideal_cached_tokens":0,"break":null,"input_tokens":1400,)"
            R"("cached_input_tokens":1280})");
  EXPECT_EQ(ToJson(*report.Find("summary")),
            R"({"requests":3,"prompt_bytes":2327,"shared_prefix_bytes":1243,)"
            R"("max_shared_prefix_bytes":1243,"predicted_cached_tokens":0,)"
            R"("ideal_cached_tokens":0,"reported_cached_tokens":2432,"reuse_bp":5341,)"
            R"("max_reuse_bp":5341,"breaks":{},"compactions":0,"unrebuilt_compactions":0,)"
            R"("requests_with_usage":3,"input_tokens":3900,"cached_input_tokens":2432,)"
            R"("reported_cached_bp":6235})");
}

TEST(Replay, CodexCompactedIsHistoryRewrite) {
  // SPEC §13 vector: a `compacted` → history_rewritten_by_compaction at the next request.
  // req-1 = dev 173 + env 164 + user 95; req-2 = user 95 + compaction 60 + dev + env + user 85.
  std::optional<std::string> text = ReadFixture("rollouts/codex_compacted.jsonl");
  ASSERT_TRUE(text.has_value());
  JsonValue report = Replay(*text);
  const JsonValue& requests = *report.Find("requests");
  ASSERT_EQ(requests.items().size(), 2u);
  EXPECT_EQ(Field(requests.items()[0], "break"), "null");
  EXPECT_EQ(Field(requests.items()[0], "prompt_bytes"), "432");
  EXPECT_EQ(ToJson(requests.items()[1]),
            R"({"request_id":"req-2","line":19,"model":"gpt-5.4","input_items":5,)"
            R"("prompt_bytes":577,"prompt_tokens":145,"shared_prefix_bytes":26,"reuse_bp":450,)"
            R"("max_reuse_bp":7487,"predicted_cached_tokens":0,"ideal_cached_tokens":0,)"
            R"("break":{"reason":"history_rewritten_by_compaction","section":"developer",)"
            R"("item_index":0,"byte_offset":26,"lost_tokens":0},"input_tokens":400,)"
            R"("cached_input_tokens":0})");
  const JsonValue& summary = *report.Find("summary");
  EXPECT_EQ(Field(summary, "compactions"), "1");
  EXPECT_EQ(Field(summary, "breaks"),
            R"({"history_rewritten_by_compaction":{"count":1,"lost_tokens":0}})");
}

TEST(Replay, TableRendering) {
  std::optional<std::string> text = ReadFixture("rollouts/codex_compacted.jsonl");
  ASSERT_TRUE(text.has_value());
  EXPECT_EQ(RenderReplayTable(Replay(*text)),
            "session               0190c0de-0000-7000-8000-000000000002\n"
            "lines                 21\n"
            "requests              2\n"
            "compactions           1\n"
            "prompt bytes          1009\n"
            "shared prefix bytes   26 (2.57%)\n"
            "max shared bytes      432 (42.81%)\n"
            "predicted cached      0 tokens\n"
            "ideal cached          0 tokens\n"
            "reported cached       0 of 1300 input tokens (0.00%, 2 requests)\n"
            "breaks\n"
            "  reason                              count  lost_tokens\n"
            "  history_rewritten_by_compaction         1            0\n"
            "break details\n"
            "  request     line  reason                           section         item"
            "    offset    lost\n"
            "  req-2         19  history_rewritten_by_compaction  developer          0"
            "        26       0\n");
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

// --- the six real Codex rollouts (SPEC §13.4), read in place -------------------------------

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

TEST(ReplayRealRollouts, EachParsesAndYieldsRequests) {
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
    EXPECT_FALSE(RenderReplayTable(*report).empty());
  }
}

TEST(ReplayRealRollouts, QuelklefCompactionBreaksTheCache) {
  std::optional<std::string> dir = RealRolloutDir();
  if (!dir) GTEST_SKIP() << "../shared/rollouts is not reachable from this runner";
  std::string path;
  for (const std::string& name : JsonlFiles(*dir)) {
    if (name.rfind("Quelklef__", 0) == 0) path = *dir + "/" + name;
  }
  ASSERT_FALSE(path.empty());
  std::optional<std::string> text = ReadAll(path);
  ASSERT_TRUE(text.has_value());
  auto report = ReplayReport(*text);
  ASSERT_TRUE(report.has_value()) << report.error().message;
  EXPECT_EQ(Field(*report->Find("summary"), "compactions"), "1");
  // The first request after the `compacted` line (1 821) breaks with the compaction reason.
  const JsonValue* after = nullptr;
  for (const JsonValue& r : report->Find("requests")->items()) {
    if (r.GetInt("line").value_or(0) > 1821) {
      after = &r;
      break;
    }
  }
  ASSERT_NE(after, nullptr);
  const JsonValue* brk = after->Find("break");
  ASSERT_TRUE(brk != nullptr && brk->is_object()) << ToJson(*after);
  EXPECT_EQ(brk->GetString("reason"), "history_rewritten_by_compaction");
}

}  // namespace
}  // namespace agentctx
