// SPDX-License-Identifier: MIT
// Argument parsing for built-in tools: bad arguments produce the output
// `failed to parse function arguments: <detail>` (ours). Unknown fields are ignored and a
// `null` optional field counts as absent (models in strict mode send nulls).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "agentctx/result.h"
#include "protocol/json_value.h"

namespace agentctx {

inline constexpr std::string_view kArgumentErrorPrefix = "failed to parse function arguments: ";

/// Parses `arguments` as a JSON object; the error message is the detail.
Result<JsonValue> ParseToolArguments(std::string_view arguments);
/// A required string field; detail `missing field `<key>`` or `invalid type for ...`.
Result<std::string> RequiredStringArg(const JsonValue& args, std::string_view key);
/// An optional string field (absent or null → nullopt).
Result<std::optional<std::string>> OptionalStringArg(const JsonValue& args, std::string_view key);
/// An optional boolean field (absent or null → nullopt).
Result<std::optional<bool>> OptionalBoolArg(const JsonValue& args, std::string_view key);
/// An optional integer field within [min, max].
Result<std::optional<std::int64_t>> OptionalIntArg(const JsonValue& args, std::string_view key,
                                                   std::int64_t min, std::int64_t max);
/// `failed to parse function arguments: <error.message>`.
std::string ArgumentErrorOutput(const Error& error);

}  // namespace agentctx
