// SPDX-License-Identifier: MIT
// Session: creation, the mutating entry points that are not about the model stream or tools,
// and the read-only queries (docs/protocol.md).
#include "session/session.h"

#include "agentctx/version.h"
#include "rollout/rollout_writer.h"
#include "session/session_inputs.h"

namespace agentctx {
namespace {

// Every cwd a session starts with, and one an update sets or changes, must be an
// existing directory in its environment's FileSystem (once the environment is available), as the
// CLI requires of --cwd: otherwise invalid_config naming the path, and nothing starts or changes.
// Cwds an update leaves alone
// (`before`, the config in force) are not checked again (a directory removed since the session
// started does not block other changes).
Result<void> CheckCwds(const SessionConfig* before, const SessionConfig& next,
                       const FileSystemMap& fs) {
  for (std::size_t i = 0; i < next.environments.size(); ++i) {
    const EnvironmentConfig& env = next.environments[i];
    if (before != nullptr && i < before->environments.size() &&
        before->environments[i].cwd == env.cwd && before->environments[i].fs == env.fs) {
      continue;
    }
    if (env.status != EnvironmentStatus::kAvailable) continue;  // not ready: nothing to see yet
    auto it = fs.find(env.fs);
    if (it == fs.end()) continue;  // CheckFileSystems reports it
    const std::string where = "environments[" + std::to_string(i) + "].cwd " + env.cwd;
    auto stat = it->second->Stat(env.cwd);
    if (!stat) {
      return Fail(ErrorCode::kInvalidConfig,
                  where + " does not exist in FileSystem " + env.fs + " (" +
                      std::string(ErrorCodeName(stat.error().code)) + ")");
    }
    if (stat->kind != FileKind::kDir) {
      return Fail(ErrorCode::kInvalidConfig, where + " is not a directory");
    }
  }
  return {};
}

}  // namespace

Result<std::unique_ptr<Session>> Session::Create(SessionConfig config, FileSystemMap fs,
                                                 std::int64_t now_ms, EffectSink* sink) {
  std::vector<Warning> warnings;
  ACTX_TRY_VOID(CheckFileSystems(config, fs));
  ACTX_TRY_VOID(CheckCwds(nullptr, config, fs));
  std::unique_ptr<Session> s(new Session());
  s->config_ = std::move(config);
  s->dialect_ = MakeDialect(s->config_.provider);
  s->fs_ = std::move(fs);
  s->now_ms_ = now_ms < 0 ? 0 : now_ms;
  s->RebuildTools();
  for (const auto& w : s->tools_.warnings) warnings.push_back(w);

  EffectSink local;
  auto refreshed = s->RefreshAgents(&local);
  if (!refreshed) return Fail(ErrorCode::kAgentsMdLoadFailed, refreshed.error().message);
  sink->Persist(SessionMetaLine(s->now_ms_, s->config_.session_id, s->config_.environments[0].cwd,
                                ACTX_VERSION_STRING));
  for (const auto& w : warnings) sink->Warning(w.code, w.message);
  local.MoveEventsTo(sink);
  return s;
}

Result<void> Session::Submit(const SubmitInput& input, std::int64_t now_ms, EffectSink* sink) {
  if (state_ != TurnState::kIdle) {
    return Fail(ErrorCode::kTurnInProgress, "a turn is already in progress");
  }
  std::uint64_t input_bytes = input.text.size();
  for (const auto& image : input.images) input_bytes += image.size();
  if (auto refusal = HistoryLimitRefusal(input_bytes, "this message")) {
    return Fail(ErrorCode::kSessionTooLarge, std::move(*refusal));
  }
  JsonValue user_message = UserInputMessage(input.text, input.images);
  Advance(now_ms);
  BeginTurn(input.turn_id, sink);
  // Pre-turn compaction: compact before the turn's context and input are recorded.
  if (auto trigger = PreTurnTrigger()) {
    BeginCompaction(std::move(*trigger), std::move(user_message), sink);
    return {};
  }
  StartStep(/*turn_start=*/true, &user_message, sink);
  return {};
}

void Session::BeginTurn(const std::optional<std::string>& turn_id, EffectSink* sink) {
  ++turn_counter_;
  turn_id_ = turn_id ? *turn_id : "turn-" + std::to_string(turn_counter_);
  steps_in_turn_ = 0;
  last_agent_message_.reset();
  sink->Persist(TaskStartedLine(now_ms_, turn_id_));
  JsonValue started = MakeEvent("turn_started");
  started.Set("turn_id", JsonValue::String(turn_id_));
  sink->Event(std::move(started));
}

Result<void> Session::Update(const JsonValue& delta, std::int64_t now_ms, EffectSink* sink) {
  std::vector<Warning> warnings;
  ACTX_TRY(SessionConfig next, ApplyConfigDelta(config_, delta, &warnings));
  ACTX_TRY_VOID(CheckFileSystems(next, fs_));
  ACTX_TRY_VOID(CheckCwds(&config_, next, fs_));
  Advance(now_ms);
  // Takes effect at the next step boundary: requests already built are never altered.
  if (next.model.slug != config_.model.slug) compaction_stalled_ = false;  // stall_guard.h
  if (next.provider != config_.provider) dialect_ = MakeDialect(next.provider);
  config_ = std::move(next);
  compaction_floor_due_ = true;
  RebuildTools();
  for (const auto& w : warnings) sink->Warning(w.code, w.message);
  for (const auto& w : tools_.warnings) sink->Warning(w.code, w.message);
  AnswerCallsOfRemovedTools(sink);  // tool_policy native (session_tool_changes.cc)
  return {};
}

Result<void> Session::Tick(std::int64_t now_ms, EffectSink*) {
  Advance(now_ms);  // v1: tick only advances the clock
  return {};
}

Result<void> Session::Interrupt(std::int64_t now_ms, EffectSink* sink) {
  if (state_ == TurnState::kIdle) return {};
  Advance(now_ms);
  request_.reset();  // late deliveries become stale
  // Outputs already available are recorded in call order; missing ones get `aborted` through
  // for_prompt at the next request.
  // Only the available ones, each truncated like every recorded output (model.truncation).
  std::vector<PendingCall> available;
  for (auto& call : calls_) {
    if (call.output) available.push_back(std::move(call));
  }
  calls_ = std::move(available);
  RecordToolOutputs(sink);
  EndTurn("interrupted", sink);
  return {};
}

Result<void> Session::Retry(std::string_view request_id, std::int64_t now_ms, EffectSink* sink) {
  if (state_ != TurnState::kSuspended || !request_ || request_->id != request_id) {
    return Fail(ErrorCode::kInvalidState,
                "request " + std::string(request_id) + " is not waiting for a retry");
  }
  Advance(now_ms);
  request_->attempt += 1;
  request_->parser = SseParser();
  request_->stream = request_->dialect->NewStream();
  request_->output_items.clear();
  request_->terminal = false;
  last_completed_request_.clear();  // attempt 2's stream must end with a terminal event again
  state_ = TurnState::kAwaitingModel;
  sink->SetModelRequest(ModelRequestEffect{request_->id, request_->purpose, request_->endpoint,
                                           request_->attempt, request_->body, request_->headers});
  return {};
}

void Session::Record(JsonValue canonical_item, std::string origin, EffectSink* sink) {
  RecordedItem item = MakeRecordedItem(std::move(canonical_item), turn_id_, std::move(origin));
  item.serial = ++last_serial_;
  ++items_serialized_;
  sink->Persist(ResponseItemLine(now_ms_, item.bytes, item.turn_id, item.origin));
  JsonValue done = MakeEvent("item_done");
  done.Set("item", item.json);
  done.Set("origin", JsonValue::String(item.origin));
  sink->Event(std::move(done));
  history_bytes_ += item.bytes.size();
  history_.push_back(std::move(item));
}

void Session::EndTurn(std::string_view reason, EffectSink* sink) {
  if (reason == "interrupted") {
    sink->Persist(TurnAbortedLine(now_ms_, turn_id_, "interrupted"));
  } else {
    sink->Persist(TaskCompleteLine(now_ms_, turn_id_,
                                   last_agent_message_
                                       ? std::optional<std::string_view>(*last_agent_message_)
                                       : std::nullopt));
  }
  sink->SetTurnComplete(TurnCompleteEffect{turn_id_, std::string(reason), last_agent_message_});
  // A turn that ended in its pre-turn compaction never started with the current model.
  if (!compaction_ || !compaction_->pending_user_message) {
    previous_turn_model_ = config_.model.slug;
    previous_turn_model_config_ = config_.model;
  }
  state_ = TurnState::kIdle;
  request_.reset();
  calls_.clear();
  compaction_.reset();  // an interrupted or failed compaction leaves history unchanged
}

FileSystem* Session::PrimaryFileSystem() const {
  auto it = fs_.find(config_.environments[0].fs);
  return it == fs_.end() ? nullptr : it->second.get();
}

JsonValue Session::History() const {
  JsonValue out = JsonValue::Array();
  for (const auto& item : history_) {
    JsonValue entry = JsonValue::Object();
    entry.Set("item", item.json);
    entry.Set("turn_id", JsonValue::String(item.turn_id));
    entry.Set("origin", JsonValue::String(item.origin));
    out.Push(std::move(entry));
  }
  return out;
}

JsonValue Session::WorldStateSnapshot() const {
  return baseline_ ? *baseline_ : JsonValue::Object();
}

JsonValue Session::InstructionSources() const {
  JsonValue out = JsonValue::Array();
  for (const auto& s : agents_.instruction_sources()) out.Push(JsonValue::String(s));
  return out;
}

JsonValue Session::AgentsInspect() const { return agents_.Inspect(); }

JsonValue Session::Stats() const {
  JsonValue out = JsonValue::Object();
  out.Set("items", JsonValue::Int(static_cast<std::int64_t>(history_.size())));
  out.Set("items_serialized", JsonValue::Int(static_cast<std::int64_t>(
                                  items_serialized_ + prompt_cache_.serialized_count())));
  out.Set("requests", JsonValue::Int(request_counter_));
  out.Set("turns", JsonValue::Int(turn_counter_));
  out.Set("compactions", JsonValue::Int(static_cast<std::int64_t>(compaction_counter_)));
  return out;
}

}  // namespace agentctx
