// SPDX-License-Identifier: MIT
// agentctx/envelope.h over the engine's envelope writer and the JSON codec.
#include "agentctx/envelope.h"
#include "engine/envelope.h"
#include "protocol/json_codec.h"

namespace agentctx {

std::string ErrorEnvelopeFor(const Error& error) { return ErrorEnvelope(error); }

std::string OkEnvelopeWithString(std::string_view key, std::string_view value) {
  JsonValue v = JsonValue::Object();
  v.Set(std::string(key), JsonValue::String(std::string(value)));
  return OkEnvelope(v);
}

Result<std::optional<std::string>> JsonObjectString(std::string_view json, std::string_view key) {
  auto parsed = ParseJson(json.empty() ? std::string_view("{}") : json);
  if (!parsed) return Fail(parsed.error());
  if (!parsed->is_object()) return Fail(ErrorCode::kInvalidInput, "input must be a JSON object");
  auto value = parsed->GetString(key);
  if (!value) return std::optional<std::string>();
  return std::optional<std::string>(std::string(*value));
}

}  // namespace agentctx
