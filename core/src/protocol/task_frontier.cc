// SPDX-License-Identifier: MIT
// The task frontier DTO and its snapshot JSON (see task_frontier.h).
#include "protocol/task_frontier.h"

#include <utility>

namespace agentctx {

std::string_view PlanStatusName(PlanStatus status) {
  switch (status) {
    case PlanStatus::kPending:
      return "pending";
    case PlanStatus::kInProgress:
      return "in_progress";
    case PlanStatus::kCompleted:
      return "completed";
  }
  return "pending";
}

bool PlanStatusFromName(std::string_view name, PlanStatus* out) {
  for (PlanStatus s : {PlanStatus::kPending, PlanStatus::kInProgress, PlanStatus::kCompleted}) {
    if (PlanStatusName(s) == name) {
      *out = s;
      return true;
    }
  }
  return false;
}

JsonValue TaskFrontierToJson(const TaskFrontier& frontier) {
  JsonValue v = JsonValue::Object();
  if (!frontier.goal.empty()) v.Set("goal", JsonValue::String(frontier.goal));
  if (!frontier.explanation.empty()) {
    v.Set("explanation", JsonValue::String(frontier.explanation));
  }
  JsonValue plan = JsonValue::Array();
  for (const PlanStep& s : frontier.plan) {
    JsonValue step = JsonValue::Object();
    step.Set("step", JsonValue::String(s.step));
    step.Set("status", JsonValue::String(std::string(PlanStatusName(s.status))));
    plan.Push(std::move(step));
  }
  v.Set("plan", std::move(plan));
  JsonValue rules = JsonValue::Array();
  for (const std::string& r : frontier.rules) rules.Push(JsonValue::String(r));
  v.Set("rules", std::move(rules));
  return v;
}

bool TaskFrontierFromJson(const JsonValue& value, TaskFrontier* out) {
  if (!value.is_object()) return false;
  TaskFrontier f;
  for (std::string_view key : {"goal", "explanation"}) {
    const JsonValue* s = value.Find(key);
    if (s == nullptr || s->is_null()) continue;
    if (!s->is_string()) return false;
    (key == "goal" ? f.goal : f.explanation) = s->string_value();
  }
  if (const JsonValue* plan = value.Find("plan"); plan != nullptr && !plan->is_null()) {
    if (!plan->is_array()) return false;
    for (const JsonValue& item : plan->items()) {
      std::optional<std::string_view> step = item.GetString("step");
      std::optional<std::string_view> status = item.GetString("status");
      PlanStep s;
      if (!step || !status || !PlanStatusFromName(*status, &s.status)) return false;
      s.step = std::string(*step);
      f.plan.push_back(std::move(s));
    }
  }
  if (const JsonValue* rules = value.Find("rules"); rules != nullptr && !rules->is_null()) {
    if (!rules->is_array()) return false;
    for (const JsonValue& r : rules->items()) {
      if (!r.is_string()) return false;
      f.rules.push_back(r.string_value());
    }
  }
  *out = std::move(f);
  return true;
}

}  // namespace agentctx
