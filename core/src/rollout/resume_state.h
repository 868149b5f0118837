// SPDX-License-Identifier: MIT
// Resume: what a session restores from its rollout. Pure; no FileSystem access.
// Algorithm, one chronological pass over the parsed lines (rollout_reader.h):
//  1. `response_item` → canonicalised (protocol/items.h; dropped items warn `unsupported_item`)
//     and appended to history with its metadata {turn_id, origin} (imported lines without
//     metadata: the current turn id and ImportedItemOrigin()).
//  2. `compacted` with `replacement_history` → history = those items (origin `compaction`);
//     without it (imported) → history = rebuilder(history so far, message) (the compaction
//     module's pure rebuild, compaction/history_rebuild.h); with no rebuilder the history is
//     left as it was and the line is listed in `unrebuilt_compactions` for the caller. Either
//     way: baseline = none, compaction counter + 1, last token usage forgotten (a usage from
//     before a compaction says nothing of the new history).
//     So history = replacement of the newest `compacted` + the response_items after it.
//  3. `world_state` full → baseline = state; patch → baseline = MergePatchApply(baseline,
//     patch), or, with no baseline, warning `world_state_patch_without_full` and skipped.
//  4. `turn_context` → kept (the last wins); `event_msg token_count` with a non-null `info` →
//     kept (the last wins) with the history size at that point; `task_started` → turn counter.
//  5. (ours) A response_item duplicating one already in history is skipped, and
//     timestamps going backwards are warned about once (line_checks.h).
// Not restored: AGENTS.md cache, tool freeze, the explainer predecessor's bytes (only its
// namespace and size: the last turn_context and cache_report).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "agentctx/result.h"
#include "protocol/items.h"
#include "protocol/json_value.h"
#include "protocol/warning.h"
#include "rollout/rollout_reader.h"

namespace agentctx {

/// The origin of an item read without agentctx metadata (imported Codex lines): `user` /
/// `developer` (by message role; `model` for assistant), `model` for reasoning and `*_call`,
/// `tool` for `*_output`, `compaction` for compaction items, else the item's type.
std::string ImportedItemOrigin(const JsonValue& item);

/// Rebuilds history for a `compacted` line without `replacement_history`, as a local
/// compaction does (compaction/history_rebuild.h).
using CompactionRebuilder = std::function<std::vector<RecordedItem>(
    const std::vector<RecordedItem>& history_so_far, std::string_view message)>;

struct UnrebuiltCompaction {
  std::uint64_t line_number = 0;
  std::string message;
  std::uint64_t history_size = 0;  ///< history items at that point (left unchanged)
};

struct ResumeState {
  std::optional<JsonValue> session_meta;  ///< payload of the first session_meta line
  std::vector<RecordedItem> history;
  std::optional<JsonValue> baseline;  ///< world-state snapshot; nullopt = no baseline
  /// The newest world-state snapshot seen (step 3), not cleared by a compaction (ours: the task
  /// frontier is restored from it).
  std::optional<JsonValue> latest_snapshot;
  std::optional<JsonValue> turn_context;  ///< payload of the last turn_context line
  std::optional<JsonValue> token_usage;   ///< `info` of the last token_count since compaction
  std::uint64_t history_size_at_token_usage = 0;  ///< items recorded before that token_count
  /// max(number of task_started lines, largest n of a `turn-<n>` id they carry): the next
  /// generated turn id is `turn-<turn_counter + 1>`.
  std::uint64_t turn_counter = 0;
  std::uint64_t compaction_counter = 0;  ///< number of `compacted` lines
  /// Timestamp of the newest `event_msg cache_report` line (one per model request; ours:
  /// warmth-aware compaction); none without one or when unparsable.
  std::optional<std::int64_t> last_request_ms;
  /// `prompt_bytes` of that cache_report (0 without one): the size of the request before the
  /// resume, the explainer's seeded predecessor (CacheExplainer::SeedPredecessor).
  std::uint64_t last_request_prompt_bytes = 0;
  /// Wire names of the provider features the endpoint refused (provider_feature_refused lines).
  std::vector<std::string> refused_features;
  /// The newest `cache_diagnosis` line's response id: the next request's comparison.
  std::string last_response_id;
  std::vector<UnrebuiltCompaction> unrebuilt_compactions;
  std::vector<Warning> warnings;  ///< rollout_torn_line, world_state_patch_without_full, …
};

/// The algorithm above over parsed lines. `rebuilder` may be null (see step 2 above).
ResumeState BuildResumeState(const ParsedRollout& rollout, const CompactionRebuilder* rebuilder);
/// Parses then builds. Errors: kRolloutCorrupt (rollout_reader.h).
Result<ResumeState> BuildResumeState(std::string_view rollout_text,
                                     const CompactionRebuilder* rebuilder);

}  // namespace agentctx
