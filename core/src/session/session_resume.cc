// SPDX-License-Identifier: MIT
// Resume (SPEC §13.3): the rollout alone rebuilds the session — history (newest compacted
// replacement + later items), the world-state baseline, the last turn_context (change detection
// and the previous model), counters. Not restored: the AGENTS.md cache (the first step reloads and
// diffs against the baseline), the explainer's predecessor, the tool freeze.
#include "rollout/resume_state.h"
#include "session/session.h"
#include "session/session_inputs.h"

namespace agentctx {

Result<std::unique_ptr<Session>> Session::Resume(const JsonValue& config,
                                                 std::string_view rollout_text, FileSystemMap fs,
                                                 std::int64_t now_ms, EffectSink* sink) {
  std::vector<Warning> warnings;
  ACTX_TRY(SessionConfig parsed, ParseSessionConfig(config, &warnings));
  ACTX_TRY_VOID(CheckFileSystems(parsed, fs));
  ACTX_TRY(ResumeState state, BuildResumeState(rollout_text, nullptr));
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
  s->fs_ = std::move(fs);
  s->now_ms_ = now_ms < 0 ? 0 : now_ms;
  s->RebuildTools();
  s->history_ = std::move(state.history);
  s->items_serialized_ = s->history_.size();
  s->baseline_ = std::move(state.baseline);
  if (state.turn_context) {
    if (auto model = state.turn_context->GetString("model")) s->previous_turn_model_ = *model;
    s->last_turn_context_ = std::move(state.turn_context);
  }
  s->turn_counter_ = static_cast<std::int64_t>(state.turn_counter);
  for (const auto& w : warnings) sink->Warning(w.code, w.message);
  for (const auto& w : state.warnings) sink->Warning(w.code, w.message);
  for (const auto& w : s->tools_.warnings) sink->Warning(w.code, w.message);
  for (const auto& c : state.unrebuilt_compactions) {
    sink->Warning("unsupported_item", "compacted line " + std::to_string(c.line_number) +
                                          " has no replacement_history; history kept as is");
  }
  return s;
}

}  // namespace agentctx
