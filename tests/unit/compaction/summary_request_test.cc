// SPDX-License-Identifier: MIT
// Local compaction: the summarization message and the summary read back.
#include "compaction/summary_request.h"

#include <gtest/gtest.h>

#include "protocol/json_codec.h"
#include "world_state/message_kind.h"

namespace agentctx {
namespace {

TEST(SummaryRequest, DefaultPromptIsTheSummarizationPrompt) {
  JsonValue m = SummarizationMessage(std::nullopt);
  EXPECT_EQ(MessageRole(m), "user");
  ASSERT_EQ(MessageTexts(m, "input_text").size(), 1u);
  EXPECT_EQ(MessageTexts(m, "input_text")[0], SummarizationPrompt());
  EXPECT_TRUE(SummarizationPrompt().starts_with(
      "You are performing a CONTEXT CHECKPOINT COMPACTION. Create a handoff summary"));
  EXPECT_TRUE(SummarizationPrompt().ends_with("continue the work.\n"));
  JsonValue custom = SummarizationMessage(std::string("Summarize briefly."));
  EXPECT_EQ(
      ToJson(custom),
      R"({"type":"message","role":"user","content":[{"type":"input_text","text":"Summarize briefly."}]})");
}

TEST(SummaryRequest, LastAssistantMessageIsTheSummary) {
  std::vector<JsonValue> output = {
      *ParseJson(
          R"({"type":"message","role":"assistant","content":[{"type":"output_text","text":"first"}]})"),
      *ParseJson(R"({"type":"reasoning","summary":[]})"),
      *ParseJson(
          R"({"type":"message","role":"assistant","content":[{"type":"output_text","text":"AUTO_"},{"type":"output_text","text":"SUMMARY"}]})"),
      *ParseJson(R"({"type":"function_call","name":"f","arguments":"{}","call_id":"c"})"),
  };
  EXPECT_EQ(LastAssistantText(output), "AUTO_SUMMARY");
  EXPECT_EQ(LastAssistantText({}), "");
}

TEST(SummaryRequest, SummaryText) {
  EXPECT_EQ(SummaryTextFor("DONE"), std::string(SummaryPrefix()) + "\nDONE");
  EXPECT_TRUE(IsSummaryText(SummaryTextFor("DONE")));
  EXPECT_EQ(SummaryTextFor(""), std::string(SummaryPrefix()) + "\n(no summary available)");
}

}  // namespace
}  // namespace agentctx
