// SPDX-License-Identifier: MIT
// Out-of-line JSON field setters; see json_fields.h.
#include "protocol/json_fields.h"

#include <string>

namespace agentctx {

void SetString(JsonValue* obj, std::string_view key, std::string_view value) {
  obj->Set(key, JsonValue::String(std::string(value)));
}

void SetInt(JsonValue* obj, std::string_view key, std::int64_t value) {
  obj->Set(key, JsonValue::Int(value));
}

}  // namespace agentctx
