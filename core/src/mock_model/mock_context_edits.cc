// SPDX-License-Identifier: MIT
// The mock's context editing; see mock_context_edits.h.
#include "mock_model/mock_context_edits.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "protocol/json_fields.h"

namespace agentctx {
namespace {

constexpr std::int64_t kDefaultTriggerTokens = 100000;
constexpr std::int64_t kDefaultKeep = 3;

const JsonValue* ClearToolUsesEdit(const JsonValue& body) {
  if (body.Find("compaction") != nullptr) return nullptr;
  const JsonValue* management = body.Find("context_management");
  const JsonValue* edits = management != nullptr ? management->Find("edits") : nullptr;
  if (edits == nullptr || !edits->is_array()) return nullptr;
  for (const JsonValue& edit : edits->items()) {
    if (edit.is_object() && edit.GetString("type") == "clear_tool_uses_20250919") return &edit;
  }
  return nullptr;
}

bool Names(const JsonValue* list, std::string_view name) {
  if (list == nullptr || !list->is_array()) return false;
  for (const JsonValue& n : list->items()) {
    if (n.is_string() && n.string_value() == name) return true;
  }
  return false;
}

std::int64_t ValueOr(const JsonValue& edit, std::string_view key, std::int64_t fallback) {
  const JsonValue* v = edit.Find(key);
  return v != nullptr && v->is_object() ? v->GetInt("value").value_or(fallback) : fallback;
}

}  // namespace

std::optional<MockToolClearing> ApplyMockContextEdits(JsonValue* body,
                                                      std::uint64_t prompt_tokens) {
  const JsonValue* found = ClearToolUsesEdit(*body);
  if (found == nullptr) return std::nullopt;
  const JsonValue edit = *found;  // the body is edited below
  JsonValue* messages = body->Find("messages");
  if (messages == nullptr || !messages->is_array()) return std::nullopt;
  // The tool uses (name and block) by id, and the results in order.
  std::map<std::string, JsonValue*, std::less<>> uses;
  std::vector<JsonValue*> results;
  for (JsonValue& m : messages->items()) {
    JsonValue* content = m.is_object() ? m.Find("content") : nullptr;
    if (content == nullptr || !content->is_array()) continue;
    for (JsonValue& block : content->items()) {
      if (!block.is_object()) continue;
      std::string_view type = block.GetString("type").value_or("");
      if (type == "tool_use") uses[std::string(block.GetString("id").value_or(""))] = &block;
      if (type == "tool_result") results.push_back(&block);
    }
  }
  // Rule 1.
  const JsonValue* trigger = edit.Find("trigger");
  const bool by_uses =
      trigger != nullptr && trigger->is_object() && trigger->GetString("type") == "tool_uses";
  const std::int64_t threshold = ValueOr(edit, "trigger", kDefaultTriggerTokens);
  const std::uint64_t measured = by_uses ? uses.size() : prompt_tokens;
  if (threshold < 0 || measured < static_cast<std::uint64_t>(threshold)) return std::nullopt;
  // Rule 2.
  std::vector<std::pair<JsonValue*, JsonValue*>> candidates;  // (result, its use or null)
  for (JsonValue* result : results) {
    auto use = uses.find(result->GetString("tool_use_id").value_or(""));
    JsonValue* tool_use = use != uses.end() ? use->second : nullptr;
    std::string_view name = tool_use != nullptr ? tool_use->GetString("name").value_or("") : "";
    if (tool_use != nullptr && Names(edit.Find("exclude_tools"), name)) continue;
    candidates.emplace_back(result, tool_use);
  }
  const std::int64_t keep = std::max<std::int64_t>(0, ValueOr(edit, "keep", kDefaultKeep));
  if (static_cast<std::int64_t>(candidates.size()) <= keep) return std::nullopt;
  candidates.resize(candidates.size() - static_cast<std::size_t>(keep));
  const JsonValue* inputs = edit.Find("clear_tool_inputs");
  const JsonValue placeholder = JsonValue::String(std::string(kMockClearedResult));
  const JsonValue no_input = JsonValue::Object();
  // Rule 3: measure first, then edit.
  std::uint64_t removed = 0;
  auto saving = [](const JsonValue* now, const JsonValue& after) -> std::uint64_t {
    std::size_t before = now != nullptr ? ToJson(*now).size() : 0;
    std::size_t size = ToJson(after).size();
    return before > size ? before - size : 0;
  };
  auto clears_input = [&](const JsonValue* use) {
    if (use == nullptr || inputs == nullptr) return false;
    return inputs->is_bool() ? inputs->bool_value()
                             : Names(inputs, use->GetString("name").value_or(""));
  };
  for (const auto& [result, use] : candidates) {
    removed += saving(result->Find("content"), placeholder);
    if (clears_input(use)) removed += saving(use->Find("input"), no_input);
  }
  MockToolClearing out;
  out.cleared_tool_uses = candidates.size();
  out.cleared_input_tokens = removed / 4;
  const JsonValue* at_least = edit.Find("clear_at_least");
  if (at_least != nullptr && at_least->is_object() &&
      static_cast<std::int64_t>(out.cleared_input_tokens) < at_least->GetInt("value").value_or(0)) {
    return std::nullopt;
  }
  for (const auto& [result, use] : candidates) {
    result->Set("content", placeholder);
    if (clears_input(use)) use->Set("input", no_input);
  }
  return out;
}

JsonValue MockContextManagement(const MockToolClearing& cleared) {
  JsonValue edit = JsonValue::Object();
  SetString(&edit, "type", "clear_tool_uses_20250919");
  SetInt(&edit, "cleared_tool_uses", static_cast<std::int64_t>(cleared.cleared_tool_uses));
  SetInt(&edit, "cleared_input_tokens", static_cast<std::int64_t>(cleared.cleared_input_tokens));
  JsonValue applied = JsonValue::Array();
  applied.Push(std::move(edit));
  JsonValue out = JsonValue::Object();
  out.Set("applied_edits", std::move(applied));
  return out;
}

}  // namespace agentctx
