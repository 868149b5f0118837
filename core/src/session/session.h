// SPDX-License-Identifier: MIT
// Session: one conversation, driven by inputs and answering with effects (docs/protocol.md).
// Owns every cache: history with serialised item bytes, the world-state baseline, the
// AGENTS.md manager, the tool lists, the cache explainer. No I/O except through the injected
// FileSystems; no clock except `now_ms` inputs (clamped so time never goes backwards).
//
// Turn algorithm:
//  1. submit: persist task_started; step start with the turn-start diff; record the user message.
//  2. step start: refresh AGENTS.md; render world-state diffs and record them; set the baseline
//     and persist world_state; build the body from cached item bytes; explain it (cache_report);
//     emit model_request.
//  3. deliveries: SSE -> events; nothing is recorded before response.completed; then output
//     items are recorded, built-in tools run, host tools leave as tool_call effects.
//  4. once every call has an output: record outputs in call order; next step (2, step diff).
//  5. a response without tool calls ends the turn: task_complete + turn_complete.
// Compaction (session_compaction.cc): pre-turn on submit (before the turn's context
// and input), mid-turn after a step's tool outputs, or manual compact() as its own turn. A
// compaction request is issued like a step; its answer replaces history (DoNotInject or
// BeforeLastUserMessage), persists compacted → world_state full + turn_context (when
// reinjected) → context_compacted, and the turn continues where it was.
// Invariants: a rejected call changes nothing; history is append-only (only a completed
// compaction replaces it); every request body is a concatenation of cached bytes.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "agentctx/file_system.h"
#include "agentctx/result.h"
#include "agents_md/manager.h"
#include "compaction/warmth.h"
#include "prompt/for_prompt.h"
#include "prompt/prompt_view.h"
#include "prompt/tool_list.h"
#include "protocol/items.h"
#include "protocol/sse_parser.h"
#include "protocol/task_frontier.h"
#include "provider/cache/cache_explainer.h"
#include "provider/cache/cold_cache.h"
#include "provider/dialect.h"
#include "session/config.h"
#include "session/effects.h"
#include "session/session_inputs.h"
#include "world_state/world_state.h"

namespace agentctx {

using FileSystemMap = std::map<std::string, std::shared_ptr<FileSystem>>;

class Session {
 public:
  /// `session.start`: checks the FileSystems, loads AGENTS.md, persists session_meta. The
  /// config was parsed and validated at the boundary (ParseSessionConfig, which also yields its
  /// `unknown_config_key` warnings for the caller to emit).
  static Result<std::unique_ptr<Session>> Create(SessionConfig config, FileSystemMap fs,
                                                 std::int64_t now_ms, EffectSink* sink);

  /// `session.resume`: rebuilds history, baseline and counters from rollout text without any
  /// FileSystem access; the first step then reloads AGENTS.md and appends only what changed.
  static Result<std::unique_ptr<Session>> Resume(SessionConfig config,
                                                 std::string_view rollout_text, FileSystemMap fs,
                                                 std::int64_t now_ms, EffectSink* sink);

  Result<void> Submit(const SubmitInput& input, std::int64_t now_ms, EffectSink* sink);
  Result<void> Deliver(const JsonValue& delivery, std::int64_t now_ms, EffectSink* sink);
  Result<void> Update(const JsonValue& delta, std::int64_t now_ms, EffectSink* sink);
  Result<void> Tick(std::int64_t now_ms, EffectSink* sink);
  Result<void> Interrupt(std::int64_t now_ms, EffectSink* sink);
  Result<void> Retry(std::string_view request_id, std::int64_t now_ms, EffectSink* sink);
  /// `compact`, the manual compaction: idle only (else kTurnInProgress); its own turn
  /// (turn_started … turn_complete), under `turn_id` (default `turn-<n>`).
  Result<void> Compact(const std::optional<std::string>& turn_id, std::int64_t now_ms,
                       EffectSink* sink);

  // Queries: no effects, no FileSystem calls.
  JsonValue History() const;
  JsonValue WorldStateSnapshot() const;
  JsonValue InstructionSources() const;
  JsonValue AgentsInspect() const;
  Result<std::string> PromptPreview() const;
  /// `inspect` format `breakpoints`: the provider and the mark plan of the next request as a
  /// provider that caches at marks would place it (PreviewCacheMarks).
  JsonValue BreakpointsInspect() const;
  /// The explainer's summary (`cache_summary`), plus (ours) `compaction_decisions` when a
  /// cold-cache compaction happened (session_warmth.cc).
  /// `prices` (cache_summary's input): add the cost at those prices (CacheExplainer::Summary).
  JsonValue CacheSummary(const TypedPrices* prices = nullptr) const;
  JsonValue Stats() const;

 private:
  enum class TurnState { kIdle, kAwaitingModel, kAwaitingTools, kSuspended };

  struct PendingRequest {
    std::string id;
    std::string purpose;
    std::string endpoint;
    std::string owned_body;  // one-off bodies; turn bodies live in the dialect's builder
    std::string_view body;   // the bytes sent (owned_body or the dialect's turn buffer)
    std::vector<std::pair<std::string, std::string>> headers;  // HTTP headers the body needs
    std::int64_t attempt = 1;
    SseParser parser;
    // The dialect that rendered the request (kept alive for `body` and retries even if the
    // provider changes meanwhile) and its stream adapter for this attempt (null: Responses).
    std::shared_ptr<Dialect> dialect;
    std::unique_ptr<StreamAdapter> stream;
    ProviderFeatures features;  // the features its body uses
    // Cache diagnostics: the response the body names (empty: none) and the explainer's break
    // reason of this request (empty: no break), compared when the response completes.
    std::string comparison_id;
    std::string engine_break_reason;
    bool resent_after_refusal = false;  // a second refusal is an ordinary error
    std::vector<JsonValue> output_items;
    bool terminal = false;
    bool dropped_oversized_event = false;  // sse_event_too_large: the stream cannot complete
    std::uint64_t streamed_bytes = 0;      // `sse` bytes of this attempt (response_limits.h)
  };

  // One compaction in progress (session_compaction.cc).
  struct CompactionRun {
    std::string trigger;  // pre_turn | mid_turn | manual | model_switch
    CompactionStrategy strategy = CompactionStrategy::kLocal;
    bool inject = false;  // BeforeLastUserMessage (mid-turn) vs DoNotInject
    ModelConfig model;    // the model that compacts (the previous one for model_switch)
    std::uint64_t tokens_before = 0;
    std::optional<JsonValue> pending_user_message;  // pre-turn: recorded after the compaction
    std::string summarization_bytes;                // local: the trailing prompt message
    std::vector<bool> dropped;                      // local: for_prompt items trimmed away
    std::uint64_t trimmed = 0;
    std::optional<ColdCacheDecision> cold;  // set when the cold-cache rule decided it
  };

  struct PendingCall {
    std::string call_id;
    std::string call_type;  // function_call | custom_tool_call
    std::string name;       // the advertised name the model called
    bool host = false;
    std::optional<JsonValue> output;  // string or parts array
  };

  Session() = default;
  void Advance(std::int64_t now_ms) {
    if (now_ms > now_ms_) now_ms_ = now_ms;
  }

  // session_step.cc
  void StartStep(bool turn_start, const JsonValue* user_input, EffectSink* sink);
  Result<void> RefreshAgents(EffectSink* sink);
  /// Records the world-state diff as context items; with `system_notices` (the provider's
  /// system_messages feature on, SystemNoticesAllowed), the harness's own notices are returned
  /// there instead (world_state.h) for RecordSystemNotices.
  void RecordContext(bool turn_start, std::vector<SectionFragment>* system_notices,
                     EffectSink* sink);
  /// system_messages on, and the step's new items end with a user message or tool results.
  bool SystemNoticesAllowed(bool turn_start, const JsonValue* user_message) const;
  /// One `role: "system"` message with a part per notice, after the user message or tool
  /// results (docs/providers.md); nothing when there is none.
  void RecordSystemNotices(const std::vector<SectionFragment>& notices, EffectSink* sink);
  void IssueRequest(EffectSink* sink);
  /// Request fields from a model (the current one, or the previous one for a model-switch
  /// compaction) and the session config; `items` must outlive the returned params.
  BodyParams BodyParamsFor(const ModelConfig& model, const std::vector<std::string_view>* items,
                           bool compaction) const;
  /// The body of a one-off request for `prompt` (PromptPreview).
  std::string BuildBody(const std::vector<PromptItem>& prompt, bool compaction) const;
  /// The explainer's item segments of a for_prompt view (bytes, origin, serial).
  std::vector<ItemSegment> ItemSegmentsOf(const std::vector<PromptItem>& prompt) const;
  /// The provider features of a request for `model` now (config, endpoint, refusals).
  ProviderFeatures FeaturesFor(const ModelConfig& model) const;
  /// The endpoint refused `feature` (HTTP 400 naming its parameter) for the pending request:
  /// off for the rest of the session, one provider_feature_refused warning, persisted, and the
  /// request sent again without it.
  void RefuseFeature(ProviderFeature feature, std::string_view server_message, EffectSink* sink);
  /// Events of one framed SSE event for the pending request, in the Responses language.
  void HandleProviderEvent(const JsonValue& event, EffectSink* sink);
  void PersistTurnContext(EffectSink* sink, bool force = false);
  /// Explains `request` (cache_report persisted + event; with marks, the explainer predicts by
  /// them and the report carries the plan) and emits its model_request. `owned_body` holds the
  /// bytes of a one-off request (moved into the pending request; `request.body` views it).
  void SendRequest(std::string id, std::string_view purpose, const RenderedRequest& request,
                   std::string owned_body, EffectSink* sink);
  /// History was replaced (compaction, resume): new epoch, serials for unnumbered items.
  void HistoryReplaced();
  std::string NextRequestId();

  // session_stream.cc
  /// The pending request reached its terminal event: its stream is over for the engine, and
  /// what the provider still sends on it (a provider's end-of-stream sentinel, the host's `end`) is
  /// framed by completed_stream_tail_.
  void EndRequestStream();
  /// A `model_events` delivery for the last completed request that only closes its stream
  /// (no event left in it): true, and nothing to do.
  bool ClosesCompletedStream(const JsonValue& delivery);
  void HandleModelEvent(const JsonValue& event, EffectSink* sink);
  /// Why recording `more` bytes of `what` would take history past config max_history_bytes
  /// (session_too_large), or nullopt when it fits. The bound keeps a session's memory finite:
  /// a few maximal responses once trapped the WASI guest (docs/RELIABILITY.md).
  std::optional<std::string> HistoryLimitRefusal(std::uint64_t more, std::string_view what) const;
  void CompleteResponse(const JsonValue& event, EffectSink* sink);
  /// response.completed: notes the response id (the next request's comparison) and, when the
  /// request named a previous response, the provider's cache verdict beside the explainer's
  /// (cache_diagnosis event, persisted).
  void NoteCacheDiagnosis(const JsonValue& event, EffectSink* sink);
  /// response.completed: the context edits the provider applied to the request (Anthropic
  /// `applied_edits`): the explainer's `context_edited` break, a context_edit event, persisted
  /// for the replay (session_context_edits.cc).
  void NoteContextEdits(const JsonValue& event, EffectSink* sink);
  void FailRequest(ErrorCode code, std::string message, bool retryable,
                   std::optional<std::int64_t> retry_after_ms, EffectSink* sink);
  /// Persists token_count and emits token_usage for a completed response (turn step or local
  /// compaction); returns its input + output tokens, or nullopt without usage.
  std::optional<std::uint64_t> ReportUsage(const JsonValue& event, const std::string& request_id,
                                           EffectSink* sink);

  // session_compaction.cc
  std::uint64_t ContextTokens() const;
  std::uint64_t EstimateNextPrompt() const;
  std::optional<std::string> PreTurnTrigger() const;
  bool MaybeCompactMidTurn(EffectSink* sink);
  /// Turn start, when due (session start, resume, update): one `context_window_too_small`
  /// warning per session when the auto limit is at or below what compaction cannot remove
  /// (instructions, tools and the full initial context, estimated as estimate_prompt).
  void CheckCompactionFloor(EffectSink* sink);
  void BeginCompaction(std::string trigger, std::optional<JsonValue> pending_user_message,
                       EffectSink* sink);
  void IssueCompactionRequest(EffectSink* sink);
  void CompleteLocalCompaction(const JsonValue& event, EffectSink* sink);
  void CompleteRemoteCompaction(std::string_view body, EffectSink* sink);
  bool RetryTrimmedCompaction(EffectSink* sink);
  void FailCompaction(std::string_view code, std::string_view message, EffectSink* sink);
  void FinishCompaction(std::vector<JsonValue> new_items, std::string_view message,
                        EffectSink* sink);
  /// FinishCompaction without the continuation: history replaced, reinjected, persisted,
  /// `compaction{completed}`; returns the finished run.
  CompactionRun ApplyCompaction(std::vector<JsonValue> new_items, std::string_view message,
                                EffectSink* sink);

  // session_provider_compaction.cc (strategies inband and server, docs/compaction-timing.md)
  /// The strategy the engine's own compaction request of `model` uses now: inband and server
  /// (whose own requests are in-band) need feature inband_compaction, else local.
  CompactionStrategy CompactionRequestStrategy(const ModelConfig& model) const;
  /// The provider's compaction threshold (strategy server, feature on, a context window: the
  /// auto-compaction limit), sent with every turn request; nullopt otherwise.
  std::optional<std::int64_t> ServerCompactThreshold(const ModelConfig& model) const;
  /// True when the provider compacts at the threshold: the engine's automatic compactions
  /// are off.
  bool ServerCompacts(const ModelConfig& model) const {
    return ServerCompactThreshold(model).has_value();
  }
  /// `compaction{phase,trigger,strategy,tokens_before}`.
  static JsonValue CompactionEvent(std::string_view phase, std::string_view trigger,
                                   CompactionStrategy strategy, std::uint64_t before);
  /// The in-band compaction request: the turn body of for_prompt(history) + the trigger.
  void IssueInbandCompaction(EffectSink* sink);
  /// The in-band compaction's response: its `compaction` item becomes history (an answer
  /// without one fails the compaction, history unchanged).
  void CompleteInbandCompaction(const JsonValue& event, EffectSink* sink);
  /// A turn response that carries a `compaction` item (server compaction): history becomes the
  /// item plus the reinjected context, and `*items` keeps only the output after it. False (and
  /// nothing done) when there is none.
  bool ApplyServerCompaction(std::vector<JsonValue>* items, EffectSink* sink);

  // session_tools.cc
  void DispatchToolCalls(EffectSink* sink);
  void MaybeFinishTools(EffectSink* sink);
  void RecordToolOutputs(EffectSink* sink);

  // session_tool_changes.cc (tool_policy native)
  /// tool_policy native with the provider's tool_changes feature on for the model.
  bool NativeToolChangesOn() const;
  /// The policy in effect: native acts as defer where the feature is off.
  ToolPolicy EffectiveToolPolicy() const;
  /// How `tool_changes` items reach the current provider (for_prompt.h).
  ToolChangeForm ToolChangeFormNow() const;
  /// Step start, after the user message or tool results: records the difference between
  /// model_tools_ and tools_ as one `tool_changes` item (or warns tool_policy_fallback once).
  void RecordToolChanges(EffectSink* sink);
  /// `update` under native: host calls still running whose tool was removed get a tool error.
  void AnswerCallsOfRemovedTools(EffectSink* sink);
  /// Adds the pending `tool_change` note (names, lost_tokens 0) to a cache report.
  void AnnotateToolChange(JsonValue* report);

  // session_frontier.cc (task frontier and context budget)
  /// The world-state inputs of this step (config, AGENTS.md, tools, task frontier).
  WorldInputs WorldInputsNow() const;
  /// A turn's user message: the first one becomes the frontier's goal.
  void NoteUserMessage(const JsonValue& message);
  /// Runs the `update_plan` built-in; returns its output text.
  std::string RunUpdatePlan(std::string_view arguments);
  /// Resume: the frontier from the newest world-state snapshot that had one.
  void RestoreFrontier(const std::optional<JsonValue>& snapshot);
  /// Turn start: fixes the `<context_budget>` value for the turn (docs/context-budget.md).
  void NoteContextBudget();

  // session_warmth.cc (warmth-aware compaction, docs/compaction-timing.md)
  /// The cold-cache rule (compaction/warmth.h) at this turn start, or nullopt.
  std::optional<ColdCacheDecision> ColdCacheDecisionNow() const;
  /// Records that a model request is issued now (the provider's cache is warm from here).
  void NoteRequestIssued() { last_request_ms_ = now_ms_; }
  /// The provider's cache is cold now (provider/cache/cold_cache.h): the estimate of the next
  /// request, or nullopt when warm or the last request's time is unknown.
  std::optional<ColdCacheEstimate> ColdCacheNow() const;
  /// `prewarm: auto`, feature prewarm on and PrewarmPays.
  bool PrewarmWanted(const ColdCacheEstimate& cold) const;
  /// The `cache_cold` event (once per idle gap: resume, else the turn start).
  void WarnColdCache(const ColdCacheEstimate& cold, std::string_view trigger, EffectSink* sink);
  /// Turn start: warns of a cold cache and, when wanted, issues the prewarm request (the turn
  /// request follows its response); false when the turn request goes now.
  bool PrewarmFirst(EffectSink* sink);
  /// The prewarm's response: usage recorded, no output kept; then the turn request.
  void CompletePrewarm(const JsonValue& event, EffectSink* sink);

  // session.cc
  /// A new turn (submit or manual compaction): its id (default `turn-<n>`), task_started and
  /// turn_started.
  void BeginTurn(const std::optional<std::string>& turn_id, EffectSink* sink);
  void Record(JsonValue canonical_item, std::string origin, EffectSink* sink);
  void EndTurn(std::string_view reason, EffectSink* sink);
  FileSystem* PrimaryFileSystem() const;
  void RebuildTools();

  SessionConfig config_;
  FileSystemMap fs_;
  std::int64_t now_ms_ = 0;

  std::vector<RecordedItem> history_;
  std::uint64_t history_bytes_ = 0;  // Σ bytes of history_ (config max_history_bytes)
  std::uint64_t history_epoch_ = 0;  // bumped when history is replaced, not appended to
  std::uint64_t last_serial_ = 0;    // RecordedItem::serial of the newest item
  mutable PromptItemCache prompt_cache_;
  PromptView prompt_view_;  // for_prompt(history_), kept incrementally
  // The provider's dialect (renders bodies, reads streams and errors); replaced only when the
  // provider changes.
  std::shared_ptr<Dialect> dialect_;
  PerFeature<bool> refused_features_;  // features the endpoint refused (persisted)
  AgentsMdManager agents_;
  std::optional<JsonValue> baseline_;
  ToolList tools_;             // the current tool set (config)
  ToolList advertised_tools_;  // what requests send; `defer` freezes it until compaction/resume
  ToolList model_tools_;       // native: advertised_tools_ plus the recorded tool changes
  bool history_has_tool_changes_ = false;        // a `tool_changes` item is in history
  bool tool_policy_fallback_warned_ = false;     // tool_policy_fallback said (once per session)
  std::optional<JsonValue> tool_change_report_;  // the next cache_report's `tool_change`
  WorldStateRegistry world_ = WorldStateRegistry::WithBuiltins();
  CacheExplainer explainer_;
  std::string last_response_id_;      // the newest completed response's id (diagnostics)
  DiagnosisTotals diagnosis_totals_;  // the provider verdicts against the explainer's
  std::optional<JsonValue> last_turn_context_;
  std::optional<std::string> previous_turn_model_;
  std::optional<ModelConfig> previous_turn_model_config_;  // for the model_switch trigger

  TurnState state_ = TurnState::kIdle;
  std::string turn_id_;
  std::int64_t turn_counter_ = 0;
  std::int64_t steps_in_turn_ = 0;
  std::int64_t request_counter_ = 0;
  std::optional<PendingRequest> request_;
  std::string last_completed_request_;  // the last request whose stream reached a terminal event
  SseParser completed_stream_tail_;     // that stream's framing after its terminal event
  std::vector<PendingCall> calls_;
  std::optional<std::string> last_agent_message_;
  std::uint64_t items_serialized_ = 0;

  // Token accounting (compaction/token_accounting.h): last turn-step usage (input + output) and
  // the history size right after that response's output; none at first, after a compaction, or
  // on resume without a token_count.
  std::optional<std::uint64_t> usage_tokens_;
  std::size_t usage_history_size_ = 0;
  std::optional<CompactionRun> compaction_;
  bool compaction_stalled_ = false;       // the stall guard (compaction/stall_guard.h)
  bool compaction_floor_due_ = true;      // CheckCompactionFloor at the next turn start
  bool compaction_floor_warned_ = false;  // context_window_too_small said (once per session)
  std::uint64_t compaction_counter_ = 0;
  // Task frontier: goal (the first user message), latest plan and explanation; the
  // host-set goal and the rules come from config_.task_frontier.
  TaskFrontier frontier_;
  // Warmth-aware compaction: when the last model request was issued (restored from
  // the rollout's newest cache_report line), and the cold-cache decisions for cache_summary.
  std::optional<std::int64_t> last_request_ms_;
  std::vector<ColdCacheDecision> cold_decisions_;
  // Cold caches: the last_request_ms_ whose idle gap was already reported (cache_cold).
  std::optional<std::int64_t> cold_warned_for_ms_;
  // Context budget: the value computed at the current turn's start.
  std::optional<ContextBudgetInputs> context_budget_;
};

}  // namespace agentctx
