// SPDX-License-Identifier: MIT
// World-state section `task_frontier`; see task_frontier_section.h.
#include "world_state/sections/task_frontier_section.h"

namespace agentctx {

std::string RenderTaskFrontier(const TaskFrontier& frontier) {
  std::string out = "<task_frontier>\n";
  out +=
      "The task you are working on. This block is kept across context compactions; keep the "
      "plan current with update_plan.\n";
  if (!frontier.goal.empty()) out += "## Goal\n" + frontier.goal + "\n";
  out += "## Plan\n";
  if (frontier.plan.empty()) out += "No plan yet.\n";
  for (const PlanStep& s : frontier.plan) {
    out += "- [";
    out += PlanStatusName(s.status);
    out += "] " + s.step + "\n";
  }
  if (!frontier.explanation.empty()) out += "## Latest note\n" + frontier.explanation + "\n";
  if (!frontier.rules.empty()) {
    out += "## Rules\n";
    for (const std::string& r : frontier.rules) out += "- " + r + "\n";
  }
  out += "</task_frontier>";
  return out;
}

std::optional<Markers> TaskFrontierSection::markers() const { return kTaskFrontierMarkers; }

JsonValue TaskFrontierSection::Snapshot(const WorldInputs& inputs) const {
  if (!inputs.task_frontier.has_value()) return JsonValue();
  return TaskFrontierToJson(*inputs.task_frontier);
}

bool TaskFrontierSection::CanRestore(const JsonValue& stored) const {
  TaskFrontier ignored;
  return TaskFrontierFromJson(stored, &ignored);
}

std::optional<Fragment> TaskFrontierSection::RenderDiff(const PreviousState& prev,
                                                        const WorldInputs& inputs) const {
  if (!inputs.task_frontier.has_value()) return std::nullopt;
  const TaskFrontier& current = *inputs.task_frontier;
  if (prev.is_known()) {
    TaskFrontier before;
    if (TaskFrontierFromJson(prev.value, &before) && before.goal == current.goal &&
        before.rules == current.rules) {
      return std::nullopt;  // plan-only changes are in the history already
    }
  }
  return Fragment{Role::kDeveloper, RenderTaskFrontier(current)};
}

}  // namespace agentctx
