// SPDX-License-Identifier: MIT
#include "session/effects.h"

#include "protocol/attachment_ref.h"

namespace agentctx {

JsonValue MakeEvent(std::string_view type) {
  JsonValue e = JsonValue::Object();
  e.Set("type", JsonValue::String(std::string(type)));
  return e;
}

void EffectSink::Warning(WarningCode code, std::string_view message) {
  JsonValue e = MakeEvent("warning");
  e.Set("code", JsonValue::String(std::string(ToWire(code))));
  e.Set("message", JsonValue::String(std::string(message)));
  events_.push_back(std::move(e));
}

std::string EffectSink::ToJson(std::vector<std::string_view>* attachments) const {
  std::string out = "{\"effects\":[";
  bool first = true;
  auto sep = [&] {
    if (!first) out.push_back(',');
    first = false;
  };
  if (!persist_.empty()) {
    sep();
    out += "{\"type\":\"persist\",\"lines\":[";
    for (std::size_t i = 0; i < persist_.size(); ++i) {
      if (i > 0) out.push_back(',');
      AppendJsonString(&out, persist_[i]);
    }
    out += "]}";
  }
  for (const auto& e : events_) {
    sep();
    out += "{\"type\":\"event\",\"event\":";
    AppendJson(&out, e);
    out += "}";
  }
  if (error_) {
    sep();
    out += "{\"type\":\"error\",\"code\":";
    AppendJsonString(&out, ErrorCodeName(error_->code));
    out += ",\"message\":";
    AppendJsonString(&out, error_->message);
    out += error_->retryable ? ",\"retryable\":true" : ",\"retryable\":false";
    if (error_->request_id) {
      out += ",\"request_id\":";
      AppendJsonString(&out, *error_->request_id);
    }
    if (error_->retry_after_ms) {
      out += ",\"retry_after_ms\":";
      AppendJson(&out, JsonValue::Int(*error_->retry_after_ms));
    }
    out += "}";
  }
  for (const auto& c : tool_calls_) {
    sep();
    out += "{\"type\":\"tool_call\",\"call_id\":";
    AppendJsonString(&out, c.call_id);
    out += ",\"name\":";
    AppendJsonString(&out, c.name);
    if (c.server) {
      out += ",\"server\":";
      AppendJsonString(&out, *c.server);
    }
    if (c.tool) {
      out += ",\"tool\":";
      AppendJsonString(&out, *c.tool);
    }
    out += ",\"arguments\":";
    AppendJsonString(&out, c.arguments);
    out += "}";
  }
  if (model_request_) {
    sep();
    out += "{\"type\":\"model_request\",\"id\":";
    AppendJsonString(&out, model_request_->id);
    out += ",\"purpose\":";
    AppendJsonString(&out, model_request_->purpose);
    out += ",\"endpoint\":";
    AppendJsonString(&out, model_request_->endpoint);
    out += ",\"attempt\":";
    AppendJson(&out, JsonValue::Int(model_request_->attempt));
    out += ",\"body\":";
    AppendAttachmentRef(&out, attachments->size(), model_request_->body.size());
    attachments->push_back(model_request_->body);
    if (!model_request_->headers.empty()) {
      out += ",\"headers\":{";
      for (std::size_t i = 0; i < model_request_->headers.size(); ++i) {
        if (i > 0) out.push_back(',');
        AppendJsonString(&out, model_request_->headers[i].first);
        out.push_back(':');
        AppendJsonString(&out, model_request_->headers[i].second);
      }
      out += "}";
    }
    out += "}";
  }
  if (turn_complete_) {
    sep();
    out += "{\"type\":\"turn_complete\",\"turn_id\":";
    AppendJsonString(&out, turn_complete_->turn_id);
    out += ",\"reason\":";
    AppendJsonString(&out, turn_complete_->reason);
    if (turn_complete_->last_agent_message) {
      out += ",\"last_agent_message\":";
      AppendJsonString(&out, *turn_complete_->last_agent_message);
    }
    out += "}";
  }
  out += "]}";
  return out;
}

}  // namespace agentctx
