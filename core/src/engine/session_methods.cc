// SPDX-License-Identifier: MIT
// Session-handle methods of the facade: input checks and dispatch (see session_methods.h).
#include "engine/session_methods.h"

#include "engine/envelope.h"
#include "protocol/json_codec.h"
#include "provider/cache/cache_pricing.h"

namespace agentctx {
namespace {

Result<std::int64_t> NowMs(const JsonValue& input) {
  const JsonValue* v = input.Find("now_ms");
  if (v == nullptr || v->is_null()) return std::int64_t{0};
  auto n = v->int_value();
  if (!n || *n < 0) return Fail(ErrorCode::kInvalidInput, "now_ms must be a non-negative integer");
  return *n;
}

std::string_view KindName(const JsonValue& v) {
  switch (v.kind()) {
    case JsonValue::Kind::kNull:
      return "null";
    case JsonValue::Kind::kBool:
      return "a boolean";
    case JsonValue::Kind::kNumber:
      return "a number";
    case JsonValue::Kind::kString:
      return "a string";
    case JsonValue::Kind::kArray:
      return "an array";
    case JsonValue::Kind::kObject:
      return "an object";
  }
  return "a value";
}

// A delivery's `sse` (text, or bytes by reference, resolved by now) and `events` (an array), when
// present, must have those types: any other value would be ignored and the turn would fail later
// with a message that does not name the cause.
Result<void> CheckStreamFields(const JsonValue& delivery) {
  if (!delivery.is_object()) return {};
  const JsonValue* sse = delivery.Find("sse");
  if (sse != nullptr && !sse->is_string()) {
    return Fail(ErrorCode::kInvalidInput,
                "a delivery's `sse` must be a string or bytes, not " + std::string(KindName(*sse)));
  }
  const JsonValue* events = delivery.Find("events");
  if (events != nullptr && !events->is_array()) {
    return Fail(ErrorCode::kInvalidInput,
                "a delivery's `events` must be an array, not " + std::string(KindName(*events)));
  }
  return {};
}

// The wire config, validated once here; its `unknown_config_key` warnings go first.
Result<SessionConfig> ConfigFromWire(const JsonValue& config, EffectSink* sink) {
  std::vector<Warning> warnings;
  ACTX_TRY(SessionConfig parsed, ParseSessionConfig(config, &warnings));
  for (const auto& w : warnings) sink->Warning(w.code, w.message);
  return parsed;
}

std::string EffectsEnvelope(EffectSink& sink, SessionSlot* slot) {
  std::vector<std::string_view> views;
  std::string json = sink.ToJson(&views);
  for (std::string_view v : views) slot->attachments.View(v);  // session-owned bytes
  slot->persist_lines = sink.TakePersisted();
  return OkEnvelopeOwned(std::move(json));  // in place: a large response is not copied again
}

std::string PromptPreviewEnvelope(const Session& s, OutputAttachments* attachments) {
  auto body = s.PromptPreview();
  if (!body) return ErrorEnvelope(body.error());
  const std::uint64_t length = body->size();
  std::string out = "{\"body\":";
  AppendAttachmentRef(&out, attachments->Own(std::move(*body)), length);
  out.push_back('}');
  return OkEnvelopeRaw(out);
}

std::string Inspect(const Session& s, const JsonValue& input, OutputAttachments* attachments) {
  const JsonValue* v = input.Find("format");
  std::optional<InspectFormat> format = InspectFormat::kAgents;
  if (v != nullptr && !v->is_null()) {
    format = v->is_string() ? FromWire<InspectFormat>(v->string_value()) : std::nullopt;
  }
  if (!format) {
    return ErrorEnvelope(Error{
        ErrorCode::kInvalidInput, "inspect format must be " + WireChoices<InspectFormat>(), {}});
  }
  switch (*format) {
    case InspectFormat::kAgents:
      return OkEnvelope(s.AgentsInspect());
    case InspectFormat::kWorldState:
      return OkEnvelope(s.WorldStateSnapshot());
    case InspectFormat::kRequest:
      return PromptPreviewEnvelope(s, attachments);
    case InspectFormat::kBreakpoints:
      return OkEnvelope(s.BreakpointsInspect());
  }
  return {};
}

// Every method of an open session (SessionMethod, generated from core/protocol.json): the switch
// has no default, so a method added to the description without a case here warns (-Wswitch).
std::string Dispatch(SessionSlot* slot, SessionMethod method, JsonValue* input,
                     const std::vector<std::string_view>& inputs, std::int64_t now) {
  Session& s = *slot->session;
  EffectSink sink;
  auto Effects = [&](const Result<void>& r) {
    if (!r) return ErrorEnvelope(r.error());
    return EffectsEnvelope(sink, slot);
  };
  switch (method) {
    case SessionMethod::kSessionStart:
    case SessionMethod::kSessionResume:
      return ErrorEnvelope(
          Error{ErrorCode::kInvalidState, "this handle already has a session", {}});
    case SessionMethod::kSubmit: {
      auto submit = SubmitInputFromJson(*input);
      if (!submit) return ErrorEnvelope(submit.error());
      return Effects(s.Submit(*submit, now, &sink));
    }
    case SessionMethod::kDeliver: {
      auto resolved = ResolveInputRefs(input, inputs);
      if (!resolved) return ErrorEnvelope(resolved.error());
      const JsonValue* d = input->Find("delivery");
      const JsonValue& delivery = d != nullptr ? *d : *input;
      auto shape = CheckStreamFields(delivery);
      if (!shape) return ErrorEnvelope(shape.error());
      return Effects(s.Deliver(delivery, now, &sink));
    }
    case SessionMethod::kUpdate: {
      const JsonValue* delta = input->Find("delta");
      if (delta == nullptr) {
        return ErrorEnvelope(Error{ErrorCode::kInvalidInput, "update needs a `delta` object", {}});
      }
      return Effects(s.Update(*delta, now, &sink));
    }
    case SessionMethod::kTick:
      return Effects(s.Tick(now, &sink));
    case SessionMethod::kInterrupt:
      return Effects(s.Interrupt(now, &sink));
    case SessionMethod::kCompact: {
      auto turn_id = CompactTurnIdFromJson(*input);
      if (!turn_id) return ErrorEnvelope(turn_id.error());
      return Effects(s.Compact(*turn_id, now, &sink));
    }
    case SessionMethod::kRetry: {
      auto id = input->GetString("request_id");
      if (!id)
        return ErrorEnvelope(Error{ErrorCode::kInvalidInput, "retry needs `request_id`", {}});
      return Effects(s.Retry(*id, now, &sink));
    }
    case SessionMethod::kHistory:
      return OkEnvelope(s.History());
    case SessionMethod::kWorldState:
      return OkEnvelope(s.WorldStateSnapshot());
    case SessionMethod::kInstructionSources:
      return OkEnvelope(s.InstructionSources());
    case SessionMethod::kPromptPreview:
      return PromptPreviewEnvelope(s, &slot->attachments);
    case SessionMethod::kCacheSummary: {
      // `{"prices"?}`: the summary adds the cost at those prices (cache_pricing.h).
      const JsonValue* prices = input->Find("prices");
      if (prices == nullptr || prices->is_null()) return OkEnvelope(s.CacheSummary());
      TypedPrices typed;
      auto read = ReadTypedPrices(*prices, "cache_summary", &typed);
      if (!read) return ErrorEnvelope(read.error());
      return OkEnvelope(s.CacheSummary(&typed));
    }
    case SessionMethod::kStats:
      return OkEnvelope(s.Stats());
    case SessionMethod::kInspect:
      return Inspect(s, *input, &slot->attachments);
  }
  return ErrorEnvelope(Error{ErrorCode::kInternal, "unhandled session method", {}});
}

}  // namespace

std::string CallSession(SessionSlot* slot, std::string_view method, std::string_view input_json,
                        const std::vector<std::string_view>& inputs) {
  slot->attachments.Clear();
  slot->persist_lines.clear();
  const std::optional<SessionMethod> known = FromWire<SessionMethod>(method);
  if (!known) {
    return ErrorEnvelope(
        Error{ErrorCode::kUnknownMethod, "unknown session method: " + std::string(method), {}});
  }
  auto parsed = ParseJson(input_json.empty() ? std::string_view("{}") : input_json);
  if (!parsed) return ErrorEnvelope(parsed.error());
  if (!parsed->is_object()) {
    return ErrorEnvelope(Error{ErrorCode::kInvalidInput, "method input must be a JSON object", {}});
  }
  auto now = NowMs(*parsed);
  if (!now) return ErrorEnvelope(now.error());

  if (*known == SessionMethod::kSessionStart) {
    if (slot->session) {
      return ErrorEnvelope(
          Error{ErrorCode::kInvalidState, "this handle already has a session", {}});
    }
    const JsonValue* config = parsed->Find("config");
    if (config == nullptr) {
      return ErrorEnvelope(Error{ErrorCode::kInvalidInput, "session.start needs `config`", {}});
    }
    EffectSink sink;
    auto parsed_config = ConfigFromWire(*config, &sink);
    if (!parsed_config) return ErrorEnvelope(parsed_config.error());
    auto created = Session::Create(std::move(*parsed_config), slot->file_systems, *now, &sink);
    if (!created) return ErrorEnvelope(created.error());
    slot->session = std::move(*created);
    return EffectsEnvelope(sink, slot);
  }
  if (*known == SessionMethod::kSessionResume) {
    if (slot->session) {
      return ErrorEnvelope(
          Error{ErrorCode::kInvalidState, "this handle already has a session", {}});
    }
    const JsonValue* config = parsed->Find("config");
    auto rollout = InputText(*parsed, "rollout", inputs);
    if (!rollout) return ErrorEnvelope(rollout.error());
    if (config == nullptr || !*rollout) {
      return ErrorEnvelope(Error{ErrorCode::kInvalidInput,
                                 "session.resume needs `config` and `rollout` (a string or an "
                                 "attachment reference {\"$bytes\":i})",
                                 {}});
    }
    EffectSink sink;
    auto parsed_config = ConfigFromWire(*config, &sink);
    if (!parsed_config) return ErrorEnvelope(parsed_config.error());
    auto resumed =
        Session::Resume(std::move(*parsed_config), **rollout, slot->file_systems, *now, &sink);
    if (!resumed) return ErrorEnvelope(resumed.error());
    slot->session = std::move(*resumed);
    return EffectsEnvelope(sink, slot);
  }
  if (!slot->session) {
    return ErrorEnvelope(
        Error{ErrorCode::kInvalidState, "call session.start on this handle first", {}});
  }
  return Dispatch(slot, *known, &*parsed, inputs, *now);
}

}  // namespace agentctx
