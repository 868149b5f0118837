// SPDX-License-Identifier: MIT
// World-state section `context_budget`; see context_budget_section.h.
#include "world_state/sections/context_budget_section.h"

namespace agentctx {

std::uint64_t ContextBudgetBand(const ContextBudgetInputs& budget) {
  if (budget.window == 0) return 0;
  std::uint64_t band = budget.used * 10 / budget.window;
  return band > 10 ? 10 : band;
}

std::string RenderContextBudget(const ContextBudgetInputs& budget) {
  const std::uint64_t percent = budget.window == 0 ? 0 : budget.used * 100 / budget.window;
  return "<context_budget>\nContext in use: " + std::to_string(budget.used) + " of " +
         std::to_string(budget.window) + " tokens (" + std::to_string(percent) +
         "%). Automatic compaction at " + std::to_string(budget.auto_limit) +
         " tokens.\n</context_budget>";
}

std::optional<Markers> ContextBudgetSection::markers() const { return kContextBudgetMarkers; }

JsonValue ContextBudgetSection::Snapshot(const WorldInputs& inputs) const {
  if (!inputs.context_budget.has_value()) return JsonValue();
  const ContextBudgetInputs& b = *inputs.context_budget;
  JsonValue v = JsonValue::Object();
  v.Set("band", JsonValue::Int(static_cast<std::int64_t>(ContextBudgetBand(b))));
  v.Set("used", JsonValue::Int(static_cast<std::int64_t>(b.used)));
  v.Set("window", JsonValue::Int(static_cast<std::int64_t>(b.window)));
  v.Set("auto_compact_at", JsonValue::Int(static_cast<std::int64_t>(b.auto_limit)));
  return v;
}

bool ContextBudgetSection::CanRestore(const JsonValue& stored) const {
  if (!stored.is_object()) return false;
  std::optional<std::int64_t> band = stored.GetInt("band");
  return band.has_value() && *band >= 0;
}

std::optional<Fragment> ContextBudgetSection::RenderDiff(const PreviousState& prev,
                                                         const WorldInputs& inputs) const {
  if (!inputs.context_budget.has_value()) return std::nullopt;
  const std::uint64_t band = ContextBudgetBand(*inputs.context_budget);
  if (prev.is_known()) {
    if (prev.value.GetInt("band") == static_cast<std::int64_t>(band)) return std::nullopt;
  } else if (band == 0) {
    return std::nullopt;  // nothing worth saying below 10 %
  }
  return Fragment{Role::kDeveloper, RenderContextBudget(*inputs.context_budget)};
}

}  // namespace agentctx
