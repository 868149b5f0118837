// SPDX-License-Identifier: MIT
// World-state section `permissions`: developer role, markers
// `<permissions instructions>`/`</permissions instructions>`, snapshot value
// `{"instructions": WorldStateHash("developer", block)}`.
// Rule: Known with an equal hash → nothing; otherwise the full block.
// Block: the body starts empty; before each part a `\n` is appended unless the body
// already ends with one; finally a trailing `\n` is ensured. Parts: 1. sandbox sentence,
// 2. approval text, 3. (workspace-write only) the writable-roots sentence over the sorted,
// de-duplicated {primary cwd} ∪ writable_roots.
#pragma once

#include <string>
#include <string_view>

#include "world_state/section.h"

namespace agentctx {

/// This fragment's markers (the only place they are written).
inline constexpr Markers kPermissionsMarkers{"<permissions instructions>",
                                             "</permissions instructions>"};

inline constexpr std::string_view kPermissionsSectionId = "permissions";

/// The whole `<permissions instructions>` block for the current sandbox, approval and cwd.
std::string RenderPermissionsBlock(const WorldInputs& inputs);

class PermissionsSection : public WorldStateSection {
 public:
  std::string_view id() const override { return kPermissionsSectionId; }
  Role role() const override { return Role::kDeveloper; }
  std::optional<Markers> markers() const override;
  JsonValue Snapshot(const WorldInputs& inputs) const override;
  bool CanRestore(const JsonValue& stored) const override;
  std::optional<Fragment> RenderDiff(const PreviousState& prev,
                                     const WorldInputs& inputs) const override;
};

}  // namespace agentctx
