// SPDX-License-Identifier: MIT
// Built-in tool `update_plan`; see update_plan.h.
#include "tools/update_plan.h"

#include <utility>

#include "tools/tool_args.h"

namespace agentctx {

namespace {

constexpr std::string_view kSpec =
    R"({"type":"function","name":"update_plan","description":"Updates the task plan. Provide an optional explanation and the whole list of plan steps, each with a status. At most one step should be in_progress at a time. The plan and the task's goal are kept across context compactions.","strict":false,"parameters":{"additionalProperties":false,"properties":{"explanation":{"description":"Why the plan changed (optional).","type":"string"},"plan":{"description":"The list of steps.","items":{"additionalProperties":false,"properties":{"status":{"description":"One of: pending, in_progress, completed.","type":"string"},"step":{"type":"string"}},"required":["step","status"],"type":"object"},"type":"array"}},"required":["plan"],"type":"object"}})";

Unexpected<Error> Invalid(std::string detail) {
  return Fail(ErrorCode::kInvalidInput, std::move(detail));
}

}  // namespace

std::string_view UpdatePlanSpecJson() { return kSpec; }

Result<PlanUpdate> ParseUpdatePlan(std::string_view arguments) {
  ACTX_TRY(JsonValue args, ParseToolArguments(arguments));
  PlanUpdate update;
  if (const JsonValue* e = args.Find("explanation"); e != nullptr && !e->is_null()) {
    if (!e->is_string()) return Invalid("invalid type for `explanation`: expected a string");
    update.explanation = e->string_value();
  }
  const JsonValue* plan = args.Find("plan");
  if (plan == nullptr || plan->is_null()) return Invalid("missing field `plan`");
  if (!plan->is_array()) return Invalid("invalid type for `plan`: expected an array");
  if (plan->items().size() > kMaxPlanSteps) {
    return Invalid("`plan` has more than " + std::to_string(kMaxPlanSteps) + " steps");
  }
  for (std::size_t i = 0; i < plan->items().size(); ++i) {
    const JsonValue& item = plan->items()[i];
    const std::string at = "`plan[" + std::to_string(i) + "]";
    if (!item.is_object()) return Invalid("invalid type for " + at + "`: expected an object");
    Result<std::string> step = RequiredStringArg(item, "step");
    if (!step.has_value()) return Invalid(at + "`: " + step.error().message);
    if (step->empty() || step->size() > kMaxPlanStepBytes) {
      return Invalid("invalid value for " + at + ".step`: expected 1 to " +
                     std::to_string(kMaxPlanStepBytes) + " bytes");
    }
    Result<std::string> status = RequiredStringArg(item, "status");
    if (!status.has_value()) return Invalid(at + "`: " + status.error().message);
    PlanStep s;
    if (!PlanStatusFromName(*status, &s.status)) {
      return Invalid("invalid value for " + at +
                     ".status`: expected pending, in_progress or completed");
    }
    s.step = std::move(step).value();
    update.plan.push_back(std::move(s));
  }
  return update;
}

}  // namespace agentctx
