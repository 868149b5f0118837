// SPDX-License-Identifier: MIT
// Responses event builders; see responses_events.h.
#include "protocol/responses_events.h"

#include <string>
#include <utility>

namespace agentctx {
namespace {

JsonValue Str(std::string_view s) { return JsonValue::String(std::string(s)); }

JsonValue WithResponse(std::string_view type, std::string_view key, JsonValue value) {
  JsonValue response = JsonValue::Object();
  response.Set(key, std::move(value));
  JsonValue e = ResponsesEvent(type);
  e.Set("response", std::move(response));
  return e;
}

}  // namespace

JsonValue ResponsesEvent(std::string_view type) {
  JsonValue e = JsonValue::Object();
  e.Set("type", Str(type));
  return e;
}

JsonValue ResponsesDeltaEvent(std::string_view type, std::string_view delta) {
  JsonValue e = ResponsesEvent(type);
  e.Set("delta", Str(delta));
  return e;
}

JsonValue OutputItemDoneEvent(std::int64_t output_index, JsonValue item) {
  JsonValue e = ResponsesEvent("response.output_item.done");
  e.Set("output_index", JsonValue::Int(output_index));
  e.Set("item", std::move(item));
  return e;
}

JsonValue ResponseFailedEvent(std::string_view code, std::string_view message) {
  JsonValue error = JsonValue::Object();
  error.Set("code", Str(code));
  error.Set("message", Str(message));
  return WithResponse("response.failed", "error", std::move(error));
}

JsonValue ResponseIncompleteEvent(std::string_view reason) {
  JsonValue details = JsonValue::Object();
  details.Set("reason", Str(reason));
  return WithResponse("response.incomplete", "incomplete_details", std::move(details));
}

JsonValue ResponseCompletedEvent(JsonValue usage) {
  if (usage.is_null()) {
    JsonValue e = ResponsesEvent("response.completed");
    e.Set("response", JsonValue::Object());
    return e;
  }
  return WithResponse("response.completed", "usage", std::move(usage));
}

JsonValue AssistantMessageItem(std::string_view text) {
  JsonValue part = JsonValue::Object();
  part.Set("type", Str("output_text"));
  part.Set("text", Str(text));
  JsonValue content = JsonValue::Array();
  content.Push(std::move(part));
  JsonValue message = JsonValue::Object();
  message.Set("type", Str("message"));
  message.Set("role", Str("assistant"));
  message.Set("content", std::move(content));
  return message;
}

JsonValue FunctionCallItem(std::string_view name, std::string_view arguments,
                           std::string_view call_id) {
  JsonValue item = JsonValue::Object();
  item.Set("type", Str("function_call"));
  item.Set("name", Str(name));
  item.Set("arguments", Str(arguments.empty() ? std::string_view("{}") : arguments));
  item.Set("call_id", Str(call_id));
  return item;
}

}  // namespace agentctx
