// SPDX-License-Identifier: MIT
// The request as the mock model reads it (ours); see mock_request.h.
#include "mock_model/mock_request.h"

#include <string>
#include <utility>
#include <vector>

namespace agentctx {
namespace {

JsonValue TextPart(std::string_view type, std::string text) {
  JsonValue part = JsonValue::Object();
  part.Set("type", JsonValue::String(std::string(type)));
  part.Set("text", JsonValue::String(std::move(text)));
  return part;
}

JsonValue Message(std::string_view role, JsonValue content) {
  JsonValue message = JsonValue::Object();
  message.Set("type", JsonValue::String("message"));
  message.Set("role", JsonValue::String(std::string(role)));
  message.Set("content", std::move(content));
  return message;
}

// An "easy" input message ({role, content}) in the long form; other items unchanged.
JsonValue LongForm(const JsonValue& item) {
  if (!item.is_object() || item.Find("type") != nullptr) return item;
  std::optional<std::string_view> role = item.GetString("role");
  if (!role.has_value()) return item;
  const JsonValue* content = item.Find("content");
  if (content == nullptr) return item;
  if (!content->is_string()) return Message(*role, *content);
  JsonValue parts = JsonValue::Array();
  parts.Push(
      TextPart(*role == "assistant" ? "output_text" : "input_text", content->string_value()));
  return Message(*role, std::move(parts));
}

}  // namespace

Result<JsonValue> NormalizeMockRequest(const JsonValue& body, bool* streaming) {
  if (!body.is_object()) return Fail(ErrorCode::kInvalidInput, "request body must be an object");
  const JsonValue* stream = body.Find("stream");
  if (stream != nullptr && !stream->is_null() && !stream->is_bool()) {
    return Fail(ErrorCode::kInvalidInput, "request body: stream must be a boolean");
  }
  *streaming = stream != nullptr && stream->is_bool() && stream->bool_value();
  const JsonValue* input = body.Find("input");
  if (input == nullptr || input->is_null()) return body;
  if (!input->is_string() && !input->is_array()) {
    return Fail(ErrorCode::kInvalidInput, "request body: input must be a string or an array");
  }
  JsonValue items = JsonValue::Array();
  if (input->is_string()) {
    JsonValue parts = JsonValue::Array();
    parts.Push(TextPart("input_text", input->string_value()));
    items.Push(Message("user", std::move(parts)));
  } else {
    for (const JsonValue& item : input->items()) items.Push(LongForm(item));
  }
  JsonValue normalized = body;
  normalized.Set("input", std::move(items));
  return normalized;
}

Result<void> CheckMockRequestSize(const JsonValue& body) {
  if (!body.is_object()) return {};
  // Every element of every array in the conversation, at any depth: the items, their content
  // parts, and the parts nested in those (a tool output's parts, a tool_result's blocks). One
  // visit per value, without recursion.
  std::size_t count = 0;
  std::vector<const JsonValue*> pending;
  for (std::string_view key : {"input", "messages"}) {
    if (const JsonValue* items = body.Find(key); items != nullptr) pending.push_back(items);
  }
  while (!pending.empty()) {
    const JsonValue* value = pending.back();
    pending.pop_back();
    if (value->is_array()) {
      count += value->items().size();
      for (const JsonValue& element : value->items()) {
        if (element.is_array() || element.is_object()) pending.push_back(&element);
      }
    } else if (value->is_object()) {
      for (const auto& member : value->members()) {
        if (member.value.is_array() || member.value.is_object()) pending.push_back(&member.value);
      }
    }
  }
  if (count <= kMaxMockInputItems) return {};
  const std::string limit = std::to_string(kMaxMockInputItems);
  return Fail(Error{ErrorCode::kInvalidInput,
                    "request body has " + std::to_string(count) +
                        " input items and content parts; the mock model answers at most " + limit +
                        " per request",
                    {{"limit", limit}, {"items", std::to_string(count)}}});
}

}  // namespace agentctx
