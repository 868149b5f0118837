// SPDX-License-Identifier: MIT
// The JSON codec: the only module that includes RapidJSON. This header
// exposes no RapidJSON type.
// Invariants: parsing never aborts on bad input; errors are kInvalidJson with the byte offset
// in details["offset"]; numbers keep their lexeme; invalid UTF-8 inside strings is replaced
// with U+FFFD; nesting deeper than kMaxJsonDepth is rejected (stack safety).
#pragma once

#include <string_view>

#include "agentctx/result.h"
#include "protocol/json_value.h"

namespace agentctx {

inline constexpr int kMaxJsonDepth = 512;

/// Parses one JSON document (surrounding whitespace allowed, nothing else).
Result<JsonValue> ParseJson(std::string_view text);

/// ParseJson's verdict on `text` without building the value (the same errors), for text that
/// would be parsed only to be dropped. `object`: true when the document is a JSON object.
Result<void> ValidateJson(std::string_view text, bool* object = nullptr);

}  // namespace agentctx
