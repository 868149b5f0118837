// SPDX-License-Identifier: MIT
#include "world_state/message_kind.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "protocol/json_codec.h"

namespace agentctx {
namespace {

JsonValue Message(std::string_view role, const std::vector<std::string>& texts,
                  std::string_view part_type = "input_text") {
  JsonValue content = JsonValue::Array();
  for (const std::string& t : texts) {
    JsonValue part = JsonValue::Object();
    part.Set("type", JsonValue::String(std::string(part_type)));
    part.Set("text", JsonValue::String(t));
    content.Push(std::move(part));
  }
  JsonValue m = JsonValue::Object();
  m.Set("type", JsonValue::String("message"));
  m.Set("role", JsonValue::String(std::string(role)));
  m.Set("content", std::move(content));
  return m;
}

TEST(MessageKind, PromptsAreExact) {
  EXPECT_EQ(SummaryPrefix(),
            "Another language model started to solve this problem and produced a summary of its "
            "thinking process. You also have access to the state of the tools that were used by "
            "that language model. Use this to build on the work that has already been done and "
            "avoid duplicating work. Here is the summary produced by the other language model, "
            "use the information in this summary to assist with your own analysis:");
  EXPECT_EQ(SummarizationPrompt(),
            "You are performing a CONTEXT CHECKPOINT COMPACTION. Create a handoff summary for "
            "another LLM that will resume the task.\n\nInclude:\n- Current progress and key "
            "decisions made\n- Important context, constraints, or user preferences\n- What "
            "remains to be done (clear next steps)\n- Any critical data, examples, or references "
            "needed to continue\n\nBe concise, structured, and focused on helping the next LLM "
            "seamlessly continue the work.\n");
}

TEST(MessageKind, AgentsMdLowercaseWithLeadingSpaceIsContextual) {
  EXPECT_EQ(
      ClassifyMessage(Message(
          "user", {"  # agents.md INSTRUCTIONS for /r\n\n<instructions>\nx\n</instructions>\n"})),
      MessageKind::kContextualUser);
}

TEST(MessageKind, MixedContextAndFreeTextIsContextual) {
  EXPECT_EQ(ClassifyMessage(
                Message("user", {"hello", "<skills_instructions>\n…\n</skills_instructions>"})),
            MessageKind::kContextualUser);
  EXPECT_TRUE(IsContextualUserMessage(
      Message("user", {"<environment_context>\n  <cwd>/repo</cwd>\n</environment_context>"})));
}

TEST(MessageKind, StartMarkerWithoutEndMarkerIsReal) {
  EXPECT_EQ(ClassifyMessage(Message("user", {"# AGENTS.md instructions, please read them"})),
            MessageKind::kRealUser);
  EXPECT_TRUE(IsRealUserMessage(Message("user", {"hello"})));
}

TEST(MessageKind, SummaryNeedsPrefixAndNewline) {
  std::string prefix(SummaryPrefix());
  EXPECT_EQ(ClassifyMessage(Message("user", {prefix + "\nDONE"})), MessageKind::kSummary);
  EXPECT_EQ(ClassifyMessage(Message("user", {prefix + "DONE"})), MessageKind::kRealUser);
  EXPECT_TRUE(IsSummaryMessage(Message("user", {prefix + "\n"})));
  // Only the first input_text part counts.
  EXPECT_EQ(ClassifyMessage(Message("user", {"x", prefix + "\nDONE"})), MessageKind::kRealUser);
}

TEST(MessageKind, DeveloperContextIgnoresLeadingWhitespaceAndCase) {
  EXPECT_EQ(ClassifyMessage(Message("developer", {"\n <Permissions Instructions>…"})),
            MessageKind::kDeveloperContext);
  EXPECT_EQ(ClassifyMessage(Message("developer", {"<model_switch>\nx\n</model_switch>"})),
            MessageKind::kDeveloperContext);
  EXPECT_EQ(ClassifyMessage(Message("developer", {"<tools>\nx\n</tools>"})),
            MessageKind::kDeveloperContext);
  EXPECT_EQ(ClassifyMessage(Message("developer", {"Be terse."})), MessageKind::kDeveloper);
}

TEST(MessageKind, DeveloperMessagesAreNeverRealUser) {
  EXPECT_FALSE(IsRealUserMessage(Message("developer", {"hello"})));
  EXPECT_FALSE(IsRealUserMessage(Message("assistant", {"hello"}, "output_text")));
  EXPECT_EQ(ClassifyMessage(Message("assistant", {"hi"}, "output_text")), MessageKind::kAssistant);
  EXPECT_EQ(ClassifyMessage(Message("system", {"hi"})), MessageKind::kOther);
}

TEST(MessageKind, CaseFoldingIsAsciiOnly) {
  // U+0130 (İ) must not fold to 'i'.
  EXPECT_FALSE(IsContextualUserText("<envİronment_context>x</environment_context>"));
  EXPECT_TRUE(IsContextualUserText("<ENVIRONMENT_CONTEXT>x</Environment_Context>"));
}

TEST(MessageKind, NonMessagesAndOddShapes) {
  auto parsed = ParseJson(R"({"type":"function_call","name":"x","arguments":"{}","call_id":"c"})");
  ASSERT_TRUE(parsed.has_value());
  EXPECT_EQ(ClassifyMessage(*parsed), MessageKind::kNotMessage);
  EXPECT_EQ(ClassifyMessage(JsonValue::String("user")), MessageKind::kNotMessage);
  auto str_content = ParseJson(R"({"type":"message","role":"user","content":"hi"})");
  ASSERT_TRUE(str_content.has_value());
  EXPECT_EQ(ClassifyMessage(*str_content), MessageKind::kRealUser);
  auto no_content = ParseJson(R"({"type":"message","role":"user"})");
  ASSERT_TRUE(no_content.has_value());
  EXPECT_EQ(ClassifyMessage(*no_content), MessageKind::kRealUser);
  auto image_only = ParseJson(
      R"({"type":"message","role":"user","content":[{"type":"input_image","image_url":"x"}]})");
  ASSERT_TRUE(image_only.has_value());
  EXPECT_EQ(ClassifyMessage(*image_only), MessageKind::kRealUser);
  // A marker inside a non-input_text part does not count.
  EXPECT_EQ(ClassifyMessage(
                Message("user", {"<environment_context>x</environment_context>"}, "output_text")),
            MessageKind::kRealUser);
}

TEST(MessageKind, MatchContextualMarkerNamesTheFragment) {
  EXPECT_EQ(MatchContextualMarker(
                "# AGENTS.md instructions for /r\n\n<INSTRUCTIONS>\nx\n</INSTRUCTIONS>"),
            ContextualMarker::kAgentsMd);
  EXPECT_EQ(MatchContextualMarker(" <environment_context>\n</environment_context>\n"),
            ContextualMarker::kEnvironmentContext);
  EXPECT_EQ(MatchContextualMarker("<skills_instructions>\nx\n</skills_instructions>"),
            ContextualMarker::kSkills);
  EXPECT_EQ(MatchContextualMarker("<environment_context>x</skills_instructions>"),
            ContextualMarker::kNone);
  EXPECT_EQ(MatchContextualMarker(""), ContextualMarker::kNone);
}

TEST(MessageKind, MessageTextsKeepsOrder) {
  JsonValue m = Message("user", {"a", "b"});
  std::vector<std::string_view> texts = MessageTexts(m, "input_text");
  ASSERT_EQ(texts.size(), 2u);
  EXPECT_EQ(texts[0], "a");
  EXPECT_EQ(texts[1], "b");
  EXPECT_EQ(MessageRole(m), "user");
}

}  // namespace
}  // namespace agentctx
