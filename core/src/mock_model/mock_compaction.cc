// SPDX-License-Identifier: MIT
// The mock's compaction rules; see mock_compaction.h.
#include "mock_model/mock_compaction.h"

#include <string>

namespace agentctx {
namespace {

constexpr std::int64_t kAnthropicDefaultTrigger = 150000;

bool Reached(std::uint64_t prompt_tokens, std::int64_t threshold) {
  return threshold >= 0 && prompt_tokens >= static_cast<std::uint64_t>(threshold);
}

}  // namespace

MockCompactionPlan PlanResponsesCompaction(const JsonValue& body, std::uint64_t prompt_tokens) {
  MockCompactionPlan plan;
  const JsonValue* input = body.Find("input");
  if (input != nullptr && input->is_array() && !input->items().empty() &&
      input->items().back().GetString("type") == "compaction_trigger") {
    plan.compact = plan.only = true;
    return plan;
  }
  const JsonValue* management = body.Find("context_management");
  if (management == nullptr || !management->is_array()) return plan;
  for (const JsonValue& entry : management->items()) {
    if (entry.GetString("type") != "compaction") continue;
    if (auto threshold = entry.GetInt("compact_threshold")) {
      plan.compact = plan.compact || Reached(prompt_tokens, *threshold);
    }
  }
  return plan;
}

MockCompactionPlan PlanAnthropicCompaction(const JsonValue& body, std::uint64_t prompt_tokens) {
  MockCompactionPlan plan;
  if (const JsonValue* c = body.Find("compaction"); c != nullptr && c->is_object()) {
    plan.compact = plan.only = true;
    return plan;
  }
  const JsonValue* management = body.Find("context_management");
  const JsonValue* edits = management != nullptr ? management->Find("edits") : nullptr;
  if (edits == nullptr || !edits->is_array()) return plan;
  for (const JsonValue& edit : edits->items()) {
    if (edit.GetString("type") != "compact_20260112") continue;
    std::int64_t threshold = kAnthropicDefaultTrigger;
    if (const JsonValue* trigger = edit.Find("trigger")) {
      threshold = trigger->GetInt("value").value_or(threshold);
    }
    if (Reached(prompt_tokens, threshold)) {
      plan.compact = true;
      plan.only = edit.GetBool("pause_after_compaction").value_or(false);
    }
  }
  return plan;
}

JsonValue MockCompactionItem(std::string_view h, bool anthropic, std::size_t items) {
  JsonValue item = JsonValue::Object();
  item.Set("type", JsonValue::String("compaction"));
  if (anthropic) {
    item.Set("content",
             JsonValue::String("MOCK COMPACTION of " + std::to_string(items) + " items."));
  } else {
    item.Set("id", JsonValue::String("cmp_" + std::string(h.substr(0, 12))));
  }
  item.Set("encrypted_content", JsonValue::String("mockcmp_" + std::string(h)));
  return item;
}

}  // namespace agentctx
