// SPDX-License-Identifier: MIT
#include "engine/attachments.h"

namespace agentctx {
namespace {

Result<std::string_view> Resolve(std::int64_t index, const std::vector<std::string_view>& inputs) {
  if (index < 0 || static_cast<std::uint64_t>(index) >= inputs.size()) {
    return Fail(ErrorCode::kInvalidInput, "{\"$bytes\":" + std::to_string(index) +
                                              "} names no attachment of this call (it has " +
                                              std::to_string(inputs.size()) + ")");
  }
  return inputs[static_cast<std::size_t>(index)];
}

}  // namespace

Result<std::optional<std::string_view>> InputText(const JsonValue& object, std::string_view key,
                                                  const std::vector<std::string_view>& inputs) {
  const JsonValue* v = object.Find(key);
  if (v == nullptr) return std::optional<std::string_view>();
  if (v->is_string()) return std::optional<std::string_view>(v->string_value());
  if (auto index = InputRefIndex(*v)) {
    ACTX_TRY(std::string_view bytes, Resolve(*index, inputs));
    return std::optional<std::string_view>(bytes);
  }
  return std::optional<std::string_view>();
}

Result<void> ResolveInputRefs(JsonValue* value, const std::vector<std::string_view>& inputs) {
  if (auto index = InputRefIndex(*value)) {
    ACTX_TRY(std::string_view bytes, Resolve(*index, inputs));
    *value = JsonValue::String(std::string(bytes));
    return {};
  }
  if (value->is_array()) {
    for (JsonValue& item : value->items()) ACTX_TRY_VOID(ResolveInputRefs(&item, inputs));
  } else if (value->is_object()) {
    for (JsonMember& m : value->members()) ACTX_TRY_VOID(ResolveInputRefs(&m.value, inputs));
  }
  return {};
}

}  // namespace agentctx
