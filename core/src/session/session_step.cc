// SPDX-License-Identifier: MIT
// Step start: AGENTS.md refresh, world-state diffs recorded as context
// items, baseline + world_state line, turn_context, the user message, then the request built
// from cached item bytes and explained (cache_report).
#include <algorithm>

#include "protocol/merge_patch.h"
#include "rollout/rollout_writer.h"
#include "session/session.h"
#include "session/session_inputs.h"
#include "tools/builtin_tools.h"
#include "tools/update_plan.h"
#include "world_state/message_kind.h"

namespace agentctx {

void Session::RebuildTools() {
  std::vector<BuiltinToolSpec> builtins;
  if (config_.builtin_tools) {
    auto specs = BuiltinToolSpecsJson();
    for (std::size_t i = 0; i < specs.size(); ++i) {
      builtins.push_back({std::string(kBuiltinToolNames[i]), std::string(specs[i])});
    }
  }
  if (config_.task_frontier.enabled) {  // the plan tool (session_frontier.cc)
    builtins.push_back({std::string(kUpdatePlanToolName), std::string(UpdatePlanSpecJson())});
  }
  tools_ = BuildToolList(builtins, config_.tools);
  // `apply` advertises every change at once; `defer` keeps the array byte-frozen until the next
  // compaction or resume (the first build always advertises).
  if (config_.tool_policy == ToolPolicy::kApply || advertised_tools_.array_bytes.empty()) {
    advertised_tools_ = tools_;
    model_tools_ = tools_;  // `native` diffs against what the model knows
  }
}

Result<void> Session::RefreshAgents(EffectSink* sink) {
  auto outcome = agents_.Refresh(AgentsInputsFrom(config_, fs_));
  if (!outcome) return Fail(outcome.error());
  for (const auto& w : outcome->warnings) sink->Warning(w.code, w.message);
  if (outcome->reloaded) {
    JsonValue e = MakeEvent("instructions_loaded");
    e.Set("sources", InstructionSources());
    e.Set("generation", JsonValue::Int(static_cast<std::int64_t>(outcome->generation)));
    sink->Event(std::move(e));
  }
  return {};
}

void Session::StartStep(bool turn_start, const JsonValue* user_message, EffectSink* sink) {
  ++steps_in_turn_;
  if (turn_start && user_message != nullptr) NoteUserMessage(*user_message);
  if (turn_start) NoteContextBudget();
  auto refreshed = RefreshAgents(sink);
  if (!refreshed) {
    sink->SetError(ErrorEffect{ErrorCode::kAgentsMdLoadFailed, refreshed.error().message, false,
                               std::nullopt, std::nullopt});
    EndTurn("failed", sink);
    return;
  }
  if (turn_start && compaction_floor_due_) CheckCompactionFloor(sink);
  std::vector<SectionFragment> notices;
  RecordContext(turn_start, SystemNoticesAllowed(turn_start, user_message) ? &notices : nullptr,
                sink);
  if (turn_start && user_message != nullptr) {
    PersistTurnContext(sink);
    std::string text;
    for (auto part : MessageTexts(*user_message, "input_text")) {
      if (!text.empty()) text.push_back('\n');
      text += part;
    }
    Record(*user_message, "user", sink);
    sink->Persist(UserMessageLine(now_ms_, text));
  }
  RecordSystemNotices(notices, sink);
  RecordToolChanges(sink);                       // tool_policy native (session_tool_changes.cc)
  if (turn_start && PrewarmFirst(sink)) return;  // a cold cache (session_warmth.cc)
  NoteRequestIssued();                           // for warmth-aware compaction (session_warmth.cc)
  IssueRequest(sink);
}

bool Session::SystemNoticesAllowed(bool turn_start, const JsonValue* user_message) const {
  if (!FeaturesFor(config_.model)(ProviderFeature::kSystemMessages)) return false;
  // Only where a system message may follow: the turn's user message or the step's tool results.
  if (turn_start) return user_message != nullptr;
  if (history_.empty()) return false;
  std::string_view last = ItemType(history_.back().json);
  return last.size() > 7 && last.substr(last.size() - 7) == "_output";
}

void Session::RecordSystemNotices(const std::vector<SectionFragment>& notices, EffectSink* sink) {
  if (notices.empty()) return;
  std::vector<std::string> parts;
  for (const SectionFragment& notice : notices) parts.push_back(notice.fragment.text);
  Record(InputMessage("system", parts), notices.front().section_id, sink);
}

void Session::RecordContext(bool turn_start, std::vector<SectionFragment>* system_notices,
                            EffectSink* sink) {
  WorldInputs inputs = WorldInputsNow();
  JsonValue snapshot = world_.BuildSnapshot(inputs);
  RenderResult rendered;
  const JsonValue* baseline = baseline_ ? &*baseline_ : nullptr;
  if (turn_start) {
    std::vector<HistoryMessageView> views;
    for (const auto& item : history_) {
      if (ItemType(item.json) != "message") continue;
      HistoryMessageView view;
      view.role = item.json.GetString("role").value_or("");
      view.input_texts = MessageTexts(item.json, "input_text");
      views.push_back(std::move(view));
    }
    rendered = world_.RenderTurnStart(baseline, views, inputs, system_notices != nullptr);
  } else {
    rendered = baseline ? world_.RenderStep(*baseline, inputs, system_notices != nullptr)
                        : world_.RenderFull(inputs);
  }
  if (system_notices != nullptr) *system_notices = std::move(rendered.notices);
  for (const auto& w : rendered.warnings) sink->Warning(w.code, w.message);
  if (config_.layout == PromptLayout::kPerRole) {
    // Codex 0.169 grouping (docs/providers.md): one message per role for the pass, one part per
    // fragment, at the first position of that role; origin = its first fragment's section.
    std::vector<ContextMessage> bundles;
    for (const auto& message : rendered.messages) {
      auto same_role = [&message](const ContextMessage& b) { return b.role == message.role; };
      auto bundle = std::find_if(bundles.begin(), bundles.end(), same_role);
      if (bundle == bundles.end()) {
        bundles.push_back(message);
      } else {
        bundle->parts.insert(bundle->parts.end(), message.parts.begin(), message.parts.end());
      }
    }
    rendered.messages = std::move(bundles);
  }
  for (const auto& message : rendered.messages) {
    Record(InputMessage(RoleName(message.role), message.parts), message.origin, sink);
  }
  JsonValue next = world_.NextBaseline(baseline, snapshot);
  if (baseline == nullptr) {
    sink->Persist(WorldStateLine(now_ms_, true, next));
  } else {
    JsonValue patch = MergePatchDiff(*baseline, next);
    if (!IsEmptyMergePatch(patch)) sink->Persist(WorldStateLine(now_ms_, false, patch));
  }
  baseline_ = std::move(next);
}

void Session::PersistTurnContext(EffectSink* sink, bool force) {
  TurnContextFields f;
  f.turn_id = turn_id_;
  f.cwd = config_.environments[0].cwd;
  f.approval_policy = config_.approval_policy;
  f.sandbox.mode = config_.sandbox.mode;
  f.sandbox.writable_roots = config_.sandbox.writable_roots;
  f.sandbox.network_access = config_.sandbox.network_access;
  f.model = config_.model.slug;
  f.effort = config_.reasoning_effort;
  f.summary = config_.reasoning_summary;
  f.provider = config_.provider;
  f.base_url = config_.base_url;
  for (std::size_t i = 0; i < kProviderFeatureCount; ++i) {
    const auto feature = static_cast<ProviderFeature>(i);
    if (const auto& on = config_.provider_features[feature]) {
      f.provider_features.emplace_back(std::string(ToWire(feature)), *on);
    }
  }
  JsonValue payload = TurnContextPayload(f);
  if (force || !last_turn_context_ || TurnContextChanged(*last_turn_context_, payload)) {
    sink->Persist(TurnContextLine(now_ms_, f));
  }
  last_turn_context_ = std::move(payload);
}

BodyParams Session::BodyParamsFor(const ModelConfig& model,
                                  const std::vector<std::string_view>* items,
                                  bool compaction) const {
  BodyParams params;
  params.model = model.slug;
  params.instructions = model.instructions;
  params.items = items;
  params.tools_bytes = advertised_tools_.array_bytes;
  params.compaction = compaction;
  params.supports_reasoning = model.supports_reasoning;
  if (config_.reasoning_effort) params.reasoning_effort = ToWire(*config_.reasoning_effort);
  if (config_.reasoning_summary) params.reasoning_summary = ToWire(*config_.reasoning_summary);
  if (config_.service_tier) params.service_tier = ToWire(*config_.service_tier);
  params.prompt_cache_key = config_.CacheKey();
  if (config_.verbosity) params.verbosity = ToWire(*config_.verbosity);
  params.max_output_tokens = config_.max_output_tokens;
  params.chat_developer_role = config_.chat.developer_role;
  params.features = FeaturesFor(model);
  params.tool_changes = history_has_tool_changes_;
  if (!compaction) params.compact_threshold = ServerCompactThreshold(model);
  if (config_.compaction.prompt) params.compaction_instructions = *config_.compaction.prompt;
  params.cache_mode = config_.openai.cache_mode;
  params.cache_ttl = config_.openai.cache_ttl;
  params.cache_comparison_id = last_response_id_;
  if (params.features(ProviderFeature::kContextEditing)) {
    params.context_edit = config_.anthropic.context_edit;
  }
  return params;
}

std::vector<ItemSegment> Session::ItemSegmentsOf(const std::vector<PromptItem>& prompt) const {
  std::vector<ItemSegment> items;
  items.reserve(prompt.size());
  for (const auto& p : prompt) {
    items.push_back(ItemSegment{
        *p.bytes,
        p.synthetic ? std::string_view("tool") : std::string_view(history_[p.history_index].origin),
        p.serial});
  }
  return items;
}

JsonValue Session::BreakpointsInspect() const {
  std::vector<PromptItem> prompt =
      ForPrompt(history_, config_.model.supports_images, &prompt_cache_, ToolChangeFormNow());
  JsonValue preview = PreviewCacheMarks(BodyParamsFor(config_.model, nullptr, false),
                                        ItemSegmentsOf(prompt), config_.DialectSettings());
  JsonValue out = JsonValue::Object();
  out.Set("provider", JsonValue::String(std::string(ToWire(config_.provider))));
  for (auto& m : preview.members()) out.Set(m.key, m.value);
  return out;
}

std::string Session::BuildBody(const std::vector<PromptItem>& prompt, bool compaction) const {
  std::string body;
  dialect_->RenderOnce(BodyParamsFor(config_.model, nullptr, compaction), ItemSegmentsOf(prompt),
                       config_.DialectSettings(), now_ms_, &body);
  return body;
}

Result<std::string> Session::PromptPreview() const {
  return BuildBody(
      ForPrompt(history_, config_.model.supports_images, &prompt_cache_, ToolChangeFormNow()),
      false);
}

std::string Session::NextRequestId() {
  ++request_counter_;
  return "req-" + std::to_string(request_counter_);
}

void Session::HistoryReplaced() {
  ++history_epoch_;
  history_has_tool_changes_ = false;
  history_bytes_ = 0;
  for (RecordedItem& item : history_) {
    history_bytes_ += item.bytes.size();
    if (ItemType(item.json) == "tool_changes") history_has_tool_changes_ = true;
    if (item.serial == 0) item.serial = ++last_serial_;
  }
}

void Session::IssueRequest(EffectSink* sink) {
  std::string id = NextRequestId();
  const std::vector<PromptItem>& prompt = prompt_view_.Update(
      history_, history_epoch_, config_.model.supports_images, &prompt_cache_, ToolChangeFormNow());
  RenderedRequest request = dialect_->RenderTurn(
      BodyParamsFor(config_.model, nullptr, false), prompt, prompt_view_.stable_prefix(),
      ItemSegmentsOf(prompt), config_.DialectSettings(), now_ms_);
  SendRequest(std::move(id), "turn", request, std::string(), sink);
}

ProviderFeatures Session::FeaturesFor(const ModelConfig& model) const {
  return dialect_->ResolveFeatures(config_.provider_features, model.slug,
                                   dialect_->IsOfficial(config_.base_url), refused_features_);
}

void Session::RefuseFeature(ProviderFeature feature, std::string_view server_message,
                            EffectSink* sink) {
  refused_features_[feature] = true;
  const std::string name(ToWire(feature));
  std::string message = "the endpoint refused provider feature " + name + " (" +
                        std::string(server_message) +
                        "); it is off for the rest of the session and the request is sent again "
                        "without it";
  if (feature == ProviderFeature::kToolChanges && config_.tool_policy == ToolPolicy::kNative) {
    message +=
        "; tool_policy native acts as defer from now on (tool changes wait for the next "
        "compaction)";
  }
  sink->Warning(WarningCode::kProviderFeatureRefused, message);
  sink->Persist(ProviderFeatureRefusedLine(now_ms_, name, server_message));
  const bool compaction = request_->purpose == "compact";
  if (compaction) {
    IssueCompactionRequest(sink);
  } else {
    NoteRequestIssued();
    IssueRequest(sink);
  }
  if (request_) request_->resent_after_refusal = true;
}

void Session::SendRequest(std::string id, std::string_view purpose, const RenderedRequest& request,
                          std::string owned_body, EffectSink* sink) {
  // Explain the request against the previous one from the same cached pieces; a provider that
  // caches at marks is predicted by them.
  JsonValue report;
  if (request.rule) {
    PromptSegments marked = request.segments;  // views only
    marked.breakpoints = &*request.rule;
    report = explainer_.ExplainJson(id, marked);
    if (!request.marks.is_null()) report.Set("breakpoints", request.marks);
  } else {
    report = explainer_.ExplainJson(id, request.segments);
  }
  AnnotateToolChange(&report);  // a native tool change in this request: named, 0 tokens lost
  sink->Persist(CacheReportLine(now_ms_, report));
  JsonValue event = MakeEvent("cache_report");
  for (auto& m : report.members()) event.Set(m.key, m.value);
  sink->Event(std::move(event));

  request_ = PendingRequest{};  // not emplace(): clang-14 rejects it for this nested type
  request_->id = id;
  request_->purpose = std::string(purpose);
  request_->endpoint = std::string(request.endpoint);
  if (owned_body.empty()) {
    request_->body = request.body;
  } else {
    request_->owned_body = std::move(owned_body);
    request_->body = request_->owned_body;
  }
  request_->dialect = dialect_;
  request_->stream = dialect_->NewStream();
  request_->features = FeaturesFor(config_.model);
  // Only a prewarm's body uses the prewarm parameters (a refusal names them only there).
  if (purpose != "prewarm") request_->features.on[ProviderFeature::kPrewarm] = false;
  if (request_->features(ProviderFeature::kCacheDiagnostics)) {
    request_->comparison_id = last_response_id_;
    if (const JsonValue* b = report.Find("break"); b != nullptr && b->is_object()) {
      request_->engine_break_reason = std::string(b->GetString("reason").value_or(""));
    }
  }
  state_ = TurnState::kAwaitingModel;
  request_->headers = request.headers;
  sink->SetModelRequest(ModelRequestEffect{std::move(id), std::string(purpose),
                                           std::string(request.endpoint), 1, request_->body,
                                           request_->headers});
}

}  // namespace agentctx
