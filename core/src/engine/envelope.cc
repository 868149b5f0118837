// SPDX-License-Identifier: MIT
// Envelopes (see envelope.h); a large value is wrapped in its own buffer, never copied twice.
#include "engine/envelope.h"

namespace agentctx {

namespace {

constexpr std::string_view kOkPrefix = "{\"v\":1,\"ok\":true,\"value\":";

}  // namespace

std::string OkEnvelopeRaw(std::string_view value_json) {
  std::string out;
  out.reserve(kOkPrefix.size() + value_json.size() + 1);  // exact: no growth on the last '}'
  out.append(kOkPrefix);
  out.append(value_json);
  out.push_back('}');
  return out;
}

std::string OkEnvelopeOwned(std::string value_json) {
  std::string out = std::move(value_json);
  out.reserve(kOkPrefix.size() + out.size() + 1);
  out.insert(0, kOkPrefix);
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
