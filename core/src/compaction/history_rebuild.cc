// SPDX-License-Identifier: MIT
// New history after a local compaction; see history_rebuild.h.
#include "compaction/history_rebuild.h"

#include <algorithm>

#include "compaction/token_accounting.h"
#include "support/truncate.h"
#include "world_state/message_kind.h"

namespace agentctx {

std::vector<std::string> CollectRealUserTexts(const std::vector<RecordedItem>& history) {
  std::vector<std::string> out;
  for (const RecordedItem& item : history) {
    if (!IsRealUserMessage(item.json)) continue;
    std::string text;
    bool first = true;
    for (std::string_view part : MessageTexts(item.json, "input_text")) {
      if (!first) text.push_back('\n');
      first = false;
      text.append(part);
    }
    out.push_back(std::move(text));
  }
  return out;
}

std::vector<std::string> SelectUserTexts(const std::vector<std::string>& texts,
                                         std::uint64_t max_tokens) {
  std::vector<std::string> selected;
  std::uint64_t remaining = max_tokens;
  for (std::size_t i = texts.size(); i > 0; --i) {
    if (remaining == 0) break;
    const std::string& text = texts[i - 1];
    std::uint64_t tokens = TokensForBytes(text.size());
    if (tokens <= remaining) {
      selected.push_back(text);
      remaining -= tokens;
    } else {
      selected.push_back(TruncateMiddle(text, remaining * 4, TruncationMode::kTokens));
      break;
    }
  }
  std::reverse(selected.begin(), selected.end());
  return selected;
}

std::vector<JsonValue> BuildCompactedHistory(const std::vector<RecordedItem>& history,
                                             std::string_view summary_text) {
  std::vector<JsonValue> out;
  for (std::string& text :
       SelectUserTexts(CollectRealUserTexts(history), kCompactUserMessageMaxTokens)) {
    out.push_back(InputMessage("user", {std::move(text)}));
  }
  std::string summary(summary_text.empty() ? kNoSummaryAvailable : summary_text);
  out.push_back(InputMessage("user", {std::move(summary)}));
  return out;
}

std::vector<RecordedItem> RebuildCompactedHistory(const std::vector<RecordedItem>& history,
                                                  std::string_view message) {
  std::string turn_id = history.empty() ? std::string() : history.back().turn_id;
  std::vector<RecordedItem> out;
  for (JsonValue& item : BuildCompactedHistory(history, message)) {
    out.push_back(MakeRecordedItem(std::move(item), turn_id, "compaction"));
  }
  return out;
}

}  // namespace agentctx
