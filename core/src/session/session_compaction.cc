// SPDX-License-Identifier: MIT
// Compaction in the session: when to compact, the compaction request, and
// the history replacement. The policy pieces are pure functions of core/src/compaction/.
// Flow:
//  1. Trigger: pre-turn on submit (PreTurnTrigger: model_switch with the previous
//     model, else pre_turn at the hard limit or, ours, by the cold-cache rule of
//     session_warmth.cc), mid-turn after a step's tool outputs (MaybeCompactMidTurn), or
//     manual compact() as its own turn. Automatic ones need compaction.auto, a context window
//     and no stall.
//  2. BeginCompaction: `compaction{phase:"started",trigger,strategy,tokens_before}` (tokens_after
//     and freed_bp are not known yet and are omitted), tokens_before = estimate_prompt;
//     IssueCompactionRequest: local → `responses` with for_prompt(history) + the summarization
//     message, the same instructions and tools array, tool_choice none, no parallel calls;
//     remote → `responses/compact` with the input trimmed by TrimRemoteInput
//     (remote_compaction.h). Both are explained (cache_report).
//  3. Answer: local SSE completes → summary from the last assistant message; remote
//     `model_response` → kept items. Local context_window_exceeded → drop the oldest input item
//     (and its outputs), warn compaction_trimmed, ask again; other non-retryable failures →
//     `compaction_failed` naming the code, history unchanged, turn failed.
//  4. FinishCompaction: release the tool freeze; new history (reinjected context before the
//     last user message when mid-turn, else baseline none); persist compacted → world_state
//     full + turn_context (reinjected only) → context_compacted; the explainer notes the
//     compaction; usage is forgotten; `compaction{phase:"completed"}`, warning long_thread, the
//     stall guard; then the turn continues (pre-turn: its start; mid-turn: the next step;
//     manual: turn_complete).
//  5. The floor (CheckCompactionFloor, ours): at the first turn start after session start,
//     resume or an update, when the auto limit is at or below the estimate of what no
//     compaction removes (instructions, tools, a full render of the initial context), one
//     `context_window_too_small` warning naming both numbers, at most once per session.
// Choices of our own: the compaction response's usage is reported
// (token_usage event, token_count line) but never becomes the session's usage; new history
// items keep origin `compaction` except reinjected context (its section id); the trimmed count
// in `compaction_trimmed` is cumulative for the compaction; a pre-turn compaction that fails or
// is interrupted drops the pending input and leaves the previous turn's model as it was.
#include "compaction/history_rebuild.h"
#include "compaction/reinjection.h"
#include "compaction/remote_compaction.h"
#include "compaction/request_trim.h"
#include "compaction/stall_guard.h"
#include "compaction/summary_request.h"
#include "compaction/token_accounting.h"
#include "rollout/rollout_writer.h"
#include "session/session.h"
#include "session/session_inputs.h"

namespace agentctx {
namespace {

constexpr std::string_view kManual = "manual";
constexpr std::string_view kMidTurn = "mid_turn";
constexpr std::string_view kPreTurn = "pre_turn";
constexpr std::string_view kModelSwitch = "model_switch";

std::string InstructionsBytes(const std::string& instructions) {
  return instructions.empty() ? std::string() : JsonString(instructions);
}

// The estimate view of a for_prompt result: history items with their JSON, synthetic and
// image-stripped ones as plain bytes.
std::vector<EstimateItem> EstimateItemsFor(const std::vector<PromptItem>& prompt,
                                           const std::vector<RecordedItem>& history) {
  std::vector<EstimateItem> out;
  out.reserve(prompt.size());
  for (const PromptItem& p : prompt) {
    const RecordedItem& source = history[p.history_index];
    bool own_bytes = !p.synthetic && p.bytes == &source.bytes;
    out.push_back(EstimateItem{own_bytes ? &source.json : nullptr, *p.bytes});
  }
  return out;
}

// The origin a prompt item is explained with (a view into `history`, never a temporary).
std::string_view OriginOf(const PromptItem& p, const std::vector<RecordedItem>& history) {
  return p.synthetic ? std::string_view("tool") : std::string_view(history[p.history_index].origin);
}

}  // namespace

JsonValue Session::CompactionEvent(std::string_view phase, std::string_view trigger,
                                   CompactionStrategy strategy, std::uint64_t before) {
  JsonValue e = MakeEvent("compaction");
  e.Set("phase", JsonValue::String(std::string(phase)));
  e.Set("trigger", JsonValue::String(std::string(trigger)));
  e.Set("strategy", JsonValue::String(std::string(ToWire(strategy))));
  e.Set("tokens_before", JsonValue::Int(static_cast<std::int64_t>(before)));
  return e;
}

Result<void> Session::Compact(const std::optional<std::string>& turn_id, std::int64_t now_ms,
                              EffectSink* sink) {
  if (state_ != TurnState::kIdle) {
    return Fail(ErrorCode::kTurnInProgress, "a turn is already in progress");
  }
  Advance(now_ms);
  BeginTurn(turn_id, sink);
  BeginCompaction(std::string(kManual), std::nullopt, sink);
  return {};
}

std::uint64_t Session::EstimateNextPrompt() const {
  std::vector<PromptItem> prompt =
      ForPrompt(history_, config_.model.supports_images, &prompt_cache_, ToolChangeFormNow());
  return EstimatePrompt(InstructionsBytes(config_.model.instructions),
                        advertised_tools_.array_bytes, EstimateItemsFor(prompt, history_));
}

std::uint64_t Session::ContextTokens() const {
  if (usage_tokens_) {
    return ContextTokensFromUsage(*usage_tokens_, 0,
                                  EstimateHistorySince(history_, usage_history_size_));
  }
  return EstimateNextPrompt();
}

std::optional<std::string> Session::PreTurnTrigger() const {
  if (!config_.compaction.auto_compact || compaction_stalled_ || history_.empty() ||
      ServerCompacts(config_.model)) {
    return std::nullopt;
  }
  std::optional<CompactionThresholds> current =
      ComputeThresholds(config_.model.context_window, config_.model.auto_compact_token_limit);
  if (!current) return std::nullopt;
  const std::uint64_t tokens = ContextTokens();
  if (previous_turn_model_config_ && previous_turn_model_config_->slug != config_.model.slug) {
    std::optional<CompactionThresholds> previous =
        ComputeThresholds(previous_turn_model_config_->context_window,
                          previous_turn_model_config_->auto_compact_token_limit);
    if (previous && previous->window > current->window &&
        (tokens > current->auto_limit || tokens >= current->window)) {
      return std::string(kModelSwitch);
    }
  }
  if (LimitReached(tokens, *current)) return std::string(kPreTurn);
  if (ColdCacheDecisionNow()) return std::string(kPreTurn);  // cold cache (session_warmth.cc)
  return std::nullopt;
}

bool Session::MaybeCompactMidTurn(EffectSink* sink) {
  if (!config_.compaction.auto_compact || compaction_stalled_ || ServerCompacts(config_.model)) {
    return false;
  }
  std::optional<CompactionThresholds> t =
      ComputeThresholds(config_.model.context_window, config_.model.auto_compact_token_limit);
  if (!t || !LimitReached(ContextTokens(), *t)) return false;
  BeginCompaction(std::string(kMidTurn), std::nullopt, sink);
  return true;
}

void Session::CheckCompactionFloor(EffectSink* sink) {
  compaction_floor_due_ = false;
  std::optional<CompactionThresholds> t =
      ComputeThresholds(config_.model.context_window, config_.model.auto_compact_token_limit);
  if (!t || compaction_floor_warned_) return;
  // What every compacted prompt still holds: the instructions, the tools and a full render of
  // the initial context (reinjected after a compaction, or rendered at the next turn start).
  std::vector<std::string> context_bytes;
  std::vector<JsonValue> context_items;
  for (const auto& message : world_.RenderFull(WorldInputsNow()).messages) {
    context_items.push_back(InputMessage(RoleName(message.role), message.parts));
  }
  std::vector<EstimateItem> estimate;
  for (const JsonValue& item : context_items) context_bytes.push_back(ToJson(item));
  for (std::size_t i = 0; i < context_items.size(); ++i) {
    estimate.push_back(EstimateItem{&context_items[i], context_bytes[i]});
  }
  const std::uint64_t floor =
      EstimatePrompt(InstructionsBytes(config_.model.instructions), tools_.array_bytes, estimate);
  if (floor < t->auto_limit) return;
  compaction_floor_warned_ = true;
  sink->Warning(WarningCode::kContextWindowTooSmall,
                "the auto-compaction limit is " + std::to_string(t->auto_limit) +
                    " tokens (model.context_window " + std::to_string(t->window) +
                    "), but the instructions, tools and initial context that no compaction "
                    "removes already take about " +
                    std::to_string(floor) +
                    " tokens: compaction cannot bring the prompt under the limit. Raise "
                    "model.context_window or model.auto_compact_token_limit, or shorten the "
                    "instructions, tools or AGENTS.md.");
}

void Session::BeginCompaction(std::string trigger, std::optional<JsonValue> pending_user_message,
                              EffectSink* sink) {
  CompactionRun run;
  run.inject = trigger == kMidTurn;
  run.model = trigger == kModelSwitch && previous_turn_model_config_ ? *previous_turn_model_config_
                                                                     : config_.model;
  run.strategy = CompactionRequestStrategy(run.model);
  run.tokens_before = EstimateNextPrompt();
  run.pending_user_message = std::move(pending_user_message);
  if (run.strategy == CompactionStrategy::kLocal) {
    run.summarization_bytes = ToJson(SummarizationMessage(config_.compaction.prompt));
  }
  if (trigger == kPreTurn) run.cold = ColdCacheDecisionNow();
  if (run.cold) cold_decisions_.push_back(*run.cold);
  run.trigger = std::move(trigger);
  JsonValue started = CompactionEvent("started", run.trigger, run.strategy, run.tokens_before);
  if (run.cold) AddColdCacheFields(*run.cold, &started);
  sink->Event(std::move(started));
  compaction_ = std::move(run);
  IssueCompactionRequest(sink);
}

void Session::IssueCompactionRequest(EffectSink* sink) {
  if (compaction_->strategy == CompactionStrategy::kInband) {
    IssueInbandCompaction(sink);  // session_provider_compaction.cc
    return;
  }
  CompactionRun& run = *compaction_;
  const bool local = run.strategy == CompactionStrategy::kLocal;
  std::vector<PromptItem> prompt =
      ForPrompt(history_, run.model.supports_images, &prompt_cache_, ToolChangeFormNow());
  std::string instructions_bytes = InstructionsBytes(run.model.instructions);

  std::vector<std::string> owned;  // remote: replaced tool outputs
  std::vector<std::string_view> bytes;
  std::vector<std::string_view> origins;
  std::vector<std::uint64_t> serials;  // local: the items' serials (0 for the summary prompt)
  if (local) {
    if (run.dropped.size() != prompt.size()) run.dropped.assign(prompt.size(), false);
    for (std::size_t i = 0; i < prompt.size(); ++i) {
      if (run.dropped[i]) continue;
      bytes.push_back(*prompt[i].bytes);
      origins.push_back(OriginOf(prompt[i], history_));
      serials.push_back(prompt[i].serial);
    }
    bytes.push_back(run.summarization_bytes);
    origins.push_back("compaction");
    serials.push_back(0);
  } else {
    std::vector<EstimateItem> items = EstimateItemsFor(prompt, history_);
    RemoteTrim trim;
    if (auto t = ComputeThresholds(run.model.context_window, run.model.auto_compact_token_limit)) {
      trim = TrimRemoteInput(instructions_bytes, advertised_tools_.array_bytes, items, t->usable);
    }
    owned.reserve(prompt.size());
    for (std::size_t i = 0; i < prompt.size(); ++i) {
      if (i < trim.replaced.size() && trim.replaced[i]) {
        owned.push_back(std::move(*trim.replaced[i]));
        bytes.push_back(owned.back());
      } else {
        bytes.push_back(*prompt[i].bytes);
      }
      origins.push_back(OriginOf(prompt[i], history_));
    }
  }

  // One-off items for the dialect: local ones keep their serials (their bytes are the history
  // items'), remote ones have none (trimmed outputs replace some bytes).
  std::vector<ItemSegment> items;
  items.reserve(bytes.size());
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    items.push_back(ItemSegment{bytes[i], origins[i], i < serials.size() ? serials[i] : 0});
  }
  BodyParams params = BodyParamsFor(run.model, nullptr, local);
  std::string body;
  std::optional<RenderedRequest> request;
  if (local) {
    request = dialect_->RenderOnce(params, items, config_.DialectSettings(), now_ms_, &body);
  } else {
    request = dialect_->RenderRemoteCompaction(params, items, &body);
  }
  if (!request) {  // the session config refuses remote compaction where the API has none
    FailCompaction("invalid_config", "this provider has no remote compaction", sink);
    return;
  }
  NoteRequestIssued();
  SendRequest(NextRequestId(), "compact", *request, std::move(body), sink);
}

bool Session::RetryTrimmedCompaction(EffectSink* sink) {
  if (!compaction_ || compaction_->strategy != CompactionStrategy::kLocal) return false;
  CompactionRun& run = *compaction_;
  std::vector<PromptItem> prompt =
      ForPrompt(history_, run.model.supports_images, &prompt_cache_, ToolChangeFormNow());
  if (run.dropped.size() != prompt.size()) run.dropped.assign(prompt.size(), false);
  std::vector<std::string> synthetic_types;  // storage for the synthetic outputs' types
  synthetic_types.reserve(prompt.size());
  std::vector<TrimItemRef> refs;
  std::vector<std::size_t> index;  // refs[i] is prompt[index[i]]
  for (std::size_t i = 0; i < prompt.size(); ++i) {
    if (run.dropped[i]) continue;
    const JsonValue& source = history_[prompt[i].history_index].json;
    if (prompt[i].synthetic) {
      synthetic_types.push_back(std::string(ItemType(source)) + "_output");
      refs.push_back(TrimItemRef{synthetic_types.back(), ItemCallId(source)});
    } else {
      refs.push_back(TrimItemRef{ItemType(source), ItemCallId(source)});
    }
    index.push_back(i);
  }
  std::vector<std::size_t> group = OldestItemGroup(refs);
  if (group.empty()) return false;
  for (std::size_t g : group) run.dropped[index[g]] = true;
  run.trimmed += group.size();
  sink->Warning(WarningCode::kCompactionTrimmed, CompactionTrimmedMessage(run.trimmed));
  explainer_.NoteCompaction();  // the request's input lost its head on purpose
  IssueCompactionRequest(sink);
  return true;
}

void Session::FailCompaction(std::string_view code, std::string_view message, EffectSink* sink) {
  sink->SetError(ErrorEffect{
      ErrorCode::kCompactionFailed,
      "compaction failed: " + std::string(code) + ": " + std::string(message), false,
      request_ ? std::optional<std::string>(request_->id) : std::nullopt, std::nullopt});
  EndTurn("failed", sink);
}

void Session::CompleteLocalCompaction(const JsonValue& event, EffectSink* sink) {
  EndRequestStream();
  std::vector<JsonValue> output = std::move(request_->output_items);
  std::string request_id = request_->id;
  ReportUsage(event, request_id, sink);  // reported, but never the session's usage
  std::string summary_text = SummaryTextFor(LastAssistantText(output));
  FinishCompaction(BuildCompactedHistory(history_, summary_text), summary_text, sink);
}

void Session::CompleteRemoteCompaction(std::string_view body, EffectSink* sink) {
  request_->terminal = true;
  std::vector<Warning> warnings;
  auto kept = ParseRemoteCompactionOutput(body, &warnings);
  for (const auto& w : warnings) sink->Warning(w.code, w.message);
  if (!kept) {
    FailCompaction(ErrorCodeName(kept.error().code), kept.error().message, sink);
    return;
  }
  EndRequestStream();
  FinishCompaction(std::move(*kept), "", sink);
}

void Session::FinishCompaction(std::vector<JsonValue> new_items, std::string_view message,
                               EffectSink* sink) {
  CompactionRun run = ApplyCompaction(std::move(new_items), message, sink);
  if (run.trigger == kManual) {
    EndTurn("completed", sink);
  } else if (run.pending_user_message) {
    StartStep(/*turn_start=*/true, &*run.pending_user_message, sink);
  } else {
    StartStep(/*turn_start=*/false, nullptr, sink);
  }
}

Session::CompactionRun Session::ApplyCompaction(std::vector<JsonValue> new_items,
                                                std::string_view message, EffectSink* sink) {
  CompactionRun run = std::move(*compaction_);
  compaction_.reset();
  advertised_tools_ = tools_;  // a compaction releases the `defer` tool freeze
  model_tools_ = tools_;       // and re-bases `native`: the next request carries the full list

  std::vector<std::string> origins(new_items.size(), "compaction");
  std::optional<JsonValue> baseline;
  if (run.inject) {
    // BeforeLastUserMessage (reinjection.h): this step's full initial context.
    context_budget_.reset();  // stale now; the next turn start shows the new usage
    WorldInputs inputs = WorldInputsNow();
    JsonValue snapshot = world_.BuildSnapshot(inputs);
    RenderResult rendered = world_.RenderFull(inputs);
    for (const auto& w : rendered.warnings) sink->Warning(w.code, w.message);
    // The provider's own compaction item stands for everything before it (Anthropic drops what
    // precedes it): the context goes after it.
    const bool provider_item =
        run.strategy == CompactionStrategy::kInband || run.strategy == CompactionStrategy::kServer;
    std::size_t at = provider_item ? new_items.size() : ReinjectionIndex(new_items);
    std::vector<JsonValue> items;
    std::vector<std::string> item_origins;
    for (std::size_t i = 0; i <= new_items.size(); ++i) {
      if (i == at) {
        for (const auto& m : rendered.messages) {
          items.push_back(InputMessage(RoleName(m.role), m.parts));
          item_origins.push_back(m.origin);
        }
      }
      if (i < new_items.size()) {
        items.push_back(std::move(new_items[i]));
        item_origins.push_back(std::move(origins[i]));
      }
    }
    new_items = std::move(items);
    origins = std::move(item_origins);
    baseline = world_.NextBaseline(nullptr, snapshot);
  }

  std::vector<RecordedItem> next;
  next.reserve(new_items.size());
  for (std::size_t i = 0; i < new_items.size(); ++i) {
    next.push_back(MakeRecordedItem(std::move(new_items[i]), turn_id_, std::move(origins[i])));
    ++items_serialized_;
  }
  history_ = std::move(next);
  HistoryReplaced();
  baseline_ = std::move(baseline);
  explainer_.NoteCompaction();
  usage_tokens_.reset();
  usage_history_size_ = 0;
  ++compaction_counter_;

  // Rollout lines, in order: compacted → world_state full and turn_context when reinjected →
  // context_compacted.
  std::vector<std::string_view> replacement;
  replacement.reserve(history_.size());
  for (const auto& item : history_) replacement.push_back(item.bytes);
  sink->Persist(CompactedLine(now_ms_, message, replacement));
  if (run.inject) {
    sink->Persist(WorldStateLine(now_ms_, true, *baseline_));
    PersistTurnContext(sink, /*force=*/true);
  }
  sink->Persist(ContextCompactedLine(now_ms_));

  // The stall guard (compaction/stall_guard.h): measure, report, guard.
  const std::uint64_t after = EstimateNextPrompt();
  const std::int64_t freed_bp = FreedBp(run.tokens_before, after);
  JsonValue done = CompactionEvent("completed", run.trigger, run.strategy, run.tokens_before);
  done.Set("tokens_after", JsonValue::Int(static_cast<std::int64_t>(after)));
  done.Set("freed_bp", JsonValue::Int(freed_bp));
  if (run.cold) AddColdCacheFields(*run.cold, &done);
  sink->Event(std::move(done));
  sink->Warning(WarningCode::kLongThread, kLongThreadMessage);
  compaction_stalled_ = IsStalled(freed_bp);
  if (compaction_stalled_) {
    sink->Warning(WarningCode::kCompactionStalled,
                  CompactionStalledMessage(freed_bp, run.tokens_before, after));
  }
  return run;
}

}  // namespace agentctx
