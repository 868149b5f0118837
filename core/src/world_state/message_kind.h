// SPDX-License-Identifier: MIT
// Message classification: contextual user messages, developer context, summary
// messages and real user messages, decided from a message item's JsonValue.
// Invariants:
//  - Pure functions of the item; case folding is ASCII-only; markers are matched on the
//    trimmed (Unicode White_Space) text of each `input_text` part.
//  - A message mixing context and free text is contextual; developer messages are never real
//    user messages; a summary is a user message whose first `input_text` starts with
//    SUMMARY_PREFIX + "\n" (exact, case-sensitive).
//  - Items are `{"type":"message","role",...}`; a string `content` counts as one text part.
// Algorithm (ClassifyMessage):
//  1. Not a message → kNotMessage. Role developer → kDeveloperContext if some `input_text`
//     part starts (after leading whitespace) with `<permissions instructions>`, `<model_switch>`
//     or `<tools>`, else kDeveloper. Role assistant → kAssistant; other roles → kOther.
//  2. Role user: some `input_text` part, trimmed, starts and ends with one of the contextual
//     marker pairs → kContextualUser; else first `input_text` starts with SUMMARY_PREFIX + "\n"
//     → kSummary; else kRealUser.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "protocol/json_value.h"

namespace agentctx {

enum class MessageKind {
  kNotMessage,        // not a `message` item
  kContextualUser,    // user message carrying injected context (AGENTS.md, env, skills)
  kSummary,           // user message holding a compaction summary
  kRealUser,          // user message typed by the user
  kDeveloperContext,  // developer message with a known context marker
  kDeveloper,         // any other developer message (e.g. developer_instructions)
  kAssistant,         // assistant message
  kOther,             // message with another role (e.g. system)
};

/// SUMMARY_PREFIX, upstream's opening of a compaction summary message (no trailing LF).
std::string_view SummaryPrefix();
/// SUMMARIZATION_PROMPT, upstream's default local-compaction prompt (ends with one LF).
std::string_view SummarizationPrompt();

/// The contextual fragment a text part is, by its marker pair (the sections' markers).
enum class ContextualMarker { kNone, kAgentsMd, kEnvironmentContext, kSkills };
/// Which marker pair `text`, trimmed, starts and ends with (ASCII case-insensitive).
ContextualMarker MatchContextualMarker(std::string_view text);
/// True if `text`, trimmed, starts and ends with one of the contextual marker pairs.
inline bool IsContextualUserText(std::string_view text) {
  return MatchContextualMarker(text) != ContextualMarker::kNone;
}
/// True if `text`, after leading whitespace, starts with a developer context marker.
bool IsDeveloperContextText(std::string_view text);
/// True if `text` starts with SUMMARY_PREFIX + "\n".
bool IsSummaryText(std::string_view text);

/// The item's role, or "" when it is not a message.
std::string_view MessageRole(const JsonValue& item);
/// The texts of the message's parts of type `part_type` (e.g. "input_text"), in order. A string
/// `content` is returned as one text for any part type.
std::vector<std::string_view> MessageTexts(const JsonValue& item, std::string_view part_type);

/// Classifies one item (the algorithm above).
MessageKind ClassifyMessage(const JsonValue& item);
inline bool IsRealUserMessage(const JsonValue& item) {
  return ClassifyMessage(item) == MessageKind::kRealUser;
}
inline bool IsContextualUserMessage(const JsonValue& item) {
  return ClassifyMessage(item) == MessageKind::kContextualUser;
}
inline bool IsSummaryMessage(const JsonValue& item) {
  return ClassifyMessage(item) == MessageKind::kSummary;
}

}  // namespace agentctx
