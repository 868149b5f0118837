// SPDX-License-Identifier: MIT
// Replay analysis of agentctx and real Codex rollouts (SPEC §13.4): reconstructs the requests a
// rollout implies and measures their prefix stability with the §9 explainer.
// Algorithm (one pass over the lines of ParseRollout, which already tolerates unknown fields
// such as `ordinal`, `metadata`, `inter_agent_communication*`, `security_risk_score`):
//  1. Items: `response_item` payloads, and — for the older Codex layout (a `{id,timestamp,…}`
//     header, then bare items, CRLF) — any line without `payload` whose `type` is not a rollout
//     line type (`{"record_type":…}` lines are skipped). An item is canonicalised
//     (protocol/items.h) when it can be; otherwise it is kept as opaque compact JSON in source
//     key order. Origin: `metadata.origin` when present, else ImportedItemOrigin().
//  2. Model-output items are `reasoning`, assistant `message` and `*_call`. Before each maximal
//     run of them (a run ends at any other item or at a `compacted` line) one request is
//     reconstructed: input = for_prompt(history so far) (images kept), model = the latest
//     `turn_context.model` ("" before any), cache key = the session id (session_meta `id` or
//     the legacy header's `id`), instructions and tools unknown (empty segments).
//  3. `compacted` replaces history by its `replacement_history` (origin `compaction`); without
//     one, by `rebuilder(history, message)`, or with no rebuilder by one user message holding
//     `message` (counted in `unrebuilt_compactions`); the explainer is told (NoteCompaction).
//  4. Each request gets the §9 metrics and break, and `input_tokens`/`cached_input_tokens` from
//     the first `token_count` with a non-null `info.last_token_usage` after it and before the
//     next request (else null).
// Output (key order fixed): {"session_id":S|null,"lines":N,"warnings":[{code,message}],
//  "summary":{<CacheExplainer::Summary() keys>,"compactions","unrebuilt_compactions",
//  "requests_with_usage","input_tokens","cached_input_tokens","reported_cached_bp"},
//  "requests":[{"request_id","line","model","input_items","prompt_bytes","prompt_tokens",
//  "shared_prefix_bytes","reuse_bp","max_reuse_bp","predicted_cached_tokens",
//  "ideal_cached_tokens","break","input_tokens","cached_input_tokens"}]}
// `lines` counts the valid lines read; a request's `line` is the 1-based line of its run's first
// item; reported_cached_bp = floor(10000 ·
// Σcached_input_tokens / Σinput_tokens) over requests with usage.
#pragma once

#include <string>
#include <string_view>

#include "agentctx/result.h"
#include "protocol/json_value.h"
#include "rollout/resume_state.h"

namespace agentctx {

/// The replay report of `rollout_text` (see above). Errors: kRolloutCorrupt.
Result<JsonValue> ReplayReport(std::string_view rollout_text,
                               const CompactionRebuilder* rebuilder = nullptr);

/// True for the model-output items of SPEC §13.4: reasoning, assistant message, `*_call`.
bool IsModelOutputItem(const JsonValue& item);

/// A compact text rendering of a ReplayReport for the CLI: a summary table, then one row per
/// break. Ends with LF.
std::string RenderReplayTable(const JsonValue& report);

}  // namespace agentctx
