// SPDX-License-Identifier: MIT
// The task frontier (ours; docs/task-frontier.md): what the agent is doing, kept outside the
// summarised history so it survives compaction. A plain DTO shared by tools/update_plan (which
// parses plan updates), world_state (the `task_frontier` section renders and snapshots it) and
// session (which owns the current value). It lives in protocol/ because it is a wire value (the
// update_plan arguments and a snapshot value) and protocol is the one module both tools and
// world_state may include.
// Invariants: statuses are one of pending | in_progress | completed; the JSON form is the
// `task_frontier` world-state snapshot value: {"goal"?, "explanation"?, "plan":[{"step",
// "status"}], "rules":[…]} (empty goal/explanation omitted), so FromJson(ToJson(x)) == x.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/json_value.h"

namespace agentctx {

enum class PlanStatus { kPending, kInProgress, kCompleted };

/// "pending" | "in_progress" | "completed".
std::string_view PlanStatusName(PlanStatus status);
/// Parses a status name; false for anything else.
bool PlanStatusFromName(std::string_view name, PlanStatus* out);

struct PlanStep {
  std::string step;
  PlanStatus status = PlanStatus::kPending;

  bool operator==(const PlanStep& other) const {
    return step == other.step && status == other.status;
  }
};

struct TaskFrontier {
  std::string goal;         // the task's goal ("" = none yet)
  std::string explanation;  // the latest update_plan explanation ("" = none)
  std::vector<PlanStep> plan;
  std::vector<std::string> rules;  // pinned rules from config

  bool operator==(const TaskFrontier& other) const {
    return goal == other.goal && explanation == other.explanation && plan == other.plan &&
           rules == other.rules;
  }
};

/// The snapshot value (see the invariants).
JsonValue TaskFrontierToJson(const TaskFrontier& frontier);
/// Reads a snapshot value; false (and `*out` untouched) when the shape is wrong.
bool TaskFrontierFromJson(const JsonValue& value, TaskFrontier* out);

}  // namespace agentctx
