// SPDX-License-Identifier: MIT
// The AGENTS.md manager: one per Session, it caches the loaded instructions
// (docs/agents-md-refresh.md).
// State: cached global doc, cached key, loaded result, generation (starts 0), probe set.
// Algorithm of Refresh(), also exposed in three steps so loads can interleave:
//  1. BeginRefresh: key equal -> `selection`: return with no FileSystem call; `probe`: re-stat
//     the probe set, unchanged -> return.
//  2. BeginRefresh, miss or change: clear key, loaded and probe set; g = ++generation; the
//     ticket carries g (and, in selection mode, the cached global doc to reuse).
//  3. Load (pure w.r.t. the manager; discovery.h), recording the probe set.
//  4. Failure: the error is returned; the cache stays cleared, so the next refresh retries.
//  5. Commit: store only if g == generation (a newer load started: discard; ours).
// Invariants: a hit in selection mode makes zero FileSystem calls; no clocks, no globals.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "agentctx/result.h"
#include "agents_md/discovery.h"
#include "agents_md/probe_set.h"
#include "agents_md/types.h"
#include "protocol/json_value.h"

namespace agentctx {

/// The cache key: ready environments' selections in order, trust, the config.
struct AgentsMdCacheKey {
  std::vector<EnvironmentSelection> selections;  // ready ones; fs pointers not compared
  bool trusted = true;
  AgentsMdConfig config;

  static AgentsMdCacheKey From(const AgentsMdInputs& inputs);
  bool operator==(const AgentsMdCacheKey& other) const;
  bool operator!=(const AgentsMdCacheKey& other) const { return !(*this == other); }
};

/// How the last refresh was answered (inspect view: "none" | "hit" | "miss" | "probe_changed"
/// | "failed").
enum class AgentsMdCacheStatus { kNone, kHit, kMiss, kProbeChanged, kFailed };
std::string_view AgentsMdCacheStatusName(AgentsMdCacheStatus status);

/// What one refresh did; the session emits `instructions_loaded{sources, generation}` when
/// `reloaded`, and each warning as a `warning` event.
struct RefreshOutcome {
  bool reloaded = false;
  std::uint64_t generation = 0;  // of the loaded result (the current one on a hit)
  AgentsMdCacheStatus cache = AgentsMdCacheStatus::kNone;
  std::vector<AgentsMdWarning> warnings;
};

/// Issued by BeginRefresh for one load.
struct AgentsMdLoadTicket {
  std::uint64_t generation = 0;
  AgentsMdCacheKey key;
  AgentsMdCacheStatus cause = AgentsMdCacheStatus::kMiss;  // kMiss or kProbeChanged
  std::optional<GlobalDoc> cached_global;                  // selection mode only
};

class AgentsMdManager {
 public:
  /// Runs steps 1-5 above. Errors: kAgentsMdLoadFailed (a sandboxed environment failed); the cache
  /// is then empty (instruction_sources() = []) and the next call retries.
  Result<RefreshOutcome> Refresh(const AgentsMdInputs& inputs);

  /// Steps 1-2. nullopt on a hit (no FileSystem call in selection mode; one Stat per probe in
  /// probe mode); otherwise the cache is cleared and a ticket with a new generation returned.
  std::optional<AgentsMdLoadTicket> BeginRefresh(const AgentsMdInputs& inputs);
  /// Step 3: the load for a ticket (does not touch the manager).
  static Result<AgentsMdLoad> Load(const AgentsMdInputs& inputs, const AgentsMdLoadTicket& ticket);
  /// Step 5: stores `load` only when `ticket` is the newest; returns whether it was stored.
  bool Commit(const AgentsMdLoadTicket& ticket, AgentsMdLoad load);
  /// Step 4: records a failed load for the inspect view (the cache stays cleared).
  void RecordFailure(const AgentsMdLoadTicket& ticket, const Error& error);

  /// True when a successful load is cached (the key is set).
  bool has_loaded() const { return key_.has_value(); }
  /// The cached result; an empty result (no text, no sources) when nothing is cached.
  const AgentsMdResult& loaded() const { return loaded_; }
  /// The `agents_md` fragment for the cached text, or none.
  std::optional<std::string> Fragment() const;
  /// The global path, then entry paths, in reading order; [] when nothing is cached.
  std::vector<std::string> instruction_sources() const;
  std::uint64_t generation() const { return generation_; }
  /// Generation of the cached result (0 when none).
  std::uint64_t loaded_generation() const { return loaded_generation_; }
  const ProbeSet& probe_set() const { return probes_; }

  /// `{"type":"instructions_loaded","sources":[…],"generation":g}` for the cached load; the
  /// session wraps it in an `event` effect when a refresh reports `reloaded`.
  JsonValue InstructionsLoadedEvent() const;

  /// The inspect view (CLI `inspect --format agents`, playground panel), keys in this order:
  /// refresh, cache, generation, loaded_generation, text, fragment, sources
  /// [{path, environment_id, cwd, global, kind, imported_from (imports only)}], warnings
  /// [{code, message}], error {code, message}
  /// | null, key {environments [{id, cwd, fs, sandboxed, fs_epoch}], trust, agents_md} | null,
  /// probes (probe_set.h).
  JsonValue Inspect() const;

 private:
  void Clear();

  std::optional<AgentsMdCacheKey> key_;
  AgentsMdResult loaded_;
  std::uint64_t loaded_generation_ = 0;
  std::optional<GlobalDoc> global_;
  ProbeSet probes_;
  std::uint64_t generation_ = 0;
  // For the inspect view only.
  AgentsMdRefresh last_mode_ = AgentsMdRefresh::kSelection;
  AgentsMdCacheStatus last_status_ = AgentsMdCacheStatus::kNone;
  std::vector<AgentsMdWarning> last_warnings_;
  std::optional<Error> last_error_;
};

}  // namespace agentctx
