// SPDX-License-Identifier: MIT
// World-state section `skills`: user role, markers
// `<skills_instructions>`/`</skills_instructions>`, snapshot value `[{name, description?, path}]`
// sorted by name (may be `[]`).
// Rules: non-empty and (Absent/Unknown or changed) → the full block; empty while Known non-empty →
// the removal line (ours); otherwise nothing.
// Block (ours, modelled on upstream): `<skills_instructions>\n` + lines joined by `\n` +
// `\n</skills_instructions>` with lines `## Skills`, the intro sentence, `### Available skills`,
// then per skill (by name)
// `- <name>: <description> (file: <path>)` or `- <name>: (file: <path>)` (no or empty description).
// Budget 8000 characters for the whole block: 1. if over, every description longer than 80
// characters is cut to 80 characters + `…`; 2. if still over, skills are dropped from the end and
// `- … <n> more skills omitted` is added, keeping as many as fit.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "world_state/section.h"

namespace agentctx {

/// This fragment's markers (the only place they are written).
inline constexpr Markers kSkillsMarkers{"<skills_instructions>", "</skills_instructions>"};

inline constexpr std::string_view kSkillsSectionId = "skills";
inline constexpr std::uint64_t kSkillsBudgetChars = 8000;
inline constexpr std::string_view kSkillsRemovedText =
    "<skills_instructions>\nNo skills are available anymore.\n</skills_instructions>";

/// The skills block for `skills` (any order; sorted here by name).
std::string RenderSkillsBlock(std::vector<SkillInput> skills);

class SkillsSection : public WorldStateSection {
 public:
  std::string_view id() const override { return kSkillsSectionId; }
  Role role() const override { return Role::kUser; }
  std::optional<Markers> markers() const override;
  JsonValue Snapshot(const WorldInputs& inputs) const override;
  bool CanRestore(const JsonValue& stored) const override;
  std::optional<Fragment> RenderDiff(const PreviousState& prev,
                                     const WorldInputs& inputs) const override;
};

}  // namespace agentctx
