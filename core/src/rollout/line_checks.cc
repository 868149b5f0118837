// SPDX-License-Identifier: MIT
// Rollout line checks during resume; see line_checks.h.
#include "rollout/line_checks.h"

#include <string_view>

#include "rollout/timestamp.h"

namespace agentctx {

namespace {

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

}  // namespace

std::vector<std::string> ItemKeys(const JsonValue& item) {
  std::vector<std::string> keys;
  std::string_view type = ItemType(item);
  std::string_view call_id = item.GetString("call_id").value_or("");
  if (!call_id.empty()) {
    if (EndsWith(type, "_call")) {
      keys.push_back("call " + std::string(type) + " " + std::string(call_id));
    }
    if (EndsWith(type, "_output")) {
      keys.push_back("output " + std::string(type) + " " + std::string(call_id));
    }
  }
  std::string_view id = item.GetString("id").value_or("");
  if (!id.empty()) keys.push_back("id " + std::string(id));
  return keys;
}

bool RolloutLineChecks::IsDuplicate(const JsonValue& item, std::uint64_t line_number,
                                    std::vector<Warning>* warnings) {
  std::vector<std::string> keys = ItemKeys(item);
  for (const std::string& key : keys) {
    auto it = seen_.find(key);
    if (it == seen_.end()) continue;
    std::string original = it->second == 0 ? std::string("the compacted history")
                                           : "line " + std::to_string(it->second);
    warnings->push_back(Warning{WarningCode::kRolloutDuplicateItem,
                                "skipped rollout line " + std::to_string(line_number) +
                                    ": duplicate of " + original + " (" + key + ")"});
    return true;
  }
  for (std::string& key : keys) seen_.emplace(std::move(key), line_number);
  std::string call_id(item.GetString("call_id").value_or(""));
  if (!call_id.empty()) {
    std::string_view type = ItemType(item);
    if (EndsWith(type, "_output")) {
      outputs_.emplace(std::move(call_id), line_number);
    } else if (EndsWith(type, "_call")) {
      auto answered = outputs_.find(call_id);
      if (answered != outputs_.end()) NoteLate(line_number, answered->second);
    }
  }
  return false;
}

void RolloutLineChecks::NoteLate(std::uint64_t line_number, std::uint64_t newer_line) {
  if (first_late_line_ == 0) {
    first_late_line_ = line_number;
    first_late_newer_ = newer_line;
  }
  ++late_lines_;
}

void RolloutLineChecks::ResetTo(const JsonValue* replacement,
                                const std::vector<RecordedItem>& history) {
  seen_.clear();
  outputs_.clear();
  if (replacement != nullptr && replacement->is_array()) {
    for (const JsonValue& raw : replacement->items()) {
      for (std::string& key : ItemKeys(raw)) seen_.emplace(std::move(key), 0);
    }
    return;
  }
  for (const RecordedItem& item : history) {
    for (std::string& key : ItemKeys(item.json)) seen_.emplace(std::move(key), 0);
  }
}

void RolloutLineChecks::NoteTimestamp(const JsonValue& line, std::uint64_t line_number) {
  std::optional<std::string_view> text = line.GetString("timestamp");
  if (!text.has_value()) return;
  std::optional<std::int64_t> ms = ParseTimestamp(*text);
  if (!ms.has_value()) return;
  if (newest_ms_.has_value() && *ms < *newest_ms_) {
    NoteLate(line_number, newest_line_);
    return;
  }
  newest_ms_ = ms;
  newest_line_ = line_number;
}

void RolloutLineChecks::Finish(std::vector<Warning>* warnings) const {
  if (late_lines_ == 0) return;
  warnings->push_back(Warning{
      WarningCode::kRolloutOutOfOrder,
      "rollout lines out of order: line " + std::to_string(first_late_line_) +
          " is older than line " + std::to_string(first_late_newer_) + " (" +
          std::to_string(late_lines_) + (late_lines_ == 1 ? " line in all)" : " lines in all)")});
}

}  // namespace agentctx
