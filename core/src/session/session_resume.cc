// SPDX-License-Identifier: MIT
// Resume: the rollout alone rebuilds the session — history (newest compacted
// replacement + later items), the world-state baseline, the last turn_context (change detection
// and the previous model), counters. Not restored: the AGENTS.md cache (the first step reloads and
// diffs against the baseline), the tool freeze, the explainer predecessor's bytes (it gets the
// last request's provider, model and size: a namespace change at the resume is still named).
#include "compaction/history_rebuild.h"
#include "rollout/resume_state.h"
#include "session/session.h"
#include "session/session_inputs.h"

namespace agentctx {

Result<std::unique_ptr<Session>> Session::Resume(SessionConfig parsed,
                                                 std::string_view rollout_text, FileSystemMap fs,
                                                 std::int64_t now_ms, EffectSink* sink) {
  ACTX_TRY_VOID(CheckFileSystems(parsed, fs));
  // A Codex `compacted` without replacement_history is rebuilt as a local compaction would.
  const CompactionRebuilder rebuilder = [](const std::vector<RecordedItem>& history,
                                           std::string_view message) {
    return RebuildCompactedHistory(history, message);
  };
  ACTX_TRY(ResumeState state, BuildResumeState(rollout_text, &rebuilder));
  if (!state.session_meta) {
    return Fail(ErrorCode::kRolloutCorrupt, "the rollout has no session_meta line");
  }
  auto id = state.session_meta->GetString("id");
  if (!id || *id != parsed.session_id) {
    return Fail(ErrorCode::kInvalidConfig, "session_id `" + parsed.session_id +
                                               "` does not match the rollout's `" +
                                               std::string(id.value_or("")) + "`");
  }
  std::unique_ptr<Session> s(new Session());
  s->config_ = std::move(parsed);
  s->dialect_ = MakeDialect(s->config_.provider);
  s->fs_ = std::move(fs);
  s->now_ms_ = now_ms < 0 ? 0 : now_ms;
  s->RebuildTools();
  s->history_ = std::move(state.history);
  s->HistoryReplaced();
  s->items_serialized_ = s->history_.size();
  s->baseline_ = std::move(state.baseline);
  s->RestoreFrontier(state.latest_snapshot);    // kept across compactions
  s->last_request_ms_ = state.last_request_ms;  // for warmth-aware compaction
  s->last_response_id_ = state.last_response_id;
  for (const std::string& name : state.refused_features) {
    if (auto f = FromWire<ProviderFeature>(name)) s->refused_features_[*f] = true;
  }
  if (state.turn_context) {
    if (auto model = state.turn_context->GetString("model")) {
      s->previous_turn_model_ = *model;
      // The previous model's window is only known when it is the configured one.
      if (*model == s->config_.model.slug) s->previous_turn_model_config_ = s->config_.model;
    }
    // The request before the resume (when one was sent), for the explainer to name a provider
    // or model change at the resume.
    if (state.last_request_ms || state.token_usage) {
      s->explainer_.SeedPredecessorFromTurnContext(*state.turn_context,
                                                   state.last_request_prompt_bytes);
    }
    s->last_turn_context_ = std::move(state.turn_context);
  }
  // Token accounting: the last usage since the newest compaction, and where it was taken.
  if (state.token_usage) {
    if (const JsonValue* last = state.token_usage->Find("last_token_usage")) {
      auto in = last->GetInt("input_tokens").value_or(0);
      auto out = last->GetInt("output_tokens").value_or(0);
      s->usage_tokens_ = static_cast<std::uint64_t>(in > 0 ? in : 0) +
                         static_cast<std::uint64_t>(out > 0 ? out : 0);
      s->usage_history_size_ = static_cast<std::size_t>(state.history_size_at_token_usage);
    }
  }
  s->compaction_counter_ = state.compaction_counter;
  s->turn_counter_ = static_cast<std::int64_t>(state.turn_counter);
  for (const auto& w : state.warnings) sink->Warning(w.code, w.message);
  // Before the first request of the resumed session: a cold cache and its cost.
  if (auto cold = s->ColdCacheNow()) s->WarnColdCache(*cold, "resume", sink);
  for (const auto& w : s->tools_.warnings) sink->Warning(w.code, w.message);
  for (const auto& c : state.unrebuilt_compactions) {
    sink->Warning(WarningCode::kUnsupportedItem,
                  "compacted line " + std::to_string(c.line_number) +
                      " has no replacement_history; history kept as is");
  }
  return s;
}

}  // namespace agentctx
