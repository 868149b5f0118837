// SPDX-License-Identifier: MIT
// World-state section `task_frontier` (ours; docs/task-frontier.md): developer role, markers
// `<task_frontier>`/`</task_frontier>`, snapshot value = TaskFrontierToJson (goal, latest
// explanation, plan, pinned rules), absent when the feature is off.
// Rule: the full block when prev is Absent or Unknown (so after every compaction, local or
// remote, the full re-render brings it back verbatim), and when the goal or the rules differ
// from a Known value. A plan-only change renders nothing: the model's own update_plan call is in
// the history; the snapshot (and so the world_state line and the next full render) still
// carries the latest plan. An absent value renders nothing.
// Text (lines joined by LF):
//   <task_frontier>
//   The task you are working on. This block is kept across context compactions; keep the plan
//   current with update_plan.            (one line)
//   ## Goal / <goal>                      (only with a goal)
//   ## Plan / `- [<status>] <step>`…  or  `No plan yet.`
//   ## Latest note / <explanation>        (only with one)
//   ## Rules / `- <rule>`…                (only with rules)
//   </task_frontier>
#pragma once

#include <string>
#include <string_view>

#include "world_state/section.h"

namespace agentctx {

/// This fragment's markers (the only place they are written).
inline constexpr Markers kTaskFrontierMarkers{"<task_frontier>", "</task_frontier>"};

inline constexpr std::string_view kTaskFrontierSectionId = "task_frontier";

/// The whole `<task_frontier>` block for `frontier`.
std::string RenderTaskFrontier(const TaskFrontier& frontier);

class TaskFrontierSection : public WorldStateSection {
 public:
  std::string_view id() const override { return kTaskFrontierSectionId; }
  Role role() const override { return Role::kDeveloper; }
  std::optional<Markers> markers() const override;
  JsonValue Snapshot(const WorldInputs& inputs) const override;
  bool CanRestore(const JsonValue& stored) const override;
  std::optional<Fragment> RenderDiff(const PreviousState& prev,
                                     const WorldInputs& inputs) const override;
};

}  // namespace agentctx
