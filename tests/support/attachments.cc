// SPDX-License-Identifier: MIT
#include "support/attachments.h"

#include "protocol/json_codec.h"

namespace agentctx::testing {
namespace {

bool IsOutputRef(const JsonValue& v) {
  if (!v.is_object() || v.members().size() != 2) return false;
  return v.members()[0].key == "$bytes" && v.members()[1].key == "length" &&
         v.members()[0].value.int_value().has_value();
}

}  // namespace

JsonValue InlineAttachments(JsonValue value, const std::vector<std::string_view>& attachments) {
  if (IsOutputRef(value)) {
    auto index = static_cast<std::size_t>(*value.members()[0].value.int_value());
    return JsonValue::String(index < attachments.size() ? std::string(attachments[index])
                                                        : std::string("<missing attachment>"));
  }
  if (value.is_array()) {
    for (JsonValue& item : value.items()) item = InlineAttachments(std::move(item), attachments);
  } else if (value.is_object()) {
    for (JsonMember& m : value.members()) {
      m.value = InlineAttachments(std::move(m.value), attachments);
    }
  }
  return value;
}

std::vector<std::string_view> AttachmentsOf(const Engine& engine, std::uint32_t handle) {
  std::vector<std::string_view> out;
  for (std::uint32_t i = 0; i < engine.AttachmentCount(handle); ++i) {
    out.push_back(engine.Attachment(handle, i));
  }
  return out;
}

std::string InlineEnvelope(const Engine& engine, std::uint32_t handle,
                           const std::string& envelope) {
  if (engine.AttachmentCount(handle) == 0) return envelope;
  auto parsed = ParseJson(envelope);
  if (!parsed) return envelope;
  return ToJson(InlineAttachments(std::move(*parsed), AttachmentsOf(engine, handle)));
}

}  // namespace agentctx::testing
