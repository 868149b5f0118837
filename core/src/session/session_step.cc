// SPDX-License-Identifier: MIT
// Step start (SPEC §6.5, §13.2): AGENTS.md refresh, world-state diffs recorded as context
// items, baseline + world_state line, turn_context, the user message, then the request built
// from cached item bytes and explained (SPEC §8.4, §9).
#include <algorithm>

#include "provider/responses/request_body.h"
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
  if (config_.task_frontier.enabled) {  // issue 16: the plan tool (session_frontier.cc)
    builtins.push_back({std::string(kUpdatePlanToolName), std::string(UpdatePlanSpecJson())});
  }
  tools_ = BuildToolList(builtins, config_.tools);
  // `apply` advertises every change at once; `defer` keeps the array byte-frozen until the next
  // compaction or resume (the first build always advertises).
  if (config_.tool_policy == ToolPolicy::kApply || advertised_tools_.array_bytes.empty()) {
    advertised_tools_ = tools_;
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
  RecordContext(turn_start, sink);
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
  NoteRequestIssued();  // issue 16: warmth-aware compaction (session_warmth.cc)
  IssueRequest(sink);
}

void Session::RecordContext(bool turn_start, EffectSink* sink) {
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
    rendered = world_.RenderTurnStart(baseline, views, inputs);
  } else {
    rendered = baseline ? world_.RenderStep(*baseline, inputs) : world_.RenderFull(inputs);
  }
  for (const auto& w : rendered.warnings) sink->Warning(w.code, w.message);
  if (config_.layout == PromptLayout::kPerRole) {
    // Codex 0.169 grouping (issue 15): one message per role for the pass, one part per
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

AnthropicCacheOptions Session::AnthropicOptions() const {
  AnthropicCacheOptions options;
  options.min_cacheable_tokens =
      config_.anthropic.min_cacheable_tokens
          ? static_cast<std::uint64_t>(*config_.anthropic.min_cacheable_tokens)
          : DefaultMinCacheableTokens(config_.model.slug);
  options.stable_ttl = config_.anthropic.cache_ttl;
  return options;
}

std::string_view Session::BuildProviderBody(const BodyParams& params,
                                            const std::vector<ItemSegment>& items,
                                            PromptSegments* segments) {
  if (config_.provider == Provider::kAnthropic) {
    return anthropic_builder_.Build(params, items, AnthropicOptions(), segments);
  }
  return chat_builder_.Build(params, items, segments);
}

JsonValue Session::BreakpointsInspect() const {
  std::vector<PromptItem> prompt =
      ForPrompt(history_, config_.model.supports_images, &prompt_cache_);
  AnthropicBodyBuilder builder;
  builder.Build(BodyParamsFor(config_.model, nullptr, false), ItemSegmentsOf(prompt),
                AnthropicOptions(), nullptr);
  JsonValue out = JsonValue::Object();
  out.Set("provider", JsonValue::String(std::string(ToWire(config_.provider))));
  out.Set("min_cacheable_tokens",
          JsonValue::Int(static_cast<std::int64_t>(AnthropicOptions().min_cacheable_tokens)));
  out.Set("breakpoints", BreakpointPlanToJson(builder.plan()));
  return out;
}

std::string Session::BuildBody(const std::vector<PromptItem>& prompt, bool compaction) const {
  std::vector<std::string_view> items;
  items.reserve(prompt.size());
  for (const auto& p : prompt) items.push_back(*p.bytes);
  BodyParams params = BodyParamsFor(config_.model, &items, compaction);
  if (config_.provider == Provider::kChat) {
    ChatBodyBuilder builder;
    return std::string(builder.Build(params, ItemSegmentsOf(prompt), nullptr));
  }
  if (config_.provider == Provider::kAnthropic) {
    AnthropicBodyBuilder builder;
    return std::string(builder.Build(params, ItemSegmentsOf(prompt), AnthropicOptions(), nullptr));
  }
  return BuildResponsesBody(params);
}

Result<std::string> Session::PromptPreview() const {
  return BuildBody(ForPrompt(history_, config_.model.supports_images, &prompt_cache_), false);
}

std::string Session::NextRequestId() {
  ++request_counter_;
  return "req-" + std::to_string(request_counter_);
}

void Session::HistoryReplaced() {
  ++history_epoch_;
  for (RecordedItem& item : history_) {
    if (item.serial == 0) item.serial = ++last_serial_;
  }
}

void Session::IssueRequest(EffectSink* sink) {
  std::string id = NextRequestId();
  const std::vector<PromptItem>& prompt =
      prompt_view_.Update(history_, history_epoch_, config_.model.supports_images, &prompt_cache_);
  if (config_.provider != Provider::kResponses) {
    // Issue 15: the same items rendered for Chat Completions or Anthropic Messages; the
    // explainer sees the provider's rendering.
    PromptSegments segments;
    segments.model = config_.model.slug;  // no cache_key: these bodies carry none to change
    std::string_view body = BuildProviderBody(BodyParamsFor(config_.model, nullptr, false),
                                              ItemSegmentsOf(prompt), &segments);
    SendRequest(std::move(id), "turn", ProviderEndpoint(config_.provider), std::string(), body,
                segments, sink,
                config_.provider == Provider::kAnthropic ? &anthropic_builder_.plan() : nullptr);
    return;
  }
  std::string_view body = body_builder_.Build(BodyParamsFor(config_.model, nullptr, false), prompt,
                                              prompt_view_.stable_prefix());

  // Explain the request against the previous one (SPEC §9) from the same cached pieces.
  // J(instructions), escaped again only when the instructions change (often kilobytes).
  if (config_.model.instructions != instructions_source_) {
    instructions_source_ = config_.model.instructions;
    instructions_json_ =
        instructions_source_.empty() ? std::string() : JsonString(instructions_source_);
  }
  PromptSegments segments;
  segments.model = config_.model.slug;
  segments.cache_key = config_.CacheKey();
  segments.instructions_bytes = instructions_json_;
  segments.tools_bytes = advertised_tools_.array_bytes;
  segments.items = ItemSegmentsOf(prompt);
  SendRequest(std::move(id), "turn", "responses", std::string(), body, segments, sink);
}

void Session::SendRequest(std::string id, std::string_view purpose, std::string_view endpoint,
                          std::string owned_body, std::string_view built_body,
                          const PromptSegments& segments, EffectSink* sink,
                          const BreakpointPlan* plan) {
  JsonValue report;
  if (plan == nullptr) {
    report = explainer_.ExplainJson(id, segments);
  } else {
    // Anthropic (issue 15): cached and written tokens follow the plan's marks.
    BreakpointRule rule = BreakpointRuleOf(*plan, AnthropicOptions().min_cacheable_tokens, now_ms_);
    PromptSegments marked = segments;  // views only
    marked.breakpoints = &rule;
    report = explainer_.ExplainJson(id, marked);
    report.Set("breakpoints", BreakpointPlanToJson(*plan));
  }
  sink->Persist(CacheReportLine(now_ms_, report));
  JsonValue event = MakeEvent("cache_report");
  for (auto& m : report.members()) event.Set(m.key, m.value);
  sink->Event(std::move(event));

  request_ = PendingRequest{};  // not emplace(): clang-14 rejects it for this nested type
  request_->id = id;
  request_->purpose = std::string(purpose);
  request_->endpoint = std::string(endpoint);
  if (built_body.empty()) {
    request_->owned_body = std::move(owned_body);
    request_->body = request_->owned_body;
  } else {
    request_->body = built_body;
  }
  state_ = TurnState::kAwaitingModel;
  sink->SetModelRequest(ModelRequestEffect{std::move(id), std::string(purpose),
                                           std::string(endpoint), 1, request_->body});
}

}  // namespace agentctx
