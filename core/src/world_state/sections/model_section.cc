// SPDX-License-Identifier: MIT
#include "world_state/sections/model_section.h"

namespace agentctx {

std::string RenderModelSwitch(std::string_view instructions) {
  std::string text =
      "<model_switch>\nThe user was previously using a different model. Please continue the "
      "conversation according to the following instructions:\n\n";
  text.append(instructions);
  text += "\n</model_switch>";
  return text;
}

std::optional<Markers> ModelSection::markers() const { return kModelSwitchMarkers; }

JsonValue ModelSection::Snapshot(const WorldInputs& inputs) const {
  return JsonValue::String(inputs.model.slug);
}

bool ModelSection::CanRestore(const JsonValue& stored) const { return stored.is_string(); }

std::optional<Fragment> ModelSection::RenderDiff(const PreviousState& prev,
                                                 const WorldInputs& inputs) const {
  bool changed = false;
  if (prev.is_known()) {
    changed = !prev.value.is_string() || prev.value.string_value() != inputs.model.slug;
  } else {
    changed =
        inputs.previous_turn_model.has_value() && *inputs.previous_turn_model != inputs.model.slug;
  }
  if (!changed || inputs.model.instructions.empty()) return std::nullopt;
  return Fragment{Role::kDeveloper, RenderModelSwitch(inputs.model.instructions)};
}

}  // namespace agentctx
