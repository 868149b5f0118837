// SPDX-License-Identifier: MIT
// SSE writer of the mock model (SPEC §14.2); see sse_writer.h.
#include "mock_model/sse_writer.h"

#include "support/utf8.h"

namespace agentctx {
namespace {

JsonValue Str(std::string_view s) { return JsonValue::String(std::string(s)); }
JsonValue Num(std::uint64_t n) { return JsonValue::Int(static_cast<std::int64_t>(n)); }

JsonValue CreatedEvent(std::string_view response_id) {
  JsonValue response = JsonValue::Object();
  response.Set("id", Str(response_id));
  JsonValue event = JsonValue::Object();
  event.Set("type", Str("response.created"));
  event.Set("response", std::move(response));
  return event;
}

// The item as announced by output_item.added: text containers start empty.
JsonValue AddedItem(const JsonValue& item) {
  JsonValue added = item;
  std::optional<std::string_view> type = item.GetString("type");
  if (type == "message" && added.Find("content") != nullptr) {
    added.Set("content", JsonValue::Array());
  } else if (type == "reasoning" && added.Find("summary") != nullptr) {
    added.Set("summary", JsonValue::Array());
  }
  return added;
}

JsonValue ItemEvent(std::string_view type, std::size_t index, JsonValue item) {
  JsonValue event = JsonValue::Object();
  event.Set("type", Str(type));
  event.Set("output_index", Num(index));
  event.Set("item", std::move(item));
  return event;
}

void AppendDeltas(std::string* out, std::string_view event_type, std::string_view index_key,
                  std::string_view item_id, std::size_t output_index, std::string_view text) {
  for (std::string_view piece : SplitDeltas(text)) {
    JsonValue event = JsonValue::Object();
    event.Set("type", Str(event_type));
    event.Set("item_id", Str(item_id));
    event.Set("output_index", Num(output_index));
    event.Set(index_key, Num(0));
    event.Set("delta", Str(piece));
    AppendSseEvent(out, event_type, event);
  }
}

// Deltas of one item: reasoning summary texts and message output texts (index 0 only, as the
// mock emits one part per item).
void AppendItemDeltas(std::string* out, const JsonValue& item, std::size_t index) {
  std::optional<std::string_view> type = item.GetString("type");
  std::string_view id = item.GetString("id").value_or(std::string_view());
  const char* container = type == "message" ? "content" : type == "reasoning" ? "summary" : nullptr;
  if (container == nullptr) return;
  const JsonValue* parts = item.Find(container);
  if (parts == nullptr || !parts->is_array() || parts->items().empty()) return;
  std::string_view text = parts->items()[0].GetString("text").value_or(std::string_view());
  if (type == "message") {
    AppendDeltas(out, "response.output_text.delta", "content_index", id, index, text);
  } else {
    AppendDeltas(out, "response.reasoning_summary_text.delta", "summary_index", id, index, text);
  }
}

}  // namespace

void AppendSseEvent(std::string* out, std::string_view type, const JsonValue& data) {
  out->append("event: ");
  out->append(type);
  out->append("\ndata: ");
  AppendJson(out, data);
  out->append("\n\n");
}

std::vector<std::string_view> SplitDeltas(std::string_view text, std::size_t max_bytes) {
  std::vector<std::string_view> pieces;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end =
        pos + max_bytes >= text.size() ? text.size() : FloorCharBoundary(text, pos + max_bytes);
    if (end <= pos) end = CeilCharBoundary(text, pos + 1);  // never stall (max_bytes < 4)
    pieces.push_back(text.substr(pos, end - pos));
    pos = end;
  }
  return pieces;
}

std::string WriteSuccessStream(std::string_view response_id, const std::vector<JsonValue>& items,
                               const MockUsage& usage) {
  std::string out;
  AppendSseEvent(&out, "response.created", CreatedEvent(response_id));
  for (std::size_t i = 0; i < items.size(); ++i) {
    AppendSseEvent(&out, "response.output_item.added",
                   ItemEvent("response.output_item.added", i, AddedItem(items[i])));
    AppendItemDeltas(&out, items[i], i);
    AppendSseEvent(&out, "response.output_item.done",
                   ItemEvent("response.output_item.done", i, items[i]));
  }
  JsonValue input_details = JsonValue::Object();
  input_details.Set("cached_tokens", Num(usage.cached_tokens));
  JsonValue output_details = JsonValue::Object();
  output_details.Set("reasoning_tokens", Num(usage.reasoning_tokens));
  JsonValue u = JsonValue::Object();
  u.Set("input_tokens", Num(usage.input_tokens));
  u.Set("input_tokens_details", std::move(input_details));
  u.Set("output_tokens", Num(usage.output_tokens));
  u.Set("output_tokens_details", std::move(output_details));
  u.Set("total_tokens", Num(usage.total_tokens));
  JsonValue response = JsonValue::Object();
  response.Set("id", Str(response_id));
  response.Set("usage", std::move(u));
  JsonValue completed = JsonValue::Object();
  completed.Set("type", Str("response.completed"));
  completed.Set("response", std::move(response));
  AppendSseEvent(&out, "response.completed", completed);
  return out;
}

std::string WriteFailureStream(std::string_view response_id, std::string_view code,
                               std::string_view message) {
  std::string out;
  AppendSseEvent(&out, "response.created", CreatedEvent(response_id));
  JsonValue error = JsonValue::Object();
  error.Set("code", Str(code));
  error.Set("message", Str(message));
  JsonValue response = JsonValue::Object();
  response.Set("id", Str(response_id));
  response.Set("error", std::move(error));
  JsonValue failed = JsonValue::Object();
  failed.Set("type", Str("response.failed"));
  failed.Set("response", std::move(response));
  AppendSseEvent(&out, "response.failed", failed);
  return out;
}

}  // namespace agentctx
