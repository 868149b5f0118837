// SPDX-License-Identifier: MIT
// Rollout line builders; see rollout_writer.h.
#include "rollout/rollout_writer.h"

#include <utility>

#include "rollout/timestamp.h"

namespace agentctx {
namespace {

JsonValue Num(std::uint64_t v) { return JsonValue::Int(static_cast<std::int64_t>(v)); }

// `{"timestamp":…,"type":type,"payload":` — the caller appends the payload and the rest.
std::string LineHead(std::int64_t now_ms, std::string_view type) {
  std::string out = "{\"timestamp\":";
  AppendJsonString(&out, FormatTimestamp(now_ms));
  out += ",\"type\":";
  AppendJsonString(&out, type);
  out += ",\"payload\":";
  return out;
}

std::string EventLine(std::int64_t now_ms, const JsonValue& payload) {
  std::string out = LineHead(now_ms, "event_msg");
  AppendJson(&out, payload);
  out.push_back('}');
  return out;
}

JsonValue EventPayload(std::string_view kind) {
  JsonValue p = JsonValue::Object();
  p.Set("type", JsonValue::String(std::string(kind)));
  return p;
}

}  // namespace

std::string RolloutLine(std::int64_t now_ms, std::string_view type, std::string_view payload_json) {
  std::string out = LineHead(now_ms, type);
  out.append(payload_json);
  out.push_back('}');
  return out;
}

std::string SessionMetaLine(std::int64_t now_ms, std::string_view session_id, std::string_view cwd,
                            std::string_view cli_version) {
  JsonValue p = JsonValue::Object();
  p.Set("id", JsonValue::String(std::string(session_id)));
  p.Set("timestamp", JsonValue::String(FormatTimestamp(now_ms)));
  p.Set("cwd", JsonValue::String(std::string(cwd)));
  p.Set("originator", JsonValue::String("agentctx"));
  p.Set("cli_version", JsonValue::String(std::string(cli_version)));
  return RolloutLine(now_ms, "session_meta", ToJson(p));
}

std::string ResponseItemLine(std::int64_t now_ms, std::string_view item_bytes,
                             std::string_view turn_id, std::string_view origin) {
  std::string out = LineHead(now_ms, "response_item");
  out.append(item_bytes);
  out += ",\"metadata\":{\"turn_id\":";
  AppendJsonString(&out, turn_id);
  out += ",\"origin\":";
  AppendJsonString(&out, origin);
  out += "}}";
  return out;
}

JsonValue SandboxPolicyJson(const SandboxPolicyFields& sandbox) {
  JsonValue p = JsonValue::Object();
  p.Set("type", JsonValue::String(std::string(ToWire(sandbox.mode))));
  if (sandbox.mode == SandboxMode::kWorkspaceWrite) {
    JsonValue roots = JsonValue::Array();
    for (const auto& r : sandbox.writable_roots) roots.Push(JsonValue::String(r));
    p.Set("writable_roots", std::move(roots));
    p.Set("network_access", JsonValue::Bool(sandbox.network_access));
  } else if (sandbox.mode == SandboxMode::kReadOnly) {
    p.Set("network_access", JsonValue::Bool(sandbox.network_access));
  }
  return p;
}

JsonValue TurnContextPayload(const TurnContextFields& f) {
  JsonValue p = JsonValue::Object();
  p.Set("turn_id", JsonValue::String(f.turn_id));
  p.Set("cwd", JsonValue::String(f.cwd));
  p.Set("approval_policy", JsonValue::String(std::string(ToWire(f.approval_policy))));
  p.Set("sandbox_policy", SandboxPolicyJson(f.sandbox));
  p.Set("model", JsonValue::String(f.model));
  if (f.effort) p.Set("effort", JsonValue::String(std::string(ToWire(*f.effort))));
  p.Set("summary",
        JsonValue::String(std::string(ToWire(f.summary.value_or(ReasoningSummary::kNone)))));
  if (f.provider != Provider::kResponses) {
    p.Set("provider", JsonValue::String(std::string(ToWire(f.provider))));
  }
  if (f.base_url) p.Set("base_url", JsonValue::String(RecordableBaseUrl(*f.base_url)));
  if (!f.provider_features.empty()) {
    JsonValue features = JsonValue::Object();
    for (const auto& [name, on] : f.provider_features) features.Set(name, JsonValue::Bool(on));
    p.Set("provider_features", std::move(features));
  }
  return p;
}

std::string RecordableBaseUrl(std::string_view url) {
  std::string_view rest = url.substr(0, url.find_first_of("?#"));
  const std::size_t scheme = rest.find("://");
  if (scheme == std::string_view::npos) return std::string(rest);
  const std::size_t host_start = scheme + 3;
  const std::size_t path_start = rest.find('/', host_start);
  std::string_view authority =
      rest.substr(host_start, path_start == std::string_view::npos ? std::string_view::npos
                                                                   : path_start - host_start);
  const std::size_t at = authority.rfind('@');
  if (at == std::string_view::npos) return std::string(rest);
  std::string out(rest.substr(0, host_start));
  out.append(authority.substr(at + 1));
  if (path_start != std::string_view::npos) out.append(rest.substr(path_start));
  return out;
}

std::string TurnContextLine(std::int64_t now_ms, const TurnContextFields& fields) {
  return RolloutLine(now_ms, "turn_context", ToJson(TurnContextPayload(fields)));
}

bool TurnContextChanged(const JsonValue& previous_payload, const JsonValue& current_payload) {
  JsonValue a = previous_payload;
  JsonValue b = current_payload;
  a.Remove("turn_id");
  b.Remove("turn_id");
  return a != b;
}

std::string WorldStateLine(std::int64_t now_ms, bool full, const JsonValue& state) {
  std::string payload = full ? "{\"full\":true,\"state\":" : "{\"full\":false,\"state\":";
  payload += ToSortedJson(state);
  payload.push_back('}');
  return RolloutLine(now_ms, "world_state", payload);
}

std::string CompactedLine(std::int64_t now_ms, std::string_view message,
                          const std::vector<std::string_view>& replacement_item_bytes) {
  std::string payload = "{\"message\":";
  AppendJsonString(&payload, message);
  payload += ",\"replacement_history\":[";
  for (std::size_t i = 0; i < replacement_item_bytes.size(); ++i) {
    if (i > 0) payload.push_back(',');
    payload.append(replacement_item_bytes[i]);
  }
  payload += "]}";
  return RolloutLine(now_ms, "compacted", payload);
}

std::string TaskStartedLine(std::int64_t now_ms, std::string_view turn_id) {
  JsonValue p = EventPayload("task_started");
  p.Set("turn_id", JsonValue::String(std::string(turn_id)));
  return EventLine(now_ms, p);
}

std::string UserMessageLine(std::int64_t now_ms, std::string_view message) {
  JsonValue p = EventPayload("user_message");
  p.Set("message", JsonValue::String(std::string(message)));
  return EventLine(now_ms, p);
}

std::string AgentMessageLine(std::int64_t now_ms, std::string_view message) {
  JsonValue p = EventPayload("agent_message");
  p.Set("message", JsonValue::String(std::string(message)));
  return EventLine(now_ms, p);
}

std::string TokenCountLine(std::int64_t now_ms, const TokenUsageFields& u,
                           std::optional<std::uint64_t> model_context_window) {
  JsonValue usage = JsonValue::Object();
  usage.Set("input_tokens", Num(u.input_tokens));
  usage.Set("cached_input_tokens", Num(u.cached_input_tokens));
  if (u.cache_creation_input_tokens) {
    usage.Set("cache_creation_input_tokens", Num(*u.cache_creation_input_tokens));
  }
  if (u.cache_creation_1h_input_tokens) {
    usage.Set("cache_creation_1h_input_tokens", Num(*u.cache_creation_1h_input_tokens));
  }
  usage.Set("output_tokens", Num(u.output_tokens));
  usage.Set("reasoning_output_tokens", Num(u.reasoning_output_tokens));
  usage.Set("total_tokens", Num(u.total_tokens));
  JsonValue info = JsonValue::Object();
  info.Set("last_token_usage", std::move(usage));
  if (model_context_window) info.Set("model_context_window", Num(*model_context_window));
  JsonValue p = EventPayload("token_count");
  p.Set("info", std::move(info));
  return EventLine(now_ms, p);
}

std::string CacheReportLine(std::int64_t now_ms, const JsonValue& report) {
  JsonValue p = EventPayload("cache_report");
  for (const auto& m : report.members()) p.Set(m.key, m.value);
  return EventLine(now_ms, p);
}

std::string CacheDiagnosisLine(std::int64_t now_ms, const JsonValue& diagnosis) {
  JsonValue p = EventPayload("cache_diagnosis");
  for (const auto& m : diagnosis.members()) p.Set(m.key, m.value);
  return EventLine(now_ms, p);
}

std::string ContextEditLine(std::int64_t now_ms, const JsonValue& edit) {
  JsonValue p = EventPayload("context_edit");
  for (const auto& m : edit.members()) p.Set(m.key, m.value);
  return EventLine(now_ms, p);
}

std::string ProviderFeatureRefusedLine(std::int64_t now_ms, std::string_view feature,
                                       std::string_view message) {
  JsonValue p = EventPayload("provider_feature_refused");
  p.Set("feature", JsonValue::String(std::string(feature)));
  p.Set("message", JsonValue::String(std::string(message)));
  return EventLine(now_ms, p);
}

std::string ContextCompactedLine(std::int64_t now_ms) {
  return EventLine(now_ms, EventPayload("context_compacted"));
}

std::string TurnAbortedLine(std::int64_t now_ms, std::string_view turn_id,
                            std::string_view reason) {
  JsonValue p = EventPayload("turn_aborted");
  p.Set("turn_id", JsonValue::String(std::string(turn_id)));
  p.Set("reason", JsonValue::String(std::string(reason)));
  return EventLine(now_ms, p);
}

std::string TaskCompleteLine(std::int64_t now_ms, std::string_view turn_id,
                             std::optional<std::string_view> last_agent_message) {
  JsonValue p = EventPayload("task_complete");
  p.Set("turn_id", JsonValue::String(std::string(turn_id)));
  if (last_agent_message) {
    p.Set("last_agent_message", JsonValue::String(std::string(*last_agent_message)));
  }
  return EventLine(now_ms, p);
}

std::string WarningLine(std::int64_t now_ms, std::string_view code, std::string_view message) {
  JsonValue p = EventPayload("warning");
  p.Set("code", JsonValue::String(std::string(code)));
  p.Set("message", JsonValue::String(std::string(message)));
  return EventLine(now_ms, p);
}

}  // namespace agentctx
