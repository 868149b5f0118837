// SPDX-License-Identifier: MIT
// Built-in tool `update_plan` (ours; the shape of Codex's plan tool): the model
// records its plan, which becomes part of the task frontier (protocol/task_frontier.h).
// Advertised only when `task_frontier.enabled`; it touches no FileSystem.
// Algorithm of ParseUpdatePlan: 1. parse {explanation?: string, plan: [{step, status}]};
// 2. each step a non-empty string of at most kMaxPlanStepBytes bytes, each status pending |
// in_progress | completed, at most kMaxPlanSteps steps; anything else is an error whose output
// is `failed to parse function arguments: <detail>` and the plan is left as it was.
// 3. Success output: `Plan updated`.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "agentctx/result.h"
#include "protocol/task_frontier.h"

namespace agentctx {

inline constexpr std::string_view kUpdatePlanToolName = "update_plan";
inline constexpr std::size_t kMaxPlanSteps = 50;
inline constexpr std::size_t kMaxPlanStepBytes = 1000;
inline constexpr std::string_view kUpdatePlanOutput = "Plan updated";

struct PlanUpdate {
  std::string explanation;  // "" when absent
  std::vector<PlanStep> plan;
};

/// The exact tool spec bytes (parameters with sorted keys).
std::string_view UpdatePlanSpecJson();

/// Steps 1-2. Errors: kInvalidInput; ArgumentErrorOutput(error) is the tool output.
Result<PlanUpdate> ParseUpdatePlan(std::string_view arguments);

}  // namespace agentctx
