// SPDX-License-Identifier: MIT
// Out-of-line field setters for code that builds many JSON objects field by field (the
// provider renderings, stream adapters and mock answers): one call per field instead
// of an inlined temporary JsonValue, which keeps the wasm modules small.
#pragma once

#include <cstdint>
#include <string_view>

#include "protocol/json_value.h"

namespace agentctx {

/// obj->Set(key, JsonValue::String(value)).
void SetString(JsonValue* obj, std::string_view key, std::string_view value);
/// obj->Set(key, JsonValue::Int(value)).
void SetInt(JsonValue* obj, std::string_view key, std::int64_t value);

}  // namespace agentctx
