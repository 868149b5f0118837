// SPDX-License-Identifier: MIT
// Prompt bytes; see prompt_bytes.h.
#include "prompt/prompt_bytes.h"

#include "protocol/json_codec.h"

namespace agentctx {

std::uint64_t PromptBytes::size() const {
  std::uint64_t total = instructions.size() + tools.size();
  for (const std::string& item : items) total += item.size();
  return total;
}

std::string PromptBytes::Concat() const {
  std::string out;
  out.reserve(static_cast<std::size_t>(size()));
  out += instructions;
  out += tools;
  for (const std::string& item : items) out += item;
  return out;
}

PromptSegmentRef PromptBytes::SegmentAt(std::uint64_t offset) const {
  PromptSegmentRef ref;
  if (offset < instructions.size()) {
    ref.kind = PromptSegmentRef::Kind::kInstructions;
    return ref;
  }
  offset -= instructions.size();
  if (offset < tools.size()) {
    ref.kind = PromptSegmentRef::Kind::kTools;
    return ref;
  }
  offset -= tools.size();
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (offset < items[i].size()) {
      ref.kind = PromptSegmentRef::Kind::kItem;
      ref.item_index = i;
      return ref;
    }
    offset -= items[i].size();
  }
  return ref;
}

Result<PromptBytes> PromptBytesFromBody(const JsonValue& body) {
  if (!body.is_object()) return Fail(ErrorCode::kInvalidInput, "request body must be an object");
  PromptBytes p;
  if (const JsonValue* instructions = body.Find("instructions")) {
    if (!instructions->is_string()) {
      return Fail(ErrorCode::kInvalidInput, "request body: instructions must be a string");
    }
    p.instructions = JsonString(instructions->string_value());
  }
  if (const JsonValue* tools = body.Find("tools")) {
    if (!tools->is_array()) {
      return Fail(ErrorCode::kInvalidInput, "request body: tools must be an array");
    }
    p.tools = ToJson(*tools);
  }
  if (const JsonValue* input = body.Find("input")) {
    if (!input->is_array()) {
      return Fail(ErrorCode::kInvalidInput, "request body: input must be an array");
    }
    p.items.reserve(input->items().size());
    for (const JsonValue& item : input->items()) p.items.push_back(ToJson(item));
  }
  return p;
}

Result<PromptBytes> PromptBytesFromBodyBytes(std::string_view body_bytes) {
  ACTX_TRY(JsonValue body, ParseJson(body_bytes));
  return PromptBytesFromBody(body);
}

}  // namespace agentctx
