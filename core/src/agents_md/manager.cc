// SPDX-License-Identifier: MIT
// The AGENTS.md cache. See manager.h for the numbered algorithm.
#include "agents_md/manager.h"

#include <utility>

#include "agents_md/assembly.h"
#include "agents_md/config.h"

namespace agentctx {

AgentsMdCacheKey AgentsMdCacheKey::From(const AgentsMdInputs& inputs) {
  AgentsMdCacheKey key;
  for (const EnvironmentSelection& env : inputs.environments) {
    if (env.ready) key.selections.push_back(env);
  }
  key.trusted = inputs.trusted;
  key.config = inputs.config;
  return key;
}

bool AgentsMdCacheKey::operator==(const AgentsMdCacheKey& other) const {
  if (trusted != other.trusted || config != other.config) return false;
  if (selections.size() != other.selections.size()) return false;
  for (std::size_t i = 0; i < selections.size(); ++i) {
    if (!selections[i].SameSelection(other.selections[i])) return false;
  }
  return true;
}

std::string_view AgentsMdCacheStatusName(AgentsMdCacheStatus status) {
  switch (status) {
    case AgentsMdCacheStatus::kNone:
      return "none";
    case AgentsMdCacheStatus::kHit:
      return "hit";
    case AgentsMdCacheStatus::kMiss:
      return "miss";
    case AgentsMdCacheStatus::kProbeChanged:
      return "probe_changed";
    case AgentsMdCacheStatus::kFailed:
      return "failed";
  }
  return "none";
}

void AgentsMdManager::Clear() {
  key_.reset();
  loaded_ = AgentsMdResult{};
  loaded_generation_ = 0;
  probes_.Clear();
}

std::optional<AgentsMdLoadTicket> AgentsMdManager::BeginRefresh(const AgentsMdInputs& inputs) {
  AgentsMdCacheKey key = AgentsMdCacheKey::From(inputs);
  last_mode_ = inputs.config.refresh;
  AgentsMdCacheStatus cause = AgentsMdCacheStatus::kMiss;
  if (key_.has_value() && *key_ == key) {
    // Step 1. Selection mode: no FileSystem call at all.
    if (inputs.config.refresh == AgentsMdRefresh::kSelection || !probes_.Changed(inputs)) {
      last_status_ = AgentsMdCacheStatus::kHit;
      return std::nullopt;
    }
    cause = AgentsMdCacheStatus::kProbeChanged;
  }
  // Step 2.
  Clear();
  last_status_ = cause;
  last_warnings_.clear();
  last_error_.reset();
  AgentsMdLoadTicket ticket;
  ticket.generation = ++generation_;
  ticket.key = std::move(key);
  ticket.cause = cause;
  if (inputs.config.refresh == AgentsMdRefresh::kSelection) ticket.cached_global = global_;
  return ticket;
}

Result<AgentsMdLoad> AgentsMdManager::Load(const AgentsMdInputs& inputs,
                                           const AgentsMdLoadTicket& ticket) {
  const GlobalDoc* cached = ticket.cached_global ? &*ticket.cached_global : nullptr;
  return LoadAgentsMd(inputs, cached);
}

bool AgentsMdManager::Commit(const AgentsMdLoadTicket& ticket, AgentsMdLoad load) {
  if (ticket.generation != generation_) return false;  // a newer load started: discard
  key_ = ticket.key;
  loaded_ = std::move(load.result);
  loaded_generation_ = ticket.generation;
  global_ = std::move(load.global);
  probes_ = std::move(load.probes);
  last_status_ = ticket.cause;
  last_warnings_ = std::move(load.warnings);
  last_error_.reset();
  return true;
}

void AgentsMdManager::RecordFailure(const AgentsMdLoadTicket& ticket, const Error& error) {
  if (ticket.generation != generation_) return;
  last_status_ = AgentsMdCacheStatus::kFailed;
  last_warnings_.clear();
  last_error_ = error;
}

Result<RefreshOutcome> AgentsMdManager::Refresh(const AgentsMdInputs& inputs) {
  RefreshOutcome outcome;
  std::optional<AgentsMdLoadTicket> ticket = BeginRefresh(inputs);
  if (!ticket.has_value()) {
    outcome.cache = AgentsMdCacheStatus::kHit;
    outcome.generation = loaded_generation_;
    return outcome;
  }
  Result<AgentsMdLoad> load = Load(inputs, *ticket);
  if (!load.has_value()) {
    RecordFailure(*ticket, load.error());
    return Fail(std::move(load).error());
  }
  outcome.warnings = load->warnings;
  outcome.cache = ticket->cause;
  outcome.generation = ticket->generation;
  outcome.reloaded = Commit(*ticket, std::move(load).value());
  return outcome;
}

std::optional<std::string> AgentsMdManager::Fragment() const {
  if (!loaded_.text.has_value()) return std::nullopt;
  return RenderAgentsMdFragment(loaded_.primary_cwd, *loaded_.text);
}

std::vector<std::string> AgentsMdManager::instruction_sources() const {
  std::vector<std::string> out;
  for (const AgentsMdSource& s : loaded_.sources) out.push_back(s.path);
  return out;
}

JsonValue AgentsMdManager::InstructionsLoadedEvent() const {
  JsonValue event = JsonValue::Object();
  event.Set("type", JsonValue::String("instructions_loaded"));
  JsonValue sources = JsonValue::Array();
  for (const AgentsMdSource& s : loaded_.sources) sources.Push(JsonValue::String(s.path));
  event.Set("sources", std::move(sources));
  event.Set("generation", JsonValue::RawNumber(std::to_string(loaded_generation_)));
  return event;
}

JsonValue AgentsMdManager::Inspect() const {
  auto opt_string = [](const std::optional<std::string>& s) {
    return s.has_value() ? JsonValue::String(*s) : JsonValue();
  };
  JsonValue out = JsonValue::Object();
  out.Set("refresh", JsonValue::String(std::string(ToWire(last_mode_))));
  out.Set("cache", JsonValue::String(std::string(AgentsMdCacheStatusName(last_status_))));
  out.Set("generation", JsonValue::RawNumber(std::to_string(generation_)));
  out.Set("loaded_generation", JsonValue::RawNumber(std::to_string(loaded_generation_)));
  out.Set("text", opt_string(loaded_.text));
  out.Set("fragment", opt_string(Fragment()));
  JsonValue sources = JsonValue::Array();
  for (const AgentsMdSource& s : loaded_.sources) {
    JsonValue src = JsonValue::Object();
    src.Set("path", JsonValue::String(s.path));
    src.Set("environment_id", JsonValue::String(s.environment_id));
    src.Set("cwd", JsonValue::String(s.cwd));
    src.Set("global", JsonValue::Bool(s.global));
    src.Set("kind", JsonValue::String(std::string(AgentsMdSourceKindName(s.kind))));
    if (s.kind == AgentsMdSourceKind::kImport) {
      src.Set("imported_from", JsonValue::String(s.imported_from));
    }
    sources.Push(std::move(src));
  }
  out.Set("sources", std::move(sources));
  JsonValue warnings = JsonValue::Array();
  for (const AgentsMdWarning& w : last_warnings_) warnings.Push(WarningJson(w));
  out.Set("warnings", std::move(warnings));
  JsonValue error;
  if (last_error_.has_value()) {
    error = JsonValue::Object();
    error.Set("code", JsonValue::String(std::string(ErrorCodeName(last_error_->code))));
    error.Set("message", JsonValue::String(last_error_->message));
  }
  out.Set("error", std::move(error));
  JsonValue key;
  if (key_.has_value()) {
    key = JsonValue::Object();
    JsonValue envs = JsonValue::Array();
    for (const EnvironmentSelection& env : key_->selections) {
      JsonValue e = JsonValue::Object();
      e.Set("id", JsonValue::String(env.id));
      e.Set("cwd", JsonValue::String(env.cwd));
      e.Set("fs", JsonValue::String(env.fs_name));
      e.Set("sandboxed", JsonValue::Bool(env.sandboxed));
      e.Set("fs_epoch", JsonValue::RawNumber(std::to_string(env.fs_epoch)));
      envs.Push(std::move(e));
    }
    key.Set("environments", std::move(envs));
    key.Set("trust", JsonValue::String(key_->trusted ? "trusted" : "untrusted"));
    key.Set("agents_md", AgentsMdConfigToJson(key_->config));
  }
  out.Set("key", std::move(key));
  out.Set("probes", probes_.ToJson());
  return out;
}

}  // namespace agentctx
