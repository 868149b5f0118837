// SPDX-License-Identifier: MIT
// World-state section `environment`: user role, markers
// `<environment_context>`/`</environment_context>`, snapshot value
// `{"environments":{id:{cwd,status,shell?,is_primary?}},"current_date"?,"timezone"?}`;
// `is_primary:true` only on the primary and only with 2+ environments; date/timezone only when
// `include_date` and supplied.
// Diff: Absent/Unknown → every environment changed. Else an environment changed if it
// is new, its cwd, status or is_primary differ, its shell differs with both shells known
// (unknown→known is no change), or the count crossed 1 ↔ 2+; a removed one is unavailable. Emit
// only if some environment changed/became unavailable or date/timezone changed; list only those
// environments, but always the current date/timezone.
// Layout (as upstream): the single layout when the current world has exactly
// one environment, it is `available` and nothing is unavailable; otherwise `<environments>` with
// ids sorted and `primary=` when there are or were 2+ environments. Values are XML-escaped.
#pragma once

#include <string>
#include <string_view>

#include "world_state/section.h"

namespace agentctx {

/// This fragment's markers (the only place they are written).
inline constexpr Markers kEnvironmentContextMarkers{"<environment_context>",
                                                    "</environment_context>"};

inline constexpr std::string_view kEnvironmentSectionId = "environment";

/// The full `<environment_context>` block for the current inputs (every environment listed).
std::string RenderEnvironmentContext(const WorldInputs& inputs);

class EnvironmentSection : public WorldStateSection {
 public:
  std::string_view id() const override { return kEnvironmentSectionId; }
  Role role() const override { return Role::kUser; }
  std::optional<Markers> markers() const override;
  JsonValue Snapshot(const WorldInputs& inputs) const override;
  bool CanRestore(const JsonValue& stored) const override;
  std::optional<Fragment> RenderDiff(const PreviousState& prev,
                                     const WorldInputs& inputs) const override;
};

}  // namespace agentctx
