// SPDX-License-Identifier: MIT
// World-state section `context_budget` (ours; docs/context-budget.md): developer role, markers
// `<context_budget>`/`</context_budget>`, snapshot value `{"band","used","window",
// "auto_compact_at"}` with band = min(10, floor(10·used/window)), absent unless enabled.
// The session computes the value once per turn, at its start, so it can only change there.
// Rule: render when prev is Absent or Unknown and band ≥ 1, or when the band differs from a
// Known one (a new 10 % band was crossed since the block was last shown, up or down).
// Text: `<context_budget>\nContext in use: <used> of <window> tokens (<p>%). Automatic
// compaction at <auto_compact_at> tokens.\n</context_budget>`, p = floor(100·used/window).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "world_state/section.h"

namespace agentctx {

/// This fragment's markers (the only place they are written).
inline constexpr Markers kContextBudgetMarkers{"<context_budget>", "</context_budget>"};

inline constexpr std::string_view kContextBudgetSectionId = "context_budget";

/// min(10, floor(10·used/window)); 0 for a zero window.
std::uint64_t ContextBudgetBand(const ContextBudgetInputs& budget);

/// The whole `<context_budget>` block.
std::string RenderContextBudget(const ContextBudgetInputs& budget);

class ContextBudgetSection : public WorldStateSection {
 public:
  std::string_view id() const override { return kContextBudgetSectionId; }
  Role role() const override { return Role::kDeveloper; }
  std::optional<Markers> markers() const override;
  JsonValue Snapshot(const WorldInputs& inputs) const override;
  bool CanRestore(const JsonValue& stored) const override;
  std::optional<Fragment> RenderDiff(const PreviousState& prev,
                                     const WorldInputs& inputs) const override;
};

}  // namespace agentctx
