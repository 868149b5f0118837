// SPDX-License-Identifier: MIT
// Rollout line builders. Each returns one JSONL line without its trailing LF:
//   {"timestamp":"YYYY-MM-DDThh:mm:ss.mmmZ","type":T,"payload":P}
// and `response_item` lines add `"metadata":{"turn_id","origin"}` after `payload`.
// Invariants:
//  - Key orders are fixed (as documented on each builder); snapshots and patches (world_state)
//    are written with sorted keys; item bytes are spliced verbatim (an item is serialised once
//    and those bytes serve its rollout line and every request).
//  - Pure: the timestamp comes from `now_ms`; no clock.
// Write order is the session's business; this file only shapes lines.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "agentctx/wire_enums.h"
#include "protocol/json_value.h"

namespace agentctx {

/// `{"timestamp":…,"type":type,"payload":<payload_json>}`; `payload_json` is spliced verbatim.
std::string RolloutLine(std::int64_t now_ms, std::string_view type, std::string_view payload_json);

/// session_meta `{"id","timestamp","cwd","originator":"agentctx","cli_version"}` (first line);
/// the payload timestamp is `now_ms` formatted like the line's.
std::string SessionMetaLine(std::int64_t now_ms, std::string_view session_id, std::string_view cwd,
                            std::string_view cli_version);

/// response_item: payload = the item's canonical bytes (verbatim), then
/// `"metadata":{"turn_id","origin"}`.
std::string ResponseItemLine(std::int64_t now_ms, std::string_view item_bytes,
                             std::string_view turn_id, std::string_view origin);

struct SandboxPolicyFields {
  SandboxMode mode = SandboxMode::kWorkspaceWrite;
  std::vector<std::string> writable_roots;
  bool network_access = false;
};

struct TurnContextFields {
  std::string turn_id;
  std::string cwd;
  ApprovalPolicy approval_policy = ApprovalPolicy::kOnRequest;
  SandboxPolicyFields sandbox;
  std::string model;
  std::optional<ReasoningEffort> effort;    ///< omitted when unset
  std::optional<ReasoningSummary> summary;  ///< written as "none" when unset
  /// The model API; omitted for `responses` (the default, and what older rollouts mean).
  Provider provider = Provider::kResponses;
  /// The host's base URL (config `base_url`), omitted when unset; written by RecordableBaseUrl.
  std::optional<std::string> base_url;
  /// The config's explicit `provider_features` (name → bool, nullopt = automatic); the object
  /// is omitted when none is set.
  std::vector<std::pair<std::string, bool>> provider_features;
};

/// `url` without what may carry a credential: the user-info of its authority, its query and
/// its fragment ("https://u:p@h/v1?key=k#x" → "https://h/v1"). A rollout never holds a secret.
std::string RecordableBaseUrl(std::string_view url);

/// `sandbox_policy`: {"type":"read-only","network_access":B} |
/// {"type":"workspace-write","writable_roots":[…],"network_access":B} |
/// {"type":"danger-full-access"}.
JsonValue SandboxPolicyJson(const SandboxPolicyFields& sandbox);
/// turn_context payload `{"turn_id","cwd","approval_policy","sandbox_policy","model","effort"?,
/// "summary","provider"?,"base_url"?,"provider_features"?}` (docs/replay.md, "What a rollout
/// records"): the last three only when not the defaults, so older rollouts read the same.
JsonValue TurnContextPayload(const TurnContextFields& fields);
std::string TurnContextLine(std::int64_t now_ms, const TurnContextFields& fields);
/// True when two turn_context payloads differ in a field other than `turn_id` (a turn_context
/// is written on the first turn and whenever such a field changed).
bool TurnContextChanged(const JsonValue& previous_payload, const JsonValue& current_payload);

/// world_state `{"full":bool,"state":…}`, state with sorted keys.
std::string WorldStateLine(std::int64_t now_ms, bool full, const JsonValue& state);

/// compacted `{"message","replacement_history":[items]}`, item bytes spliced verbatim.
std::string CompactedLine(std::int64_t now_ms, std::string_view message,
                          const std::vector<std::string_view>& replacement_item_bytes);

// event_msg lines: payload `{"type":kind,…}` (shapes ours, Codex-like).
std::string TaskStartedLine(std::int64_t now_ms, std::string_view turn_id);
std::string UserMessageLine(std::int64_t now_ms, std::string_view message);
std::string AgentMessageLine(std::int64_t now_ms, std::string_view message);

struct TokenUsageFields {
  std::uint64_t input_tokens = 0;
  std::uint64_t cached_input_tokens = 0;
  std::uint64_t output_tokens = 0;
  std::uint64_t reasoning_output_tokens = 0;
  std::uint64_t total_tokens = 0;
  /// Cache writes, when the provider reports them (a provider that bills writes).
  std::optional<std::uint64_t> cache_creation_input_tokens;
  /// Of those, the long-TTL writes (Anthropic 1 h, OpenAI 12 h), when the provider splits its
  /// writes by TTL.
  std::optional<std::uint64_t> cache_creation_1h_input_tokens;
};
/// token_count `{"type":"token_count","info":{"last_token_usage":{"input_tokens",
/// "cached_input_tokens","cache_creation_input_tokens"?,"cache_creation_1h_input_tokens"?,
/// "output_tokens",
/// "reasoning_output_tokens","total_tokens"},"model_context_window"?}}`.
std::string TokenCountLine(std::int64_t now_ms, const TokenUsageFields& usage,
                           std::optional<std::uint64_t> model_context_window);
/// cache_report: `{"type":"cache_report", …the members of `report` in order…}`
/// (cache_explainer.h).
std::string CacheReportLine(std::int64_t now_ms, const JsonValue& report);
/// cache_diagnosis: `{"type":"cache_diagnosis", …the members of `diagnosis` in order…}`
/// (the provider's cache verdict beside the explainer's, cache_diagnosis.h).
std::string CacheDiagnosisLine(std::int64_t now_ms, const JsonValue& diagnosis);
/// context_edit: `{"type":"context_edit", …the members of `edit` in order…}` (what the
/// provider's context editing cleared from a request and what it cost the cache).
std::string ContextEditLine(std::int64_t now_ms, const JsonValue& edit);
std::string ContextCompactedLine(std::int64_t now_ms);
std::string TurnAbortedLine(std::int64_t now_ms, std::string_view turn_id, std::string_view reason);
std::string TaskCompleteLine(std::int64_t now_ms, std::string_view turn_id,
                             std::optional<std::string_view> last_agent_message);
/// `event_msg` provider_feature_refused {feature, message}: the endpoint refused the feature's
/// parameter; a resume keeps it off.
std::string ProviderFeatureRefusedLine(std::int64_t now_ms, std::string_view feature,
                                       std::string_view message);
std::string WarningLine(std::int64_t now_ms, std::string_view code, std::string_view message);

}  // namespace agentctx
