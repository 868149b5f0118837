// SPDX-License-Identifier: MIT
#include "world_state/sections/developer_instructions_section.h"

#include "world_state/world_state_hash.h"

namespace agentctx {
namespace {

const std::string* CurrentText(const WorldInputs& inputs) {
  const auto& text = inputs.developer_instructions;
  return (text.has_value() && !text->empty()) ? &*text : nullptr;
}

}  // namespace

JsonValue DeveloperInstructionsSection::Snapshot(const WorldInputs& inputs) const {
  const std::string* text = CurrentText(inputs);
  if (text == nullptr) return JsonValue();
  JsonValue v = JsonValue::Object();
  v.Set("instructions", JsonValue::String(WorldStateHash(Role::kDeveloper, *text)));
  return v;
}

bool DeveloperInstructionsSection::CanRestore(const JsonValue& stored) const {
  return stored.is_object() && stored.GetString("instructions").has_value();
}

std::optional<Fragment> DeveloperInstructionsSection::RenderDiff(const PreviousState& prev,
                                                                 const WorldInputs& inputs) const {
  const std::string* text = CurrentText(inputs);
  if (!prev.is_known()) {
    if (text == nullptr) return std::nullopt;
    return Fragment{Role::kDeveloper, *text};
  }
  if (text == nullptr) {
    return Fragment{Role::kDeveloper, std::string(kDeveloperInstructionsRemovalNotice)};
  }
  auto stored = prev.value.GetString("instructions");
  if (stored && *stored == WorldStateHash(Role::kDeveloper, *text)) return std::nullopt;
  std::string body(kDeveloperInstructionsReplacementNotice);
  body += "\n\n";
  body += *text;
  return Fragment{Role::kDeveloper, std::move(body)};
}

}  // namespace agentctx
