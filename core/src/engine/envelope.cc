// SPDX-License-Identifier: MIT
#include "engine/envelope.h"

namespace agentctx {

std::string OkEnvelopeRaw(std::string_view value_json) {
  std::string out = "{\"v\":1,\"ok\":true,\"value\":";
  out.append(value_json);
  out.push_back('}');
  return out;
}

std::string OkEnvelope(const JsonValue& value) { return OkEnvelopeRaw(ToJson(value)); }

std::string ErrorEnvelope(const Error& error) {
  JsonValue err = JsonValue::Object();
  err.Set("code", JsonValue::String(std::string(ErrorCodeName(error.code))));
  err.Set("message", JsonValue::String(error.message));
  if (!error.details.empty()) {
    JsonValue details = JsonValue::Object();
    for (const auto& [k, v] : error.details) details.Set(k, JsonValue::String(v));
    err.Set("details", std::move(details));
  }
  std::string out = "{\"v\":1,\"ok\":false,\"error\":";
  AppendJson(&out, err);
  out.push_back('}');
  return out;
}

}  // namespace agentctx
