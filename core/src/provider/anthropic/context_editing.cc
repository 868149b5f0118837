// SPDX-License-Identifier: MIT
// Anthropic context editing; see context_editing.h.
#include "provider/anthropic/context_editing.h"

#include <utility>

namespace agentctx {
namespace {

Unexpected<Error> Invalid(std::string message) {
  return Fail(ErrorCode::kInvalidConfig, std::move(message));
}

// {type, value} with `type` one of `types` (listed for the message) and value ≥ `min`.
Result<JsonValue> Threshold(const JsonValue& v, const std::string& path,
                            std::initializer_list<std::string_view> types, std::int64_t min) {
  std::string choices;
  for (std::string_view t : types) choices += (choices.empty() ? "" : " or ") + std::string(t);
  const std::string shape = path + " must be {\"type\": " + choices +
                            ", \"value\": an integer >= " + std::to_string(min) + "}";
  if (!v.is_object() || v.members().size() != 2) return Invalid(shape);
  std::optional<std::string_view> type = v.GetString("type");
  bool known = false;
  for (std::string_view t : types) known = known || type == t;
  const JsonValue* value = v.Find("value");
  std::optional<std::int64_t> n = value != nullptr ? value->int_value() : std::nullopt;
  if (!known || !n || *n < min) return Invalid(shape);
  JsonValue out = JsonValue::Object();
  out.Set("type", JsonValue::String(std::string(*type)));
  out.Set("value", JsonValue::Int(*n));
  return out;
}

Result<JsonValue> Names(const JsonValue& v, const std::string& path) {
  if (!v.is_array()) return Invalid(path + " must be an array of tool names");
  for (const JsonValue& name : v.items()) {
    if (!name.is_string() || name.string_value().empty()) {
      return Invalid(path + " must be an array of tool names");
    }
  }
  return v;
}

}  // namespace

Result<std::string> RenderClearToolUsesEdit(const JsonValue& value, const std::string& path) {
  if (value.is_null()) return std::string();
  if (!value.is_object()) return Invalid(path + " must be an object or null");
  for (const auto& m : value.members()) {
    if (m.key != "trigger" && m.key != "keep" && m.key != "clear_at_least" &&
        m.key != "exclude_tools" && m.key != "clear_tool_inputs") {
      return Invalid(path + "." + m.key + " is not a parameter of clear_tool_uses_20250919 " +
                     "(trigger, keep, clear_at_least, exclude_tools, clear_tool_inputs)");
    }
  }
  JsonValue edit = JsonValue::Object();
  edit.Set("type", JsonValue::String(std::string(kClearToolUsesEdit)));
  auto present = [&](std::string_view key) {
    const JsonValue* v = value.Find(key);
    return v != nullptr && !v->is_null() ? v : nullptr;
  };
  if (const JsonValue* v = present("trigger")) {
    ACTX_TRY(JsonValue t, Threshold(*v, path + ".trigger", {"input_tokens", "tool_uses"}, 1));
    edit.Set("trigger", std::move(t));
  }
  if (const JsonValue* v = present("keep")) {
    ACTX_TRY(JsonValue k, Threshold(*v, path + ".keep", {"tool_uses"}, 0));
    edit.Set("keep", std::move(k));
  }
  if (const JsonValue* v = present("clear_at_least")) {
    ACTX_TRY(JsonValue c, Threshold(*v, path + ".clear_at_least", {"input_tokens"}, 0));
    edit.Set("clear_at_least", std::move(c));
  }
  if (const JsonValue* v = present("exclude_tools")) {
    ACTX_TRY(JsonValue names, Names(*v, path + ".exclude_tools"));
    edit.Set("exclude_tools", std::move(names));
  }
  if (const JsonValue* v = present("clear_tool_inputs")) {
    if (v->is_bool()) {
      edit.Set("clear_tool_inputs", *v);
    } else {
      ACTX_TRY(JsonValue names, Names(*v, path + ".clear_tool_inputs"));
      edit.Set("clear_tool_inputs", std::move(names));
    }
  }
  return ToJson(edit);
}

std::optional<AppliedToolClearing> ReadAppliedToolClearing(const JsonValue* context_management) {
  if (context_management == nullptr || !context_management->is_object()) return std::nullopt;
  const JsonValue* applied = context_management->Find("applied_edits");
  if (applied == nullptr || !applied->is_array()) return std::nullopt;
  AppliedToolClearing out;
  for (const JsonValue& edit : applied->items()) {
    if (!edit.is_object() || edit.GetString("type") != kClearToolUsesEdit) continue;
    auto uses = edit.GetInt("cleared_tool_uses").value_or(0);
    auto tokens = edit.GetInt("cleared_input_tokens").value_or(0);
    if (uses > 0) out.cleared_tool_uses += static_cast<std::uint64_t>(uses);
    if (tokens > 0) out.cleared_input_tokens += static_cast<std::uint64_t>(tokens);
  }
  if (out.cleared_tool_uses == 0 && out.cleared_input_tokens == 0) return std::nullopt;
  return out;
}

}  // namespace agentctx
