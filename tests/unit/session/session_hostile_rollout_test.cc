// SPDX-License-Identifier: MIT
// Hostile rollouts through resume (docs/RELIABILITY.md): duplicated lines are skipped with a
// warning (the resumed request never carries an item twice), reordered lines are warned about, and
// a line over the size limit is skipped; each time the session stays usable.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "protocol/json_codec.h"
#include "rollout/line_checks.h"
#include "rollout/resume_state.h"
#include "rollout/rollout_reader.h"
#include "support/session_driver.h"

namespace agentctx {
namespace {

using testing::SessionDriver;

const char* const kConfig =
    R"({"session_id":"hr-1","model":{"slug":"mock-1","instructions":"Be helpful."},)"
    R"("approval_policy":"never","sandbox":{"mode":"read-only"},)"
    R"("environments":[{"id":"local","cwd":"/repo","shell":"bash","fs":"workspace"}]})";

void Seed(SessionDriver* d) {
  ASSERT_TRUE(d->fs()->AddFile("/repo/notes.txt", "a\nb\nc\n").has_value());
}

std::string Rollout() {
  SessionDriver d;
  Seed(&d);
  d.Start(kConfig);
  d.Submit("read notes.txt", 1000);
  d.Submit("thanks", 2000);
  return d.RolloutText();
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  for (std::size_t lf = text.find('\n'); lf != std::string::npos; lf = text.find('\n', start)) {
    lines.push_back(text.substr(start, lf + 1 - start));
    start = lf + 1;
  }
  return lines;
}

std::pair<std::string, std::string> ResumeAndSubmit(const std::string& rollout) {
  SessionDriver d;
  Seed(&d);
  std::string input = std::string("{\"config\":") + kConfig +
                      ",\"rollout\":" + JsonString(rollout) + ",\"now_ms\":9000}";
  std::string env = d.Call("session.resume", input);
  if (env.find("\"ok\":true") == std::string::npos) return {env, ""};
  d.Submit("one more", 10000);
  return {env, d.request_bodies().empty() ? "" : d.request_bodies().front()};
}

// The identity keys of the request's input items, with how often each occurs.
std::map<std::string, int> InputKeys(const std::string& body) {
  std::map<std::string, int> counts;
  Result<JsonValue> parsed = ParseJson(body);
  EXPECT_TRUE(parsed.has_value());
  if (!parsed.has_value()) return counts;
  const JsonValue* input = parsed->Find("input");
  if (input == nullptr) return counts;
  for (const JsonValue& item : input->items()) {
    for (const std::string& key : ItemKeys(item)) ++counts[key];
  }
  return counts;
}

TEST(Regression, Issue17DuplicatedRolloutLinesGiveAWarningAndNoDuplicateItems) {
  std::string rollout = Rollout();
  auto [clean_env, clean_body] = ResumeAndSubmit(rollout);
  ASSERT_NE(clean_body, "") << clean_env;
  std::map<std::string, int> clean_keys = InputKeys(clean_body);
  ASSERT_FALSE(clean_keys.empty());

  // Every line written twice (a host that appended a buffer again).
  std::string doubled;
  for (const std::string& line : Lines(rollout)) doubled += line + line;
  auto [env, body] = ResumeAndSubmit(doubled);
  ASSERT_NE(body, "") << env;
  EXPECT_NE(env.find("\"code\":\"rollout_duplicate_item\""), std::string::npos) << env;
  for (const auto& [key, count] : InputKeys(body)) EXPECT_EQ(count, 1) << key;
  EXPECT_EQ(InputKeys(body), clean_keys);

  // Only the keyed lines twice: the request is exactly the clean one.
  std::string keyed_twice;
  for (const std::string& line : Lines(rollout)) {
    bool keyed = line.find("\"response_item\"") != std::string::npos &&
                 (line.find("\"call_id\"") != std::string::npos ||
                  line.find("\"id\":\"") != std::string::npos);
    keyed_twice += keyed ? line + line : line;
  }
  ASSERT_NE(keyed_twice, rollout);
  auto [env2, body2] = ResumeAndSubmit(keyed_twice);
  EXPECT_NE(env2.find("rollout_duplicate_item"), std::string::npos) << env2;
  EXPECT_EQ(body2, clean_body);
}

TEST(Regression, Issue17ReorderedRolloutLinesGiveAWarningAndTheSessionResumes) {
  std::vector<std::string> lines = Lines(Rollout());
  // Move the first tool output before its call.
  std::size_t call = lines.size();
  std::size_t output = lines.size();
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (call == lines.size() && lines[i].find("\"type\":\"function_call\"") != std::string::npos) {
      call = i;
    }
    if (output == lines.size() &&
        lines[i].find("\"type\":\"function_call_output\"") != std::string::npos) {
      output = i;
    }
  }
  ASSERT_LT(call, output);
  std::string moved = lines[output];
  lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(output));
  lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(call), moved);
  std::string reordered;
  for (const std::string& line : lines) reordered += line;
  auto [env, body] = ResumeAndSubmit(reordered);
  ASSERT_NE(body, "") << env;
  EXPECT_NE(env.find("\"code\":\"rollout_out_of_order\""), std::string::npos) << env;
}

TEST(Regression, Issue17OversizedRolloutLineIsSkippedWithAWarning) {
  const std::string small = R"({"type":"event_msg","payload":{"type":"task_started"}})";
  const std::string big = R"({"type":"response_item","payload":{"type":"message","role":"user",)"
                          R"("content":[{"type":"input_text","text":")" +
                          std::string(200, 'x') + R"("}]}})";
  Result<ParsedRollout> parsed = ParseRollout(small + "\n" + big + "\n" + small + "\n", 100);
  ASSERT_TRUE(parsed.has_value()) << parsed.error().Display();
  ASSERT_EQ(parsed->records.size(), 2u);
  EXPECT_EQ(parsed->records[1].line_number, 3u);
  ASSERT_EQ(parsed->warnings.size(), 1u);
  EXPECT_EQ(parsed->warnings[0].code, WarningCode::kRolloutLineTooLarge);
  EXPECT_EQ(parsed->warnings[0].message, "skipped rollout line 2: " + std::to_string(big.size()) +
                                             " bytes, over the limit of 100 bytes");
  // The same line under the real limit is read.
  EXPECT_EQ(ParseRollout(small + "\n" + big + "\n")->records.size(), 2u);
  EXPECT_EQ(kMaxRolloutLineBytes, std::size_t{64} << 20);
}

TEST(RolloutLineChecks, KeysAndTheCompactedHistory) {
  EXPECT_EQ(ItemKeys(*ParseJson(R"({"type":"function_call","call_id":"c1","id":"fc_1"})")),
            (std::vector<std::string>{"call function_call c1", "id fc_1"}));
  EXPECT_EQ(ItemKeys(*ParseJson(R"({"type":"function_call_output","call_id":"c1"})")),
            (std::vector<std::string>{"output function_call_output c1"}));
  EXPECT_TRUE(ItemKeys(*ParseJson(R"({"type":"message","role":"user","content":[]})")).empty());
  // After a compaction, the replacement's items are known; an item the compaction dropped may
  // come back (it is no longer in the history).
  const std::string rollout =
      R"({"type":"response_item","payload":{"type":"message","role":"assistant","id":"m1","content":[]}})"
      "\n"
      R"({"type":"compacted","payload":{"message":"s","replacement_history":[{"type":"message","role":"assistant","id":"m2","content":[]}]}})"
      "\n"
      R"({"type":"response_item","payload":{"type":"message","role":"assistant","id":"m1","content":[]}})"
      "\n"
      R"({"type":"response_item","payload":{"type":"message","role":"assistant","id":"m2","content":[]}})"
      "\n";
  Result<ResumeState> state = BuildResumeState(rollout, nullptr);
  ASSERT_TRUE(state.has_value());
  EXPECT_EQ(state->history.size(), 2u);  // m2 (replacement), m1
  ASSERT_EQ(state->warnings.size(), 1u);
  EXPECT_EQ(state->warnings[0].message,
            "skipped rollout line 4: duplicate of the compacted history (id m2)");
}

TEST(RolloutLineChecks, OlderTimestampIsOutOfOrderOnce) {
  auto line = [](const char* ts, const char* id) {
    return std::string(R"({"timestamp":")") + ts +
           R"(","type":"response_item","payload":{"type":"message","role":"assistant","id":")" +
           id + R"(","content":[]}})" + "\n";
  };
  std::string rollout =
      line("2026-01-01T00:00:02.000Z", "a") + line("2026-01-01T00:00:01.000Z", "b") +
      line("2026-01-01T00:00:00.500Z", "c") + line("2026-01-01T00:00:03.000Z", "d");
  Result<ResumeState> state = BuildResumeState(rollout, nullptr);
  ASSERT_TRUE(state.has_value());
  EXPECT_EQ(state->history.size(), 4u);  // applied in file order
  ASSERT_EQ(state->warnings.size(), 1u);
  EXPECT_EQ(state->warnings[0].code, WarningCode::kRolloutOutOfOrder);
  EXPECT_EQ(state->warnings[0].message,
            "rollout lines out of order: line 2 is older than line 1 (2 lines in all)");
}

}  // namespace
}  // namespace agentctx
