// SPDX-License-Identifier: MIT
// World-state section `model`: developer role, markers
// `<model_switch>`/`</model_switch>`, snapshot value = the model slug.
// Rule: changed if Known slug ≠ current slug, or (Absent/Unknown and the previous turn's model is
// known and differs). Renders only if changed and the new `model.instructions` is non-empty.
#pragma once

#include <string>
#include <string_view>

#include "world_state/section.h"

namespace agentctx {

/// This fragment's markers (the only place they are written).
inline constexpr Markers kModelSwitchMarkers{"<model_switch>", "</model_switch>"};

inline constexpr std::string_view kModelSectionId = "model";

/// `<model_switch>\nThe user was previously using a different model. Please continue the
/// conversation according to the following instructions:\n\n` + instructions + `\n</model_switch>`.
std::string RenderModelSwitch(std::string_view instructions);

class ModelSection : public WorldStateSection {
 public:
  std::string_view id() const override { return kModelSectionId; }
  Role role() const override { return Role::kDeveloper; }
  std::optional<Markers> markers() const override;
  JsonValue Snapshot(const WorldInputs& inputs) const override;
  bool CanRestore(const JsonValue& stored) const override;
  std::optional<Fragment> RenderDiff(const PreviousState& prev,
                                     const WorldInputs& inputs) const override;
};

}  // namespace agentctx
