// SPDX-License-Identifier: MIT
// World-state section `tools`: developer role, markers
// `<tools>`/`</tools>`, snapshot value `{"advertised": SHA-1 hex of the tools array bytes,
// "pending"?, "withdrawn"?}` (name arrays in the caller's order, omitted when empty). Rule: only
// under `defer`, when (pending names, withdrawn names) differ from prev (Absent/Unknown = empty):
// `<tools>` + body + `</tools>`, body `\n` + [added header + `- <name>: <first description line,
// trimmed, ≤250 chars>\n`…] + [withdrawn header (upstream) + `- <name>\n`…]; both empty → `\nNo
// tool changes are pending.\n`. A pending tool with an empty first line is listed as `- <name>\n`
// (ours). Cap (ours): the whole text is at most 4096 bytes; tool lines are kept from the start
// while they fit together with `... <n> additional tools omitted.\n`; a header is written only when
// one of its lines is kept.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "world_state/section.h"

namespace agentctx {

/// This fragment's markers (the only place they are written).
inline constexpr Markers kToolsMarkers{"<tools>", "</tools>"};

inline constexpr std::string_view kToolsSectionId = "tools";
inline constexpr std::uint64_t kToolsNoticeCapBytes = 4096;

/// The `<tools>` notice for the given pending and withdrawn tools.
std::string RenderToolsNotice(const std::vector<PendingTool>& pending,
                              const std::vector<std::string>& withdrawn);

/// The first line of a native removal notice (`tool_policy: native` on Responses, which has no
/// removal item): the tools are gone now, not after a compaction.
inline constexpr std::string_view kToolsRemovedHeader =
    "The following tools were removed and can no longer be called:";
/// `<tools>\n` + kToolsRemovedHeader + one `- name` line each + `</tools>`.
std::string RenderToolsRemovedNotice(const std::vector<std::string>& removed);

class ToolsSection : public WorldStateSection {
 public:
  std::string_view id() const override { return kToolsSectionId; }
  Role role() const override { return Role::kDeveloper; }
  std::optional<Markers> markers() const override;
  JsonValue Snapshot(const WorldInputs& inputs) const override;
  bool CanRestore(const JsonValue& stored) const override;
  std::optional<Fragment> RenderDiff(const PreviousState& prev,
                                     const WorldInputs& inputs) const override;
};

}  // namespace agentctx
