// SPDX-License-Identifier: MIT
// Tests for resume reconstruction (rollout/resume_state.h).
#include "rollout/resume_state.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "protocol/json_codec.h"
#include "rollout/rollout_writer.h"

namespace agentctx {
namespace {

JsonValue Json(std::string_view text) { return ParseJson(text).value(); }

std::string UserItem(const std::string& text) { return ToJson(UserInputMessage(text, {})); }

std::string Lines(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

TEST(ResumeState, BaselineVector) {
  // Full, compacted, full, patch → merged baseline.
  std::string text = Lines({
      WorldStateLine(0, true, Json(R"({"environment":{"status":"old"}})")),
      CompactedLine(0, "", {}),
      WorldStateLine(0, true, Json(R"({"environment":{"status":"starting","cwd":"/workspace"}})")),
      WorldStateLine(0, false, Json(R"({"environment":{"status":"ready"}})")),
  });
  auto state = BuildResumeState(text, nullptr);
  ASSERT_TRUE(state.has_value());
  ASSERT_TRUE(state->baseline.has_value());
  EXPECT_EQ(ToSortedJson(*state->baseline),
            R"({"environment":{"cwd":"/workspace","status":"ready"}})");
  EXPECT_TRUE(state->warnings.empty());
  EXPECT_EQ(state->compaction_counter, 1u);
}

TEST(ResumeState, PatchBeforeFullIsIgnoredWithWarning) {
  std::string text = Lines({
      WorldStateLine(0, false, Json(R"({"environment":{"status":"ready"}})")),
      WorldStateLine(0, true, Json(R"({"model":"m"})")),
  });
  auto state = BuildResumeState(text, nullptr);
  ASSERT_TRUE(state.has_value());
  ASSERT_EQ(state->warnings.size(), 1u);
  EXPECT_EQ(ToWire(state->warnings[0].code), "world_state_patch_without_full");
  EXPECT_EQ(state->warnings[0].message, "ignored world-state patch without a full snapshot");
  EXPECT_EQ(ToSortedJson(*state->baseline), R"({"model":"m"})");
}

TEST(ResumeState, CompactionClearsBaseline) {
  std::string text = Lines({
      WorldStateLine(0, true, Json(R"({"model":"m"})")),
      CompactedLine(0, "", {}),
      WorldStateLine(0, false, Json(R"({"model":"n"})")),
  });
  auto state = BuildResumeState(text, nullptr);
  ASSERT_TRUE(state.has_value());
  EXPECT_FALSE(state->baseline.has_value());
  EXPECT_EQ(state->warnings.size(), 1u);
}

TEST(ResumeState, HistoryIsNewestReplacementPlusLaterItems) {
  std::string a = UserItem("a"), b = UserItem("b"), c = UserItem("c"), d = UserItem("d");
  std::string text = Lines({
      SessionMetaLine(0, "s-1", "/repo", "0.1.0"),
      TaskStartedLine(0, "turn-1"),
      ResponseItemLine(0, a, "turn-1", "user"),
      CompactedLine(0, "", {b}),
      ResponseItemLine(0, c, "turn-1", "environment"),
      CompactedLine(0, "", {a, b}),
      TaskStartedLine(0, "turn-2"),
      ResponseItemLine(0, d, "turn-2", "user"),
  });
  auto state = BuildResumeState(text, nullptr);
  ASSERT_TRUE(state.has_value());
  ASSERT_EQ(state->history.size(), 3u);
  EXPECT_EQ(state->history[0].bytes, a);  // byte-identical to what was written
  EXPECT_EQ(state->history[0].origin, "compaction");
  EXPECT_EQ(state->history[1].bytes, b);
  EXPECT_EQ(state->history[2].bytes, d);
  EXPECT_EQ(state->history[2].turn_id, "turn-2");
  EXPECT_EQ(state->history[2].origin, "user");
  EXPECT_EQ(state->compaction_counter, 2u);
  EXPECT_EQ(state->turn_counter, 2u);
  ASSERT_TRUE(state->session_meta.has_value());
  EXPECT_EQ(state->session_meta->GetString("id"), "s-1");
}

TEST(ResumeState, CompactedWithoutReplacementUsesRebuilder) {
  std::string a = UserItem("a"), b = UserItem("b");
  std::string text = Lines({
      ResponseItemLine(0, a, "turn-1", "user"),
      R"({"timestamp":"t","type":"compacted","payload":{"message":"SUMMARY"}})",
      ResponseItemLine(0, b, "turn-2", "user"),
  });
  std::size_t seen_size = 99;
  std::string seen_message;
  CompactionRebuilder rebuild = [&](const std::vector<RecordedItem>& so_far,
                                    std::string_view message) {
    seen_size = so_far.size();
    seen_message = std::string(message);
    return std::vector<RecordedItem>{
        MakeRecordedItem(UserInputMessage("rebuilt", {}), "turn-1", "compaction")};
  };
  auto state = BuildResumeState(text, &rebuild);
  ASSERT_TRUE(state.has_value());
  EXPECT_EQ(seen_size, 1u);
  EXPECT_EQ(seen_message, "SUMMARY");
  ASSERT_EQ(state->history.size(), 2u);
  EXPECT_EQ(state->history[0].bytes, UserItem("rebuilt"));
  EXPECT_EQ(state->history[1].bytes, b);
  EXPECT_TRUE(state->unrebuilt_compactions.empty());

  // Without a rebuilder the compaction is reported and history left as it was.
  state = BuildResumeState(text, nullptr);
  ASSERT_TRUE(state.has_value());
  ASSERT_EQ(state->unrebuilt_compactions.size(), 1u);
  EXPECT_EQ(state->unrebuilt_compactions[0].line_number, 2u);
  EXPECT_EQ(state->unrebuilt_compactions[0].message, "SUMMARY");
  EXPECT_EQ(state->unrebuilt_compactions[0].history_size, 1u);
  EXPECT_EQ(state->history.size(), 2u);
}

TEST(ResumeState, LastTurnContextTokenUsageAndCounters) {
  TurnContextFields f;
  f.turn_id = "turn-1";
  f.cwd = "/repo";
  f.approval_policy = ApprovalPolicy::kNever;
  f.model = "m1";
  TurnContextFields g = f;
  g.turn_id = "turn-7";
  g.model = "m2";
  std::string text = Lines({
      TaskStartedLine(0, "turn-1"),
      TurnContextLine(0, f),
      ResponseItemLine(0, UserItem("x"), "turn-1", "user"),
      TokenCountLine(0, TokenUsageFields{100, 0, 10, 0, 110, std::nullopt, std::nullopt},
                     std::nullopt),
      TaskStartedLine(0, "turn-7"),
      TurnContextLine(0, g),
      ResponseItemLine(0, UserItem("y"), "turn-7", "user"),
      TokenCountLine(0, TokenUsageFields{200, 100, 20, 0, 220, std::nullopt, std::nullopt}, 1000),
      R"({"timestamp":"t","type":"event_msg","payload":{"type":"token_count","info":null}})",
      ResponseItemLine(0, UserItem("z"), "turn-7", "user"),
  });
  auto state = BuildResumeState(text, nullptr);
  ASSERT_TRUE(state.has_value());
  ASSERT_TRUE(state->turn_context.has_value());
  EXPECT_EQ(state->turn_context->GetString("model"), "m2");
  ASSERT_TRUE(state->token_usage.has_value());
  EXPECT_EQ(ToJson(*state->token_usage),
            R"({"last_token_usage":{"input_tokens":200,"cached_input_tokens":100,)"
            R"("output_tokens":20,"reasoning_output_tokens":0,"total_tokens":220},)"
            R"("model_context_window":1000})");
  EXPECT_EQ(state->history_size_at_token_usage, 2u);
  EXPECT_EQ(state->turn_counter, 7u);  // max(2 task_started, turn-7)
  EXPECT_EQ(state->compaction_counter, 0u);
}

TEST(ResumeState, CompactionForgetsTokenUsage) {
  std::string text = Lines({
      TokenCountLine(0, TokenUsageFields{100, 0, 10, 0, 110, std::nullopt, std::nullopt},
                     std::nullopt),
      CompactedLine(0, "", {}),
  });
  auto state = BuildResumeState(text, nullptr);
  ASSERT_TRUE(state.has_value());
  EXPECT_FALSE(state->token_usage.has_value());
}

TEST(ResumeState, ImportedItemsAreCanonicalisedAndUnsupportedDropped) {
  std::string text = Lines({
      R"({"timestamp":"t","type":"response_item","payload":{"type":"message","role":"user",)"
      R"("content":[{"type":"input_text","text":"hi"}],"extra":1}})",
      R"({"timestamp":"t","type":"response_item","payload":{"type":"ghost_snapshot"}})",
      R"({"timestamp":"t","type":"response_item","payload":{"type":"function_call",)"
      R"("name":"shell","arguments":"{}","call_id":"c1"}})",
  });
  auto state = BuildResumeState(text, nullptr);
  ASSERT_TRUE(state.has_value());
  ASSERT_EQ(state->history.size(), 2u);
  EXPECT_EQ(state->history[0].bytes, UserItem("hi"));
  EXPECT_EQ(state->history[0].origin, "user");
  EXPECT_EQ(state->history[1].origin, "model");
  ASSERT_EQ(state->warnings.size(), 1u);
  EXPECT_EQ(ToWire(state->warnings[0].code), "unsupported_item");
}

TEST(ResumeState, TornLineWarningAndCorruptError) {
  std::string good = TaskStartedLine(0, "turn-1");
  auto state = BuildResumeState(good + "\n" + good + "\n{\"timestamp\":\"2026-", nullptr);
  ASSERT_TRUE(state.has_value());
  ASSERT_EQ(state->warnings.size(), 1u);
  EXPECT_EQ(ToWire(state->warnings[0].code), "rollout_torn_line");
  auto bad = BuildResumeState(good + "\n{\n" + good + "\n", nullptr);
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().code, ErrorCode::kRolloutCorrupt);
}

TEST(ResumeState, ImportedOrigins) {
  EXPECT_EQ(ImportedItemOrigin(Json(R"({"type":"message","role":"assistant"})")), "model");
  EXPECT_EQ(ImportedItemOrigin(Json(R"({"type":"message","role":"developer"})")), "developer");
  EXPECT_EQ(ImportedItemOrigin(Json(R"({"type":"web_search_call"})")), "model");
  EXPECT_EQ(ImportedItemOrigin(Json(R"({"type":"custom_tool_call_output"})")), "tool");
  EXPECT_EQ(ImportedItemOrigin(Json(R"({"type":"compaction"})")), "compaction");
  EXPECT_EQ(ImportedItemOrigin(Json(R"({"type":"ghost_snapshot"})")), "ghost_snapshot");
}

}  // namespace
}  // namespace agentctx
