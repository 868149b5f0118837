// SPDX-License-Identifier: MIT
// Responses event builders; see responses_events.h.
#include "protocol/responses_events.h"

#include <string>
#include <utility>

#include "protocol/json_fields.h"

namespace agentctx {
namespace {

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
  SetString(&e, "type", type);
  return e;
}

JsonValue ResponsesDeltaEvent(std::string_view type, std::string_view delta) {
  JsonValue e = ResponsesEvent(type);
  SetString(&e, "delta", delta);
  return e;
}

JsonValue OutputItemDoneEvent(std::int64_t output_index, JsonValue item) {
  JsonValue e = ResponsesEvent("response.output_item.done");
  SetInt(&e, "output_index", output_index);
  e.Set("item", std::move(item));
  return e;
}

JsonValue ResponseFailedEvent(std::string_view code, std::string_view message) {
  JsonValue error = JsonValue::Object();
  SetString(&error, "code", code);
  SetString(&error, "message", message);
  return WithResponse("response.failed", "error", std::move(error));
}

JsonValue ResponseIncompleteEvent(std::string_view reason) {
  JsonValue details = JsonValue::Object();
  SetString(&details, "reason", reason);
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
  SetString(&part, "type", "output_text");
  SetString(&part, "text", text);
  JsonValue content = JsonValue::Array();
  content.Push(std::move(part));
  JsonValue message = JsonValue::Object();
  SetString(&message, "type", "message");
  SetString(&message, "role", "assistant");
  message.Set("content", std::move(content));
  return message;
}

JsonValue FunctionCallItem(std::string_view name, std::string_view arguments,
                           std::string_view call_id) {
  JsonValue item = JsonValue::Object();
  SetString(&item, "type", "function_call");
  SetString(&item, "name", name);
  SetString(&item, "arguments", arguments.empty() ? std::string_view("{}") : arguments);
  SetString(&item, "call_id", call_id);
  return item;
}

}  // namespace agentctx
