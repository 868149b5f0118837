// SPDX-License-Identifier: MIT
// The task frontier in the session (ours, docs/task-frontier.md): what survives compaction
// outside the summarised history; and (6) the context budget value of the turn.
//  1. Goal: config `task_frontier.goal` when set, else the text of the first user message the
//     session saw with the feature on (its input_text parts joined by LF), middle-cut to
//     kFrontierGoalMaxBytes.
//  2. Plan: the latest successful `update_plan` call (steps and explanation) replaces it whole.
//  3. Rules: config `task_frontier.rules`.
//  4. The three form WorldInputs.task_frontier, so the `task_frontier` section snapshots it (the
//     world_state lines persist it) and renders `<task_frontier>` on every full render: the
//     first turn, and after every compaction (mid-turn reinjection, or the next turn start).
//  5. Resume restores goal, plan and explanation from the newest snapshot that held one, even
//     when a later compaction cleared the baseline.
//  6. Context budget (opt-in): at each turn start, context_tokens, the window and the auto limit
//     (token_accounting.h) become WorldInputs.context_budget for the whole turn (the section
//     renders a block when a new 10 % band is crossed).
#include "compaction/token_accounting.h"
#include "session/session.h"
#include "session/session_inputs.h"
#include "support/truncate.h"
#include "tools/tool_args.h"
#include "tools/update_plan.h"
#include "world_state/message_kind.h"
#include "world_state/sections/task_frontier_section.h"

namespace agentctx {

namespace {

constexpr std::uint64_t kFrontierGoalMaxBytes = 2000;

std::string GoalText(std::string_view text) {
  return TruncateMiddle(text, kFrontierGoalMaxBytes, TruncationMode::kBytes);
}

}  // namespace

WorldInputs Session::WorldInputsNow() const {
  WorldInputs inputs = WorldInputsFrom(config_, agents_.loaded(), previous_turn_model_,
                                       advertised_tools_, tools_, EffectiveToolPolicy());
  if (config_.task_frontier.enabled) {
    TaskFrontier f = frontier_;
    if (config_.task_frontier.goal) f.goal = GoalText(*config_.task_frontier.goal);
    f.rules = config_.task_frontier.rules;
    inputs.task_frontier = std::move(f);
  }
  if (config_.context_budget.enabled) inputs.context_budget = context_budget_;
  return inputs;
}

void Session::NoteContextBudget() {
  context_budget_.reset();
  if (!config_.context_budget.enabled) return;
  std::optional<CompactionThresholds> t =
      ComputeThresholds(config_.model.context_window, config_.model.auto_compact_token_limit);
  if (!t) return;
  context_budget_ = ContextBudgetInputs{ContextTokens(), t->window, t->auto_limit};
}

void Session::NoteUserMessage(const JsonValue& message) {
  if (!config_.task_frontier.enabled || !frontier_.goal.empty()) return;
  std::string text;
  for (std::string_view part : MessageTexts(message, "input_text")) {
    if (!text.empty()) text.push_back('\n');
    text += part;
  }
  frontier_.goal = GoalText(text);
}

std::string Session::RunUpdatePlan(std::string_view arguments) {
  Result<PlanUpdate> update = ParseUpdatePlan(arguments);
  if (!update.has_value()) return ArgumentErrorOutput(update.error());
  frontier_.plan = std::move(update->plan);
  frontier_.explanation = std::move(update->explanation);
  return std::string(kUpdatePlanOutput);
}

void Session::RestoreFrontier(const std::optional<JsonValue>& snapshot) {
  if (!snapshot || !snapshot->is_object()) return;
  const JsonValue* stored = snapshot->Find(kTaskFrontierSectionId);
  TaskFrontier restored;
  if (stored == nullptr || !TaskFrontierFromJson(*stored, &restored)) return;
  frontier_.goal = std::move(restored.goal);
  frontier_.plan = std::move(restored.plan);
  frontier_.explanation = std::move(restored.explanation);
}

}  // namespace agentctx
