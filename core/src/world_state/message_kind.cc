// SPDX-License-Identifier: MIT
// Message classification; see message_kind.h.
#include "world_state/message_kind.h"

#include <optional>
#include <string_view>

#include "support/text.h"
#include "support/utf8.h"
#include "world_state/sections/agents_md_section.h"
#include "world_state/sections/environment_section.h"
#include "world_state/sections/model_section.h"
#include "world_state/sections/permissions_section.h"
#include "world_state/sections/skills_section.h"
#include "world_state/sections/tools_section.h"

namespace agentctx {

#include "agentctx/prompts.inc"

namespace {

struct MarkerPair {
  ContextualMarker marker;
  std::string_view start;
  std::string_view end;
};

// The markers come from the sections that render the fragments (one definition each).
constexpr MarkerPair kContextualMarkers[] = {
    {ContextualMarker::kAgentsMd, kAgentsMdMarkers.start, kAgentsMdMarkers.end},
    {ContextualMarker::kEnvironmentContext, kEnvironmentContextMarkers.start,
     kEnvironmentContextMarkers.end},
    {ContextualMarker::kSkills, kSkillsMarkers.start, kSkillsMarkers.end},
};

constexpr std::string_view kDeveloperContextPrefixes[] = {
    kPermissionsMarkers.start,
    kModelSwitchMarkers.start,
    kToolsMarkers.start,
};

bool EndsWithIgnoreAsciiCase(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         EqualsIgnoreAsciiCase(s.substr(s.size() - suffix.size()), suffix);
}

}  // namespace

std::string_view SummaryPrefix() { return kSUMMARY_PREFIX; }
std::string_view SummarizationPrompt() { return kSUMMARIZATION_PROMPT; }

ContextualMarker MatchContextualMarker(std::string_view text) {
  std::string_view trimmed = TrimUnicode(text);
  for (const MarkerPair& m : kContextualMarkers) {
    if (StartsWithIgnoreAsciiCase(trimmed, m.start) && EndsWithIgnoreAsciiCase(trimmed, m.end)) {
      return m.marker;
    }
  }
  return ContextualMarker::kNone;
}

bool IsDeveloperContextText(std::string_view text) {
  std::string_view trimmed = TrimUnicode(text);
  for (std::string_view prefix : kDeveloperContextPrefixes) {
    if (StartsWithIgnoreAsciiCase(trimmed, prefix)) return true;
  }
  return false;
}

bool IsSummaryText(std::string_view text) {
  return text.size() > kSUMMARY_PREFIX.size() &&
         text.substr(0, kSUMMARY_PREFIX.size()) == kSUMMARY_PREFIX &&
         text[kSUMMARY_PREFIX.size()] == '\n';
}

std::string_view MessageRole(const JsonValue& item) {
  if (!item.is_object()) return {};
  std::optional<std::string_view> type = item.GetString("type");
  if (type.has_value() && *type != "message") return {};
  if (!type.has_value() && item.Find("type") != nullptr) return {};
  return item.GetString("role").value_or(std::string_view());
}

std::vector<std::string_view> MessageTexts(const JsonValue& item, std::string_view part_type) {
  std::vector<std::string_view> out;
  const JsonValue* content = item.is_object() ? item.Find("content") : nullptr;
  if (content == nullptr) return out;
  if (content->is_string()) {
    out.push_back(content->string_value());
    return out;
  }
  if (!content->is_array()) return out;
  for (const JsonValue& part : content->items()) {
    if (!part.is_object() || part.GetString("type") != part_type) continue;
    std::optional<std::string_view> text = part.GetString("text");
    if (text.has_value()) out.push_back(*text);
  }
  return out;
}

MessageKind ClassifyMessage(const JsonValue& item) {
  std::string_view role = MessageRole(item);
  if (role.empty()) return MessageKind::kNotMessage;
  if (role == "assistant") return MessageKind::kAssistant;
  std::vector<std::string_view> texts = MessageTexts(item, "input_text");
  if (role == "developer") {
    for (std::string_view t : texts) {
      if (IsDeveloperContextText(t)) return MessageKind::kDeveloperContext;
    }
    return MessageKind::kDeveloper;
  }
  if (role != "user") return MessageKind::kOther;
  for (std::string_view t : texts) {
    if (IsContextualUserText(t)) return MessageKind::kContextualUser;
  }
  if (!texts.empty() && IsSummaryText(texts.front())) return MessageKind::kSummary;
  return MessageKind::kRealUser;
}

}  // namespace agentctx
