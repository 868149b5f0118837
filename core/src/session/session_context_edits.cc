// SPDX-License-Identifier: MIT
// The provider's context edits seen by the session (Anthropic `clear_tool_uses_20250919`,
// docs/providers.md "Context editing"). The server clears old tool results after the request
// left, so the bytes sent (and the cache_report made when it was sent) do not show it; the
// response's `applied_edits` do. Steps, when a completed response reports a clearing:
//  1. the explainer counts the tokens it predicted cached that the provider did not read as a
//     `context_edited` break (CacheExplainer::NoteContextEdit);
//  2. a request with no break of its own names `context_edited` as its break reason, so the
//     provider's cache verdict (`messages_changed`) is compared with it;
//  3. a `context_edit` event {request_id, cleared_tool_uses, cleared_input_tokens,
//     lost_tokens} is emitted and persisted (the replay attributes the request's lost tokens to
//     `context_edited`).
#include <algorithm>

#include "protocol/json_fields.h"
#include "provider/anthropic/context_editing.h"
#include "rollout/rollout_writer.h"
#include "session/session.h"

namespace agentctx {

void Session::NoteContextEdits(const JsonValue& event, EffectSink* sink) {
  const JsonValue* response = event.Find("response");
  if (response == nullptr || !response->is_object()) return;
  std::optional<AppliedToolClearing> cleared =
      ReadAppliedToolClearing(response->Find("context_management"));
  if (!cleared) return;
  std::uint64_t reported_cached = 0;
  if (const JsonValue* usage = response->Find("usage"); usage && usage->is_object()) {
    if (const JsonValue* details = usage->Find("input_tokens_details")) {
      reported_cached = static_cast<std::uint64_t>(
          std::max<std::int64_t>(0, details->GetInt("cached_tokens").value_or(0)));
    }
  }
  const std::uint64_t lost = explainer_.NoteContextEdit(request_->id, reported_cached);
  if (lost > 0 && request_->engine_break_reason.empty()) {
    request_->engine_break_reason = "context_edited";
  }
  JsonValue payload = JsonValue::Object();
  SetString(&payload, "request_id", request_->id);
  SetInt(&payload, "cleared_tool_uses", static_cast<std::int64_t>(cleared->cleared_tool_uses));
  SetInt(&payload, "cleared_input_tokens",
         static_cast<std::int64_t>(cleared->cleared_input_tokens));
  SetInt(&payload, "lost_tokens", static_cast<std::int64_t>(lost));
  sink->Persist(ContextEditLine(now_ms_, payload));
  JsonValue e = MakeEvent("context_edit");
  for (auto& m : payload.members()) e.Set(m.key, m.value);
  sink->Event(std::move(e));
}

}  // namespace agentctx
