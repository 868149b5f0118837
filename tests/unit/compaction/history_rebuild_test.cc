// SPDX-License-Identifier: MIT
// The new history after a local compaction (compaction/history_rebuild.h).
#include "compaction/history_rebuild.h"

#include <gtest/gtest.h>

#include "compaction/summary_request.h"
#include "protocol/json_codec.h"
#include "world_state/message_kind.h"

namespace agentctx {
namespace {

RecordedItem User(const std::string& text) {
  return MakeRecordedItem(InputMessage("user", {text}), "turn-1", "user");
}

RecordedItem Raw(const std::string& json, const std::string& origin = "model") {
  return MakeRecordedItem(*ParseJson(json), "turn-1", origin);
}

std::string TextOf(const JsonValue& message) {
  auto texts = MessageTexts(message, "input_text");
  EXPECT_EQ(texts.size(), 1u);
  return texts.empty() ? std::string() : std::string(texts[0]);
}

TEST(HistoryRebuild, ManualLocalVector) {
  std::vector<RecordedItem> history = {
      Raw(R"({"type":"message","role":"developer","content":[{"type":"input_text","text":"<permissions instructions>\nx\n</permissions instructions>"}]})",
          "permissions"),
      Raw(R"({"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>\n  <cwd>/repo</cwd>\n</environment_context>"}]})",
          "environment"),
      User("first manual turn"),
      Raw(R"({"type":"message","role":"assistant","content":[{"type":"output_text","text":"ok"}]})"),
  };
  std::string summary = SummaryTextFor("FIRST_MANUAL_SUMMARY");
  std::vector<JsonValue> out = BuildCompactedHistory(history, summary);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(
      ToJson(out[0]),
      R"({"type":"message","role":"user","content":[{"type":"input_text","text":"first manual turn"}]})");
  EXPECT_EQ(TextOf(out[1]), std::string(SummaryPrefix()) + "\nFIRST_MANUAL_SUMMARY");
  EXPECT_TRUE(IsSummaryMessage(out[1]));
}

TEST(HistoryRebuild, NewestUserMessagesUnderTheBudgetWithTheCrossingOneCut) {
  // 10000, 8000 and 5000 tokens, oldest first.
  std::vector<RecordedItem> history = {User(std::string(40000, 'a')), User(std::string(32000, 'b')),
                                       User(std::string(20000, 'c'))};
  std::vector<JsonValue> out = BuildCompactedHistory(history, SummaryTextFor("S"));
  ASSERT_EQ(out.size(), 4u);
  EXPECT_TRUE(TextOf(out[0]) == std::string(14000, 'a') +
                                    "\xE2\x80\xA6"
                                    "3000 tokens truncated\xE2\x80\xA6" +
                                    std::string(14000, 'a'));
  EXPECT_TRUE(TextOf(out[1]) == std::string(32000, 'b'));
  EXPECT_TRUE(TextOf(out[2]) == std::string(20000, 'c'));
  EXPECT_TRUE(IsSummaryMessage(out[3]));
}

TEST(HistoryRebuild, OlderMessagesBeyondTheBudgetAreDropped) {
  std::vector<std::string> texts = {"old", std::string(80000, 'x'), "new"};
  std::vector<std::string> kept = SelectUserTexts(texts, kCompactUserMessageMaxTokens);
  ASSERT_EQ(kept.size(), 2u);
  EXPECT_EQ(kept[1], "new");
  // 19999 tokens left = 79996 bytes: 39998 + 39998 kept, 4 bytes (1 token) cut.
  EXPECT_TRUE(kept[0] == std::string(39998, 'x') +
                             "\xE2\x80\xA6"
                             "1 tokens truncated\xE2\x80\xA6" +
                             std::string(39998, 'x'));
  // Exactly at the budget: kept whole, and the walk stops there (remaining 0).
  kept = SelectUserTexts({"older", std::string(80000, 'y')}, kCompactUserMessageMaxTokens);
  ASSERT_EQ(kept.size(), 1u);
  EXPECT_EQ(kept[0].size(), 80000u);
  EXPECT_TRUE(SelectUserTexts({"a"}, 0).empty());
}

TEST(HistoryRebuild, OnlyRealUserMessagesPartsJoinedImagesDropped) {
  std::vector<RecordedItem> history = {
      Raw(R"({"type":"message","role":"user","content":[{"type":"input_text","text":"# AGENTS.md instructions for /r\n\n<INSTRUCTIONS>\nx\n</INSTRUCTIONS>"}]})",
          "agents_md"),
      Raw(R"({"type":"message","role":"user","content":[{"type":"input_text","text":")" +
          std::string(SummaryPrefix()) + R"(\nold summary"}]})"),
      Raw(R"({"type":"message","role":"user","content":[{"type":"input_text","text":"one"},{"type":"input_image","image_url":"data:image/png;base64,AA"},{"type":"input_text","text":"two"}]})",
          "user"),
      Raw(R"({"type":"function_call","name":"read_file","arguments":"{}","call_id":"c1"})"),
      Raw(R"({"type":"function_call_output","call_id":"c1","output":"L1: x"})", "tool"),
  };
  std::vector<std::string> texts = CollectRealUserTexts(history);
  ASSERT_EQ(texts.size(), 1u);
  EXPECT_EQ(texts[0], "one\ntwo");
  std::vector<JsonValue> out = BuildCompactedHistory(history, SummaryTextFor("new"));
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(TextOf(out[0]), "one\ntwo");
}

TEST(HistoryRebuild, EmptyMessageBecomesNoSummaryAvailable) {
  std::vector<JsonValue> out = BuildCompactedHistory({}, "");
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(TextOf(out[0]), "(no summary available)");
}

TEST(HistoryRebuild, ResumeRebuilderUsesTheMessageVerbatim) {
  std::vector<RecordedItem> history = {User("task one"), User("task two")};
  std::vector<RecordedItem> out = RebuildCompactedHistory(history, "imported summary");
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(
      out[2].bytes,
      R"({"type":"message","role":"user","content":[{"type":"input_text","text":"imported summary"}]})");
  EXPECT_EQ(out[0].origin, "compaction");
  EXPECT_EQ(out[0].bytes, history[0].bytes);
}

}  // namespace
}  // namespace agentctx
