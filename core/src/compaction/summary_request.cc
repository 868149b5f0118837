// SPDX-License-Identifier: MIT
// Summarization message and summary text; see summary_request.h.
#include "compaction/summary_request.h"

#include "compaction/history_rebuild.h"
#include "protocol/items.h"
#include "world_state/message_kind.h"

namespace agentctx {

JsonValue SummarizationMessage(const std::optional<std::string>& custom_prompt) {
  std::string text = custom_prompt ? *custom_prompt : std::string(SummarizationPrompt());
  return InputMessage("user", {std::move(text)});
}

std::string LastAssistantText(const std::vector<JsonValue>& output) {
  for (std::size_t i = output.size(); i > 0; --i) {
    if (MessageRole(output[i - 1]) != "assistant") continue;
    std::string text;
    for (std::string_view part : MessageTexts(output[i - 1], "output_text")) text.append(part);
    return text;
  }
  return std::string();
}

std::string SummaryTextFor(std::string_view summary) {
  std::string out(SummaryPrefix());
  out.push_back('\n');
  out.append(summary.empty() ? kNoSummaryAvailable : summary);
  return out;
}

}  // namespace agentctx
