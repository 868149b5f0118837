// SPDX-License-Identifier: MIT
// Model deliveries (docs/protocol.md): SSE chunks or parsed events for the pending request;
// nothing is recorded before `response.completed`, so a failed attempt leaves history untouched.
// Stale deliveries (unknown/finished request, superseded attempt) only warn; the closing bytes
// of a completed stream (a provider's end-of-stream sentinel, the host's `end`) are not stale: they
// carry no event, so a host that delivers them after the completing event is silently done. One
// response is bounded in output items and streamed bytes (response_limits.h).
#include <algorithm>

#include "protocol/json_codec.h"
#include "rollout/rollout_writer.h"
#include "session/response_limits.h"
#include "session/session.h"
#include "world_state/message_kind.h"

namespace agentctx {
namespace {

void StaleDelivery(std::string_view what, EffectSink* sink) {
  sink->Warning(WarningCode::kStaleDelivery, "ignored a delivery for " + std::string(what));
}

std::uint64_t UsageField(const JsonValue* usage, std::string_view key,
                         std::string_view detail_object = {}, std::string_view detail_key = {}) {
  if (usage == nullptr) return 0;
  const JsonValue* holder = usage;
  if (!detail_object.empty()) {
    holder = usage->Find(detail_object);
    if (holder == nullptr) return 0;
    key = detail_key;
  }
  auto v = holder->GetInt(key);
  return v && *v > 0 ? static_cast<std::uint64_t>(*v) : 0;
}

// The server's words for a refusal: `error.message` of a JSON error body, else the body (cut).
std::string RefusalText(std::string_view body) {
  if (auto parsed = ParseJson(body)) {
    if (const JsonValue* error = parsed->Find("error"); error != nullptr && error->is_object()) {
      if (auto message = error->GetString("message")) return std::string(*message);
    }
  }
  return std::string(body.substr(0, 200));
}

bool HasCompactionItem(const std::vector<JsonValue>& items) {
  for (const JsonValue& item : items) {
    if (ItemType(item) == "compaction") return true;
  }
  return false;
}

}  // namespace

Result<void> Session::Deliver(const JsonValue& delivery, std::int64_t now_ms, EffectSink* sink) {
  if (!delivery.is_object()) return Fail(ErrorCode::kInvalidInput, "a delivery must be an object");
  auto type = delivery.GetString("type");
  if (!type) return Fail(ErrorCode::kInvalidInput, "a delivery needs a string `type`");
  // The clock moves only once the delivery is accepted: a rejected call changes nothing.
  if (*type == "tool_output") {
    auto call_id = delivery.GetString("call_id");
    const JsonValue* output = delivery.Find("output");
    if (!call_id || output == nullptr || !(output->is_string() || output->is_array())) {
      return Fail(ErrorCode::kInvalidInput,
                  "tool_output needs `call_id` and `output` (a string or content parts)");
    }
    Advance(now_ms);
    for (auto& call : calls_) {
      if (call.call_id == *call_id && call.host && !call.output) {
        call.output = *output;
        MaybeFinishTools(sink);
        return {};
      }
    }
    StaleDelivery("tool call " + std::string(*call_id), sink);
    return {};
  }
  auto request_id = delivery.GetString("request_id");
  if (!request_id) return Fail(ErrorCode::kInvalidInput, "a model delivery needs `request_id`");
  if (*type != "model_events" && *type != "model_error" && *type != "model_response") {
    return Fail(ErrorCode::kInvalidInput, "unknown delivery type: " + std::string(*type));
  }
  if (*type == "model_events" && *request_id == last_completed_request_ &&
      ClosesCompletedStream(delivery)) {
    return {};  // the rest of a completed stream carries no event: nothing to do
  }
  if (!request_ || request_->id != *request_id || state_ != TurnState::kAwaitingModel ||
      request_->terminal) {
    Advance(now_ms);
    StaleDelivery("request " + std::string(*request_id), sink);
    return {};
  }
  if (*type == "model_error") {
    Advance(now_ms);
    std::optional<std::int64_t> status = delivery.GetInt("status");
    std::string_view error_body = delivery.GetString("body").value_or("");
    std::string_view error_message = delivery.GetString("message").value_or("");
    if (!request_->resent_after_refusal) {
      if (auto feature =
              request_->dialect->RefusedFeature(status, error_body, request_->features)) {
        RefuseFeature(*feature, RefusalText(error_body), sink);
        return {};
      }
    }
    ModelFailure f = request_->dialect->MapErrorDelivery(status, error_body, error_message);
    FailRequest(f.code, f.message, f.retryable, f.retry_after_ms, sink);
    return {};
  }
  const bool compact_endpoint = request_->endpoint == "responses/compact";
  if (*type == "model_response") {
    auto body = delivery.GetString("body");
    if (!compact_endpoint || !body) {
      return Fail(ErrorCode::kInvalidInput,
                  "model_response deliveries answer responses/compact requests with a string "
                  "`body`");
    }
    Advance(now_ms);
    CompleteRemoteCompaction(*body, sink);
    return {};
  }
  if (compact_endpoint) {
    return Fail(ErrorCode::kInvalidInput,
                "responses/compact requests are answered by a model_response delivery");
  }
  Advance(now_ms);
  if (auto sse = delivery.GetString("sse")) {
    request_->streamed_bytes += sse->size();
    if (request_->streamed_bytes > kMaxResponseBytes) {
      FailRequest(ErrorCode::kStreamError,
                  "the response streamed more than " + std::to_string(kMaxResponseBytes) +
                      " bytes, the limit of one model response; the same request would stream "
                      "the same response, so it is not retried",
                  false, std::nullopt, sink);
      return {};
    }
    SseOutput out;
    request_->parser.Feed(*sse, &out);
    for (const auto& w : out.warnings) {
      if (w.code == WarningCode::kSseEventTooLarge) request_->dropped_oversized_event = true;
      sink->Warning(w.code, w.message);
    }
    for (const auto& event : out.events) {
      if (!request_ || request_->terminal) break;
      HandleProviderEvent(event, sink);
    }
  }
  if (const JsonValue* events = delivery.Find("events"); events != nullptr && events->is_array()) {
    for (const auto& event : events->items()) {
      if (!request_ || request_->terminal) break;
      HandleProviderEvent(event, sink);
    }
  }
  if (delivery.GetBool("end").value_or(false) && request_ && !request_->terminal &&
      request_->stream) {
    // A provider stream that may finish without a terminal event (Chat without its usage
    // chunk) completes at the end.
    std::vector<JsonValue> events;
    request_->stream->OnEnd(&events);
    for (const auto& event : events) {
      if (!request_ || request_->terminal) break;
      HandleModelEvent(event, sink);
    }
  }
  if (delivery.GetBool("end").value_or(false) && request_ && !request_->terminal &&
      state_ == TurnState::kAwaitingModel) {
    // A stream that lost an event past the size limit would lose it again: not retryable.
    ModelFailure f =
        request_->dropped_oversized_event ? OversizedEventFailure() : StreamClosedFailure();
    FailRequest(f.code, f.message, f.retryable, f.retry_after_ms, sink);
  }
  return {};
}

void Session::EndRequestStream() {
  request_->terminal = true;
  last_completed_request_ = request_->id;
  completed_stream_tail_ = std::move(request_->parser);
  request_->parser = SseParser();
}

bool Session::ClosesCompletedStream(const JsonValue& delivery) {
  // A stream goes on after the event that completed it: a provider may send an end-of-stream
  // sentinel after its usage chunk, and a host that hands on one SSE event per delivery
  // delivers it alone; then the host's `end`. Its framing continues where the request's parser
  // stopped, so a tail split anywhere reads the same; a tail carrying an event (or a parse error)
  // is stale.
  const JsonValue* events = delivery.Find("events");
  if (events != nullptr && !(events->is_array() && events->items().empty())) return false;
  SseOutput out;
  if (auto sse = delivery.GetString("sse")) completed_stream_tail_.Feed(*sse, &out);
  if (delivery.GetBool("end").value_or(false)) completed_stream_tail_.Finish();
  return out.events.empty() && out.warnings.empty();
}

void Session::HandleProviderEvent(const JsonValue& event, EffectSink* sink) {
  // A provider stream becomes Responses events first, so every provider shares the effects and
  // retry semantics below; a Responses stream needs no adapter.
  if (!request_->stream) {
    HandleModelEvent(event, sink);
    return;
  }
  std::vector<JsonValue> events;
  request_->stream->OnEvent(event, &events);
  for (const auto& e : events) {
    if (!request_ || request_->terminal) break;
    HandleModelEvent(e, sink);
  }
}

void Session::HandleModelEvent(const JsonValue& event, EffectSink* sink) {
  auto type = event.GetString("type").value_or("");
  if (type == "response.output_text.delta" || type == "response.reasoning_summary_text.delta" ||
      type == "response.reasoning_text.delta") {
    JsonValue e =
        MakeEvent(type == "response.output_text.delta" ? "text_delta" : "reasoning_delta");
    e.Set("request_id", JsonValue::String(request_->id));
    e.Set("delta", JsonValue::String(std::string(event.GetString("delta").value_or(""))));
    sink->Event(std::move(e));
  } else if (type == "response.output_item.done") {
    if (request_->output_items.size() >= kMaxResponseOutputItems) {
      FailRequest(ErrorCode::kStreamError,
                  "the response has more than " + std::to_string(kMaxResponseOutputItems) +
                      " output items, the limit of one model response; the same request would "
                      "get the same response, so it is not retried",
                  false, std::nullopt, sink);
      return;
    }
    if (const JsonValue* item = event.Find("item"); item != nullptr) {
      std::vector<Warning> warnings;
      auto canonical = CanonicalizeItem(*item, &warnings);
      for (const auto& w : warnings) sink->Warning(w.code, w.message);
      if (canonical) request_->output_items.push_back(std::move(*canonical));
    }
  } else if (type == "response.completed") {
    NoteContextEdits(event, sink);
    NoteCacheDiagnosis(event, sink);
    CompleteResponse(event, sink);
  } else if (type == "response.failed") {
    ModelFailure f = MapResponseFailed(event);
    FailRequest(f.code, f.message, f.retryable, f.retry_after_ms, sink);
  } else if (type == "response.incomplete") {
    ModelFailure f = MapResponseIncomplete(event);
    FailRequest(f.code, f.message, f.retryable, f.retry_after_ms, sink);
  }
  // Everything else (created, in_progress, added, part events) is ignored.
}

std::optional<std::string> Session::HistoryLimitRefusal(std::uint64_t more,
                                                        std::string_view what) const {
  const auto limit = static_cast<std::uint64_t>(config_.max_history_bytes);
  if (history_bytes_ + more <= limit) return std::nullopt;
  return "the session's history holds " + std::to_string(history_bytes_) + " bytes and " +
         std::string(what) + " adds " + std::to_string(more) + ", past max_history_bytes (" +
         std::to_string(limit) +
         "); nothing of it was recorded: compact the session or start a new one";
}

void Session::CompleteResponse(const JsonValue& event, EffectSink* sink) {
  if (request_->purpose == "compact") {
    if (compaction_ && compaction_->strategy == CompactionStrategy::kInband) {
      CompleteInbandCompaction(event, sink);
    } else {
      CompleteLocalCompaction(event, sink);
    }
    return;
  }
  if (request_->purpose == "prewarm") {
    CompletePrewarm(event, sink);
    return;
  }
  if (!HasCompactionItem(request_->output_items)) {  // a server compaction replaces history
    std::uint64_t more = 0;
    for (const JsonValue& item : request_->output_items) more += ToJson(item).size();
    if (auto refusal = HistoryLimitRefusal(more, "this response")) {
      // Not retryable: the same request would get the same response.
      FailRequest(ErrorCode::kSessionTooLarge, std::move(*refusal), false, std::nullopt, sink);
      return;
    }
  }
  EndRequestStream();
  std::vector<JsonValue> items = std::move(request_->output_items);
  std::string request_id = request_->id;
  // The provider compacted this request (strategy server): its usage measured the history
  // before (reported first, so a resume forgets it with that history); history is now the
  // compaction item and the reinjected context, then what the model answered after it.
  const bool server_compacted = HasCompactionItem(items);
  if (server_compacted) {
    ReportUsage(event, request_id, sink);
    ApplyServerCompaction(&items, sink);
  }
  for (auto& item : items) {
    bool is_message = ItemType(item) == "message";
    std::string text;
    if (is_message) {
      for (auto part : MessageTexts(item, "output_text")) text += part;
    }
    Record(std::move(item), "model", sink);
    if (is_message) {
      sink->Persist(AgentMessageLine(now_ms_, text));
      last_agent_message_ = text;
    }
  }
  if (auto tokens = server_compacted ? std::nullopt : ReportUsage(event, request_id, sink)) {
    usage_tokens_ = *tokens;
    usage_history_size_ = history_.size();
  }
  if (server_compacted && items.empty()) {
    // Paused after compacting (Anthropic pause_after_compaction): the model has not answered
    // yet; it does at the next step, with the reinjected context.
    if (steps_in_turn_ >= config_.max_steps_per_turn) {
      sink->Warning(WarningCode::kStepLimit, "the turn reached max_steps_per_turn (" +
                                                 std::to_string(config_.max_steps_per_turn) +
                                                 ") and was ended");
      EndTurn("completed", sink);
      return;
    }
    StartStep(/*turn_start=*/false, nullptr, sink);
    return;
  }
  DispatchToolCalls(sink);
}

void Session::NoteCacheDiagnosis(const JsonValue& event, EffectSink* sink) {
  const JsonValue* response = event.Find("response");
  if (response == nullptr || !response->is_object()) return;
  if (auto id = response->GetString("id"); id && !id->empty()) {
    last_response_id_ = std::string(*id);
  }
  if (!request_->features(ProviderFeature::kCacheDiagnostics)) return;
  if (request_->comparison_id.empty()) {
    // Nothing compared yet; the line keeps the id for the next request, across a resume.
    JsonValue line = JsonValue::Object();
    line.Set("request_id", JsonValue::String(request_->id));
    line.Set("response_id", JsonValue::String(last_response_id_));
    sink->Persist(CacheDiagnosisLine(now_ms_, line));
    return;
  }
  ProviderVerdict verdict =
      ReadProviderVerdict(*response, request_->dialect->diagnosis_vocabulary());
  JsonValue payload = CacheDiagnosisJson(request_->id, verdict, request_->engine_break_reason);
  diagnosis_totals_.Add(payload.GetString("verdict").value_or(""));
  JsonValue line = payload;
  line.Set("response_id", JsonValue::String(last_response_id_));
  sink->Persist(CacheDiagnosisLine(now_ms_, line));
  JsonValue e = MakeEvent("cache_diagnosis");
  for (auto& m : payload.members()) e.Set(m.key, m.value);
  sink->Event(std::move(e));
}

std::optional<std::uint64_t> Session::ReportUsage(const JsonValue& event,
                                                  const std::string& request_id, EffectSink* sink) {
  const JsonValue* response = event.Find("response");
  const JsonValue* usage = response != nullptr ? response->Find("usage") : nullptr;
  if (usage == nullptr || !usage->is_object()) return std::nullopt;
  TokenUsageFields u;
  u.input_tokens = UsageField(usage, "input_tokens");
  u.cached_input_tokens = UsageField(usage, "", "input_tokens_details", "cached_tokens");
  u.output_tokens = UsageField(usage, "output_tokens");
  u.reasoning_output_tokens = UsageField(usage, "", "output_tokens_details", "reasoning_tokens");
  u.total_tokens = usage->Find("total_tokens") != nullptr ? UsageField(usage, "total_tokens")
                                                          : u.input_tokens + u.output_tokens;
  // The tokens written to the cache, only when the provider reports them (it bills writes);
  // the rollout keeps them for the replay's costs. OpenAI (GPT-5.6+) names them
  // `cache_write_tokens`, Anthropic's stream adapter `cache_creation_tokens`.
  if (const JsonValue* details = usage->Find("input_tokens_details");
      details != nullptr && details->Find("cache_write_tokens") != nullptr) {
    u.cache_creation_input_tokens =
        UsageField(usage, "", "input_tokens_details", "cache_write_tokens");
    // Of them, the 12 h writes (OpenAI's long TTL), when the usage splits them by TTL: recorded
    // in the long-TTL field Anthropic's 1 h writes use.
    const JsonValue* by_ttl = details->Find("cache_write_tokens_details");
    if (by_ttl != nullptr && by_ttl->is_object() && by_ttl->Find("ttl_12h_tokens") != nullptr) {
      u.cache_creation_1h_input_tokens =
          std::min(UsageField(by_ttl, "ttl_12h_tokens"), *u.cache_creation_input_tokens);
    }
  } else if (details != nullptr && details->Find("cache_creation_tokens") != nullptr) {
    u.cache_creation_input_tokens =
        UsageField(usage, "", "input_tokens_details", "cache_creation_tokens");
    // Of them, the 1 h writes (priced 2x), when the provider split its writes by TTL.
    if (details->Find("cache_creation_1h_tokens") != nullptr) {
      u.cache_creation_1h_input_tokens =
          std::min(UsageField(usage, "", "input_tokens_details", "cache_creation_1h_tokens"),
                   *u.cache_creation_input_tokens);
    }
  }
  std::optional<std::uint64_t> window;
  if (config_.model.context_window) {
    window = static_cast<std::uint64_t>(*config_.model.context_window);
  }
  sink->Persist(TokenCountLine(now_ms_, u, window));
  explainer_.NoteReportedUsage(
      request_id, ReportedUsage{u.input_tokens, u.cached_input_tokens,
                                u.cache_creation_input_tokens.value_or(0), u.output_tokens,
                                u.cache_creation_1h_input_tokens});
  // Right after a response, context_tokens = its input + output (token_accounting.h; nothing
  // recorded after its output yet).
  std::uint64_t context_tokens = u.input_tokens + u.output_tokens;
  JsonValue e = MakeEvent("token_usage");
  e.Set("request_id", JsonValue::String(request_id));
  e.Set("input_tokens", JsonValue::Int(static_cast<std::int64_t>(u.input_tokens)));
  e.Set("cached_tokens", JsonValue::Int(static_cast<std::int64_t>(u.cached_input_tokens)));
  e.Set("output_tokens", JsonValue::Int(static_cast<std::int64_t>(u.output_tokens)));
  e.Set("reasoning_tokens", JsonValue::Int(static_cast<std::int64_t>(u.reasoning_output_tokens)));
  e.Set("total_tokens", JsonValue::Int(static_cast<std::int64_t>(u.total_tokens)));
  e.Set("context_tokens", JsonValue::Int(static_cast<std::int64_t>(context_tokens)));
  e.Set("context_window",
        window ? JsonValue::Int(static_cast<std::int64_t>(*window)) : JsonValue());
  if (u.cache_creation_input_tokens) {
    e.Set("cache_creation_tokens",
          JsonValue::Int(static_cast<std::int64_t>(*u.cache_creation_input_tokens)));
  }
  if (u.cache_creation_1h_input_tokens) {
    e.Set("cache_creation_1h_tokens",
          JsonValue::Int(static_cast<std::int64_t>(*u.cache_creation_1h_input_tokens)));
  }
  sink->Event(std::move(e));
  return context_tokens;
}

void Session::FailRequest(ErrorCode code, std::string message, bool retryable,
                          std::optional<std::int64_t> retry_after_ms, EffectSink* sink) {
  EndRequestStream();  // its stream is over: a later bare `end` is silent
  request_->output_items.clear();
  if (request_->purpose == "compact" && !retryable) {
    // A local compaction that overflowed drops its oldest input item (request_trim.h) and
    // asks again; anything else non-retryable fails the compaction, history unchanged.
    if (code == ErrorCode::kContextWindowExceeded && RetryTrimmedCompaction(sink)) return;
    FailCompaction(ErrorCodeName(code), message, sink);
    return;
  }
  sink->SetError(ErrorEffect{code, std::move(message), retryable, request_->id, retry_after_ms});
  if (retryable) {
    state_ = TurnState::kSuspended;  // until retry(request_id) or interrupt()
    return;
  }
  EndTurn("failed", sink);
}

}  // namespace agentctx
