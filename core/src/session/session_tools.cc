// SPDX-License-Identifier: MIT
// Tool dispatch after response.completed (docs/tools.md): built-ins run in the core on the primary
// FileSystem, host tools leave as tool_call effects, withdrawn/unknown/custom calls get their
// fixed texts. All outputs of a step are recorded together, truncated, in call order (never
// delivery order); then the next step starts, or the turn ends when there was no call.
#include "protocol/items.h"
#include "session/session.h"
#include "tools/builtin_tools.h"
#include "tools/output_truncation.h"
#include "tools/update_plan.h"

namespace agentctx {

void Session::DispatchToolCalls(EffectSink* sink) {
  calls_.clear();
  // The calls are the items this response just recorded, in output order.
  std::size_t first = history_.size();
  while (first > 0 && history_[first - 1].origin == "model" &&
         history_[first - 1].turn_id == turn_id_) {
    --first;
  }
  ToolContext ctx;
  ctx.fs = PrimaryFileSystem();
  ctx.primary_cwd = config_.environments[0].cwd;
  ctx.sandbox.mode = config_.sandbox.mode;
  ctx.sandbox.writable_roots = config_.sandbox.writable_roots;
  ctx.sandbox.network_access = config_.sandbox.network_access;
  for (std::size_t i = first; i < history_.size(); ++i) {
    const JsonValue& item = history_[i].json;
    std::string_view type = ItemType(item);
    if (type != "function_call" && type != "custom_tool_call") continue;
    PendingCall call;
    call.call_id = std::string(ItemCallId(item));
    call.call_type = std::string(type);
    std::string name(item.GetString("name").value_or(""));
    call.name = name;
    if (type == "custom_tool_call") {
      call.output = JsonValue::String(UnsupportedCallOutput(name));
    } else if (config_.task_frontier.enabled && name == kUpdatePlanToolName) {
      call.output = JsonValue::String(RunUpdatePlan(item.GetString("arguments").value_or("")));
    } else if (config_.builtin_tools && IsBuiltinTool(name)) {
      call.output =
          JsonValue::String(RunBuiltinTool(ctx, name, item.GetString("arguments").value_or("")));
    } else if (const ToolEntry* tool = tools_.FindAdvertised(name);
               tool != nullptr && !tool->builtin) {
      call.host = true;
      ToolCallEffect effect;
      effect.call_id = call.call_id;
      effect.name = name;
      if (!tool->server.empty()) {
        effect.server = tool->server;
        effect.tool = tool->name;
      }
      effect.arguments = std::string(item.GetString("arguments").value_or(""));
      sink->AddToolCall(std::move(effect));
    } else if (advertised_tools_.FindAdvertised(name) != nullptr ||
               model_tools_.FindAdvertised(name) != nullptr) {
      call.output = JsonValue::String("tool `" + name + "` is no longer available");
    } else {
      call.output = JsonValue::String(UnsupportedCallOutput(name));
    }
    calls_.push_back(std::move(call));
  }
  if (calls_.empty()) {
    EndTurn("completed", sink);
    return;
  }
  state_ = TurnState::kAwaitingTools;
  MaybeFinishTools(sink);
}

void Session::MaybeFinishTools(EffectSink* sink) {
  for (const auto& call : calls_) {
    if (!call.output) return;
  }
  RecordToolOutputs(sink);
  if (steps_in_turn_ >= config_.max_steps_per_turn) {
    sink->Warning(WarningCode::kStepLimit, "the turn reached max_steps_per_turn (" +
                                               std::to_string(config_.max_steps_per_turn) +
                                               ") and was ended");
    EndTurn("completed", sink);
    return;
  }
  if (MaybeCompactMidTurn(sink)) return;  // mid-turn: the turn continues after it
  StartStep(/*turn_start=*/false, nullptr, sink);
}

void Session::RecordToolOutputs(EffectSink* sink) {
  std::vector<PendingCall> calls = std::move(calls_);
  calls_.clear();
  for (auto& call : calls) {
    JsonValue output = TruncateToolOutput(*call.output, config_.model.truncation);
    JsonValue item = call.call_type == "custom_tool_call"
                         ? CustomToolCallOutputItem(call.call_id, output.string_value())
                     : output.is_string()
                         ? FunctionCallOutputItem(call.call_id, output.string_value())
                         : FunctionCallOutputItem(call.call_id, output);
    Record(std::move(item), "tool", sink);
  }
}

}  // namespace agentctx
