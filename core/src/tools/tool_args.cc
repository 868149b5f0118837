// SPDX-License-Identifier: MIT
// Built-in tool argument parsing; see tool_args.h.
#include "tools/tool_args.h"

#include "protocol/json_codec.h"

namespace agentctx {

Result<JsonValue> ParseToolArguments(std::string_view arguments) {
  Result<JsonValue> parsed = ParseJson(arguments);
  if (!parsed.has_value()) return Fail(ErrorCode::kInvalidInput, parsed.error().message);
  if (!parsed->is_object()) return Fail(ErrorCode::kInvalidInput, "expected a JSON object");
  return parsed;
}

Result<std::string> RequiredStringArg(const JsonValue& args, std::string_view key) {
  const JsonValue* v = args.Find(key);
  if (v == nullptr || v->is_null()) {
    return Fail(ErrorCode::kInvalidInput, "missing field `" + std::string(key) + "`");
  }
  if (!v->is_string()) {
    return Fail(ErrorCode::kInvalidInput,
                "invalid type for `" + std::string(key) + "`: expected a string");
  }
  return v->string_value();
}

Result<std::optional<std::string>> OptionalStringArg(const JsonValue& args, std::string_view key) {
  const JsonValue* v = args.Find(key);
  if (v == nullptr || v->is_null()) return std::optional<std::string>();
  if (!v->is_string()) {
    return Fail(ErrorCode::kInvalidInput,
                "invalid type for `" + std::string(key) + "`: expected a string");
  }
  return std::optional<std::string>(v->string_value());
}

Result<std::optional<bool>> OptionalBoolArg(const JsonValue& args, std::string_view key) {
  const JsonValue* v = args.Find(key);
  if (v == nullptr || v->is_null()) return std::optional<bool>();
  if (!v->is_bool()) {
    return Fail(ErrorCode::kInvalidInput,
                "invalid type for `" + std::string(key) + "`: expected a boolean");
  }
  return std::optional<bool>(v->bool_value());
}

Result<std::optional<std::int64_t>> OptionalIntArg(const JsonValue& args, std::string_view key,
                                                   std::int64_t min, std::int64_t max) {
  const JsonValue* v = args.Find(key);
  if (v == nullptr || v->is_null()) return std::optional<std::int64_t>();
  std::optional<std::int64_t> n = v->int_value();
  if (!n.has_value() || *n < min || *n > max) {
    std::string expected =
        max == INT64_MAX ? "an integer >= " + std::to_string(min)
                         : "an integer from " + std::to_string(min) + " to " + std::to_string(max);
    return Fail(ErrorCode::kInvalidInput,
                "invalid value for `" + std::string(key) + "`: expected " + expected);
  }
  return n;
}

std::string ArgumentErrorOutput(const Error& error) {
  return std::string(kArgumentErrorPrefix) + error.message;
}

}  // namespace agentctx
