// SPDX-License-Identifier: MIT
// `tool_policy: native` (docs/tools.md): a tool added, changed or removed mid-session reaches the
// model at the next step as one `tool_changes` item appended to history, which each provider
// reads in its own form (prompt/for_prompt.h: Responses `additional_tools` plus a removal
// notice, Anthropic `tool_addition` / `tool_removal` in a system message). The top-level tools
// array stays byte-frozen (advertised_tools_) until a compaction or resume re-bases it.
// Rules:
//  - native is in effect only while the dialect's `tool_changes` feature is on for the model;
//    otherwise it acts as `defer` (the world-state tools notice), with one
//    `tool_policy_fallback` warning per session where the provider has no channel at all.
//  - the change is recorded after the step's user message or tool results, never between a
//    call and its output; model_tools_ is then what the model knows.
//  - a host call still running when its tool is removed is answered at once with a tool error.
#include "protocol/items.h"
#include "protocol/json_codec.h"
#include "session/session.h"
#include "world_state/sections/tools_section.h"

namespace agentctx {

bool Session::NativeToolChangesOn() const {
  return config_.tool_policy == ToolPolicy::kNative &&
         FeaturesFor(config_.model)(ProviderFeature::kToolChanges);
}

ToolPolicy Session::EffectiveToolPolicy() const {
  if (config_.tool_policy != ToolPolicy::kNative) return config_.tool_policy;
  return NativeToolChangesOn() ? ToolPolicy::kNative : ToolPolicy::kDefer;
}

ToolChangeForm Session::ToolChangeFormNow() const {
  return dialect_->tool_change_form(FeaturesFor(config_.model));
}

void Session::RecordToolChanges(EffectSink* sink) {
  if (config_.tool_policy != ToolPolicy::kNative) return;
  if (!NativeToolChangesOn()) {
    const bool no_channel =
        dialect_->Availability(ProviderFeature::kToolChanges, config_.model.slug) ==
        FeatureAvailability::kNone;
    if (no_channel && !tool_policy_fallback_warned_) {
      tool_policy_fallback_warned_ = true;
      sink->Warning(WarningCode::kToolPolicyFallback,
                    "tool_policy native: provider " + std::string(ToWire(config_.provider)) +
                        " has no in-conversation tool changes; tool changes wait for the next "
                        "compaction (defer)");
    }
    return;
  }
  JsonValue added = JsonValue::Array();
  std::vector<PendingTool> pending;
  for (const ToolEntry& t : tools_.tools) {
    const ToolEntry* known = model_tools_.FindAdvertised(t.advertised_name);
    if (known != nullptr && known->spec_bytes == t.spec_bytes) continue;
    auto spec = ParseJson(t.spec_bytes);
    if (!spec || !spec->is_object()) continue;
    added.Push(std::move(*spec));
    pending.push_back({t.advertised_name, t.description});
  }
  std::vector<std::string> removed;
  for (const ToolEntry& t : model_tools_.tools) {
    if (tools_.FindAdvertised(t.advertised_name) == nullptr) removed.push_back(t.advertised_name);
  }
  model_tools_ = tools_;
  if (added.items().empty() && removed.empty()) return;
  JsonValue report = JsonValue::Object();
  JsonValue added_names = JsonValue::Array();
  for (const PendingTool& t : pending) added_names.Push(JsonValue::String(t.name));
  JsonValue removed_names = JsonValue::Array();
  for (const std::string& n : removed) removed_names.Push(JsonValue::String(n));
  report.Set("added", std::move(added_names));
  report.Set("removed", std::move(removed_names));
  report.Set("lost_tokens", JsonValue::Int(0));
  tool_change_report_ = std::move(report);
  history_has_tool_changes_ = true;
  Record(ToolChangesItem(std::move(added), removed, RenderToolsNotice(pending, removed),
                         RenderToolsRemovedNotice(removed)),
         "tool_changes", sink);
}

void Session::AnswerCallsOfRemovedTools(EffectSink* sink) {
  if (state_ != TurnState::kAwaitingTools || config_.tool_policy != ToolPolicy::kNative) return;
  bool answered = false;
  for (PendingCall& call : calls_) {
    if (!call.host || call.output || tools_.FindAdvertised(call.name) != nullptr) continue;
    call.output = JsonValue::String("tool `" + call.name +
                                    "` was removed while this call was running; it did not "
                                    "return a result and can no longer be called");
    answered = true;
  }
  if (answered) MaybeFinishTools(sink);
}

void Session::AnnotateToolChange(JsonValue* report) {
  if (!tool_change_report_) return;
  report->Set("tool_change", std::move(*tool_change_report_));
  tool_change_report_.reset();
}

}  // namespace agentctx
