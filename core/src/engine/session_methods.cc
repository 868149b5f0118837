// SPDX-License-Identifier: MIT
#include "engine/session_methods.h"

#include "engine/envelope.h"
#include "protocol/json_codec.h"

namespace agentctx {
namespace {

Result<std::int64_t> NowMs(const JsonValue& input) {
  const JsonValue* v = input.Find("now_ms");
  if (v == nullptr || v->is_null()) return std::int64_t{0};
  auto n = v->int_value();
  if (!n || *n < 0) return Fail(ErrorCode::kInvalidInput, "now_ms must be a non-negative integer");
  return *n;
}

std::string EffectsEnvelope(const EffectSink& sink, OutputAttachments* attachments) {
  std::vector<std::string_view> views;
  std::string json = sink.ToJson(&views);
  for (std::string_view v : views) attachments->View(v);  // session-owned bytes
  return OkEnvelopeRaw(json);
}

std::string Mutate(SessionSlot* slot, std::string_view method, JsonValue* input,
                   const std::vector<std::string_view>& inputs, std::int64_t now) {
  Session& s = *slot->session;
  EffectSink sink;
  auto Effects = [&](const Result<void>& r) {
    if (!r) return ErrorEnvelope(r.error());
    return EffectsEnvelope(sink, &slot->attachments);
  };
  if (method == "submit") return Effects(s.Submit(*input, now, &sink));
  if (method == "deliver") {
    auto resolved = ResolveInputRefs(input, inputs);
    if (!resolved) return ErrorEnvelope(resolved.error());
    const JsonValue* d = input->Find("delivery");
    return Effects(s.Deliver(d != nullptr ? *d : *input, now, &sink));
  }
  if (method == "update") {
    const JsonValue* delta = input->Find("delta");
    if (delta == nullptr) {
      return ErrorEnvelope(Error{ErrorCode::kInvalidInput, "update needs a `delta` object", {}});
    }
    return Effects(s.Update(*delta, now, &sink));
  }
  if (method == "tick") return Effects(s.Tick(now, &sink));
  if (method == "interrupt") return Effects(s.Interrupt(now, &sink));
  if (method == "compact") return Effects(s.Compact(*input, now, &sink));
  if (method == "retry") {
    auto id = input->GetString("request_id");
    if (!id) return ErrorEnvelope(Error{ErrorCode::kInvalidInput, "retry needs `request_id`", {}});
    return Effects(s.Retry(*id, now, &sink));
  }
  return {};
}

std::string Query(const Session& s, std::string_view method, const JsonValue& input,
                  OutputAttachments* attachments) {
  if (method == "history") return OkEnvelope(s.History());
  if (method == "world_state") return OkEnvelope(s.WorldStateSnapshot());
  if (method == "instruction_sources") return OkEnvelope(s.InstructionSources());
  if (method == "cache_summary") return OkEnvelope(s.CacheSummary());
  if (method == "stats") return OkEnvelope(s.Stats());
  if (method == "prompt_preview") {
    auto body = s.PromptPreview();
    if (!body) return ErrorEnvelope(body.error());
    const std::uint64_t length = body->size();
    std::string out = "{\"body\":";
    AppendAttachmentRef(&out, attachments->Own(std::move(*body)), length);
    out.push_back('}');
    return OkEnvelopeRaw(out);
  }
  if (method == "inspect") {
    auto format = input.GetString("format").value_or("agents");
    if (format == "agents") return OkEnvelope(s.AgentsInspect());
    if (format == "world-state") return OkEnvelope(s.WorldStateSnapshot());
    if (format == "request") return Query(s, "prompt_preview", input, attachments);
    if (format == "breakpoints") return OkEnvelope(s.BreakpointsInspect());
    return ErrorEnvelope(Error{ErrorCode::kInvalidInput,
                               "inspect format must be agents, world-state, request or breakpoints",
                               {}});
  }
  return {};
}

constexpr std::string_view kSessionMethods[] = {
    "session.start",  "session.resume", "submit", "deliver", "update",      "tick",
    "interrupt",      "compact",        "retry",  "history", "world_state", "instruction_sources",
    "prompt_preview", "cache_summary",  "stats",  "inspect"};

bool IsSessionMethod(std::string_view method) {
  for (auto m : kSessionMethods) {
    if (m == method) return true;
  }
  return false;
}

}  // namespace

std::string CallSession(SessionSlot* slot, std::string_view method, std::string_view input_json,
                        const std::vector<std::string_view>& inputs) {
  slot->attachments.Clear();
  if (!IsSessionMethod(method)) {
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

  if (method == "session.start") {
    if (slot->session) {
      return ErrorEnvelope(
          Error{ErrorCode::kInvalidState, "this handle already has a session", {}});
    }
    const JsonValue* config = parsed->Find("config");
    if (config == nullptr) {
      return ErrorEnvelope(Error{ErrorCode::kInvalidInput, "session.start needs `config`", {}});
    }
    EffectSink sink;
    auto created = Session::Create(*config, slot->file_systems, *now, &sink);
    if (!created) return ErrorEnvelope(created.error());
    slot->session = std::move(*created);
    return EffectsEnvelope(sink, &slot->attachments);
  }
  if (method == "session.resume") {
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
    auto resumed = Session::Resume(*config, **rollout, slot->file_systems, *now, &sink);
    if (!resumed) return ErrorEnvelope(resumed.error());
    slot->session = std::move(*resumed);
    return EffectsEnvelope(sink, &slot->attachments);
  }
  if (!slot->session) {
    return ErrorEnvelope(
        Error{ErrorCode::kInvalidState, "call session.start on this handle first", {}});
  }
  std::string out = Mutate(slot, method, &*parsed, inputs, *now);
  if (out.empty()) out = Query(*slot->session, method, *parsed, &slot->attachments);
  if (out.empty()) {
    out = ErrorEnvelope(
        Error{ErrorCode::kUnknownMethod, "unknown session method: " + std::string(method), {}});
  }
  return out;
}

}  // namespace agentctx
