// SPDX-License-Identifier: MIT
// World-state section `developer_instructions` (notices ours): developer role,
// no markers (so never Unknown), snapshot value `{"instructions": WorldStateHash("developer",
// text)}`, absent (null) when unset. An empty string counts as unset.
// Rules: Absent + set → the text; Known, hash differs → replacement notice + "\n\n" + text;
// Known → unset → removal notice; otherwise nothing.
#pragma once

#include <string>
#include <string_view>

#include "world_state/section.h"

namespace agentctx {

inline constexpr std::string_view kDeveloperInstructionsSectionId = "developer_instructions";
inline constexpr std::string_view kDeveloperInstructionsReplacementNotice =
    "These developer instructions replace all previously provided developer instructions.";
inline constexpr std::string_view kDeveloperInstructionsRemovalNotice =
    "The previously provided developer instructions no longer apply.";

class DeveloperInstructionsSection : public WorldStateSection {
 public:
  std::string_view id() const override { return kDeveloperInstructionsSectionId; }
  Role role() const override { return Role::kDeveloper; }
  std::optional<Markers> markers() const override { return std::nullopt; }
  JsonValue Snapshot(const WorldInputs& inputs) const override;
  bool CanRestore(const JsonValue& stored) const override;
  std::optional<Fragment> RenderDiff(const PreviousState& prev,
                                     const WorldInputs& inputs) const override;
};

}  // namespace agentctx
