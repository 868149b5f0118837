// SPDX-License-Identifier: MIT
// World-state section `agents_md` (docs/agents-md-refresh.md): user role, markers
// `# AGENTS.md instructions`/`</INSTRUCTIONS>`, snapshot value `{"directory":cwd,"text":T}` or
// `{}` when there is no text (an empty text counts as none).
// Rules (upstream notices): `had` = Known with `text`, or Unknown. Known with the same text →
// nothing (a directory-only change renders nothing, ours). Text and `had` → body
// REPLACEMENT_NOTICE + "\n\n" + text; text and not `had` → the text; no text and `had` →
// REMOVAL_NOTICE; else nothing. The header always uses the current primary cwd.
// The fragment's `notice` (section.h) is the removal notice, or for a replacement
// kAgentsMdSystemReplacementNotice with the plain text fragment left as user-role data.
#pragma once

#include <string>
#include <string_view>

#include "agents_md/assembly.h"
#include "world_state/section.h"

namespace agentctx {

/// This fragment's markers (the only place they are written).
inline constexpr Markers kAgentsMdMarkers{"# AGENTS.md instructions", "</INSTRUCTIONS>"};

inline constexpr std::string_view kAgentsMdSectionId = "agents_md";

class AgentsMdSection : public WorldStateSection {
 public:
  std::string_view id() const override { return kAgentsMdSectionId; }
  Role role() const override { return Role::kUser; }
  std::optional<Markers> markers() const override;
  JsonValue Snapshot(const WorldInputs& inputs) const override;
  bool CanRestore(const JsonValue& stored) const override;
  std::optional<Fragment> RenderDiff(const PreviousState& prev,
                                     const WorldInputs& inputs) const override;
};

}  // namespace agentctx
