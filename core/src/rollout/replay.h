// SPDX-License-Identifier: MIT
// Replay analysis of agentctx and real Codex rollouts (docs/replay.md): reconstructs the requests
// a rollout implies, matches each to the usage the provider reported for it (once), and explains
// every uncached input token by a cause.
// Algorithm (one pass over the lines, read one at a time by ForEachRolloutRecord with the rules
// of ParseRollout, which already tolerates unknown fields such as `ordinal`, `metadata`,
// `inter_agent_communication*`, `security_risk_score`; event_msg lines of a kind replay ignores
// are checked but never built, so a rollout of many small events costs little):
//  1. Items: `response_item` payloads, and — for the older Codex layout (a `{id,timestamp,…}`
//     header, then bare items, CRLF) — any line without `payload` whose `type` is not a rollout
//     line type (`{"record_type":…}` lines are skipped). Items are kept as recorded (compact
//     JSON in source key order: the bytes the CLI sent). Origin: `metadata.origin` when
//     present, else ImportedItemOrigin().
//  2. Model-output items are `reasoning`, assistant `message` and `*_call`. Before each maximal
//     run of them (a run ends at any other item or at a `compacted` line) one request is
//     reconstructed: input = for_prompt(history so far) (images kept), model = the latest
//     `turn_context.model` or `thread_settings_applied` model ("" before any), provider = the
//     latest `turn_context.provider` (absent: responses), cache key = the session id. Instructions
//     (replay_layout.h): `session_meta.base_instructions` as the `instructions` field before Codex
//     0.169, as the first developer message from 0.169 on (with the text and id that CLI sends:
//     catalog text without its update_plan guidance unless the rollout records an update_plan call,
//     a UUIDv5 id; consecutive context fragments of one role are also bundled into one message);
//     none for older layouts. Tools are never recorded (empty segment). An agentctx rollout's
//     `cache_report` line (the session's own cache report, which saw the instructions and tools)
//     replaces the reconstructed report of the next request — unless the session compared that
//     request with nothing (no break, no reuse: a resume by a version that did not seed its
//     explainer) while the replay has a predecessor: then the reconstruction stands (it names a
//     model change at the resume).
//  3. `compacted` replaces history by its `replacement_history` (origin `compaction`); without
//     one, by `rebuilder(history, message)`, or with no rebuilder by one user message holding
//     `message` (counted in `unrebuilt_compactions`); the explainer is told (NoteCompaction).
//  4. Usage (replay_usage.h): one usage event per provider response — `token_usage_record`
//     lines when the rollout has any (deduplicated by response id), else `token_count` events
//     with a non-null `info` whose `total_token_usage` differs from the previous one (Codex
//     repeats the last total on rate-limit updates). Each event is matched to exactly one
//     request: rollouts that write usage after the output items (Codex ≥ 0.6x, agentctx) give it
//     to the latest request still without usage; those that write it before (Codex 0.5x: the
//     first usage precedes the first output item) hold it for the next request. An event no
//     request takes (a compaction request, a response with no recorded output) becomes a
//     usage-only request (`reconstructed: false`).
//  5. Causes (replay_causes.h) for every request with usage.
// Not a rollout: a text none of whose lines is a rollout line (a rollout line type, the older
// layout's header, `record_type` line or bare response item) — empty, another JSON file, text —
// is refused with kInvalidInput ("not a rollout: …"), never reported as an empty session.
// Output (key order fixed): {"session_id":S|null,"cli_version":V|null,"lines":N,
//  "warnings":[{code,message}],"summary":{…},"requests":[{…}]} — replay_causes.h lists the
//  summary and request keys. `lines` counts the valid lines read; a request's `line` is the
//  1-based line of its run's first item (of its usage line for a usage-only request).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "agentctx/result.h"
#include "protocol/json_value.h"
#include "provider/cache/cache_pricing.h"
#include "rollout/resume_state.h"

namespace agentctx {

/// Prices in micro-USD per million tokens (integers, so every cost is exact: a token costs
/// price · 10⁻¹² USD); provider/cache/cache_pricing.h. Defaults are the playground's example
/// prices.
using ReplayPrices = TypedPrices;

struct ReplayOptions {
  /// The provider's prompt-cache TTL: a request sent longer than this after the previous one
  /// finished explains its misses as `idle_past_ttl`.
  std::int64_t ttl_ms = 300000;
  ReplayPrices prices;
  /// Whose cache rules and prices apply: the provider's pricing rule (CachePricingFor; see
  /// docs/replay.md for each rule's read and write prices, blocks and minimums). Unset: the rule
  /// of the providers that bill cache writes when the rollout's usage reports them
  /// (`cache_creation_input_tokens`), else OpenAI's.
  std::optional<Provider> provider;
  /// Also return every reconstructed request's body (RolloutInspect's `dump`).
  bool dump_requests = false;
  /// Table: one row per request after the summary.
  bool table_all_requests = false;
  /// Table: how many top misses to list.
  std::uint64_t top_misses = 10;
};

/// The options of `rollout.inspect` from its input object: `ttl_ms` (integer ≥ 0),
/// `prices` {`input`,`cached_input`,`cache_write`,`output`} in USD per million tokens (decimal
/// numbers, at most 6 fraction digits; ReadTypedPrices), `provider` (a Provider wire
/// name), `dump_requests` (bool), `requests` (bool: table_all_requests), `top`
/// (integer ≥ 0). Absent keys keep the defaults. Errors: kInvalidInput naming the key.
Result<ReplayOptions> ReplayOptionsFromJson(const JsonValue& input);

/// The replay report of `rollout_text` (see above). Errors: kRolloutCorrupt, kInvalidInput (not
/// a rollout).
Result<JsonValue> ReplayReport(std::string_view rollout_text, const ReplayOptions& options,
                               const CompactionRebuilder* rebuilder = nullptr);
/// ReplayReport with the default options.
Result<JsonValue> ReplayReport(std::string_view rollout_text,
                               const CompactionRebuilder* rebuilder = nullptr);

/// `rollout.inspect`: {"report": ReplayReport, "table": RenderReplayTable, "dump"?:
/// {"items":[item JSON text…],"requests":[{"request_id","model","instructions"?,
/// "input":[[first,end)…]}]}} — the dump (with options.dump_requests) lists each distinct item
/// once; a request's input is the concatenation of the item ranges it names, in order.
/// Errors: kRolloutCorrupt, kInvalidInput (not a rollout).
Result<JsonValue> RolloutInspect(std::string_view rollout_text, const ReplayOptions& options);

/// True for the model-output items (step 2 above): reasoning, assistant message, `*_call`.
bool IsModelOutputItem(const JsonValue& item);

/// A text rendering of a ReplayReport for the CLI: the summary, uncached input by cause (tokens,
/// share, cost), the top misses (request, time, tokens, cause, cost) and, with
/// `all_requests`, one row per request. Ends with LF.
std::string RenderReplayTable(const JsonValue& report, bool all_requests = false,
                              std::uint64_t top_misses = 10);

}  // namespace agentctx
