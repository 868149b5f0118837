// SPDX-License-Identifier: MIT
#include "world_state/sections/agents_md_section.h"

namespace agentctx {
namespace {

const std::string* CurrentText(const WorldInputs& inputs) {
  const auto& text = inputs.agents_md.text;
  return (text.has_value() && !text->empty()) ? &*text : nullptr;
}

}  // namespace

std::optional<Markers> AgentsMdSection::markers() const { return kAgentsMdMarkers; }

JsonValue AgentsMdSection::Snapshot(const WorldInputs& inputs) const {
  JsonValue v = JsonValue::Object();
  const std::string* text = CurrentText(inputs);
  if (text == nullptr) return v;
  v.Set("directory", JsonValue::String(inputs.agents_md.directory));
  v.Set("text", JsonValue::String(*text));
  return v;
}

bool AgentsMdSection::CanRestore(const JsonValue& stored) const {
  if (!stored.is_object()) return false;
  const JsonValue* text = stored.Find("text");
  const JsonValue* directory = stored.Find("directory");
  return (text == nullptr || text->is_string()) && (directory == nullptr || directory->is_string());
}

std::optional<Fragment> AgentsMdSection::RenderDiff(const PreviousState& prev,
                                                    const WorldInputs& inputs) const {
  const std::string* text = CurrentText(inputs);
  std::optional<std::string_view> prev_text;
  if (prev.is_known()) prev_text = prev.value.GetString("text");
  const bool had =
      prev.kind == PreviousState::Kind::kUnknown || (prev_text.has_value() && !prev_text->empty());
  if (text != nullptr && prev_text.has_value() && *prev_text == *text) return std::nullopt;
  std::string body;
  Fragment fragment{Role::kUser, {}, {}, {}};
  if (text != nullptr) {
    if (had) {
      body = kAgentsMdReplacementNotice;
      body += "\n\n";
      // As a system message the notice follows the new text, which stays user-role data.
      fragment.notice = kAgentsMdSystemReplacementNotice;
      fragment.text_without_notice = RenderAgentsMdFragment(inputs.primary_cwd(), *text);
    }
    body += *text;
  } else if (had) {
    body = kAgentsMdRemovalNotice;
    fragment.notice = kAgentsMdRemovalNotice;
  } else {
    return std::nullopt;
  }
  fragment.text = RenderAgentsMdFragment(inputs.primary_cwd(), body);
  return fragment;
}

}  // namespace agentctx
