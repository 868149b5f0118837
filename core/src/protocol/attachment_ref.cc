// SPDX-License-Identifier: MIT
#include "protocol/attachment_ref.h"

namespace agentctx {

void AppendAttachmentRef(std::string* out, std::uint64_t index, std::uint64_t length) {
  out->append("{\"$bytes\":");
  out->append(std::to_string(index));
  out->append(",\"length\":");
  out->append(std::to_string(length));
  out->push_back('}');
}

std::optional<std::int64_t> InputRefIndex(const JsonValue& value) {
  if (!value.is_object() || value.members().size() != 1) return std::nullopt;
  const JsonMember& m = value.members()[0];
  if (m.key != "$bytes") return std::nullopt;
  return m.value.int_value();
}

}  // namespace agentctx
