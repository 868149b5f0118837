// SPDX-License-Identifier: MIT
// Writer of the mock model's answers; see sse_writer.h.
#include "mock_model/sse_writer.h"

#include <algorithm>
#include <utility>

#include "protocol/json_codec.h"
#include "support/utf8.h"

namespace agentctx {
namespace {

JsonValue Str(std::string_view s) { return JsonValue::String(std::string(s)); }
JsonValue Num(std::uint64_t n) { return JsonValue::Int(static_cast<std::int64_t>(n)); }

// Events numbered in order; each starts with `type` and `sequence_number`.
class EventStream {
 public:
  JsonValue Start(std::string_view type) {
    JsonValue event = JsonValue::Object();
    event.Set("type", Str(type));
    event.Set("sequence_number", Num(next_++));
    return event;
  }
  void Emit(const JsonValue& event) {
    AppendSseEvent(&out_, event.GetString("type").value_or(""), event);
  }
  std::string Take() { return std::move(out_); }

 private:
  std::string out_;
  std::uint64_t next_ = 0;
};

JsonValue UsageObject(const MockUsage& usage) {
  JsonValue input_details = JsonValue::Object();
  input_details.Set("cached_tokens", Num(usage.cached_tokens));
  if (usage.cache_write_tokens) {  // GPT-5.6+ only: older answers keep their bytes
    input_details.Set("cache_write_tokens", Num(*usage.cache_write_tokens));
    JsonValue by_ttl = JsonValue::Object();
    const std::uint64_t long_ttl =
        std::min(usage.cache_write_12h_tokens, *usage.cache_write_tokens);
    by_ttl.Set("ttl_12h_tokens", Num(long_ttl));
    by_ttl.Set("ttl_30m_tokens", Num(*usage.cache_write_tokens - long_ttl));
    input_details.Set("cache_write_tokens_details", std::move(by_ttl));
  }
  JsonValue output_details = JsonValue::Object();
  output_details.Set("reasoning_tokens", Num(usage.reasoning_tokens));
  JsonValue u = JsonValue::Object();
  u.Set("input_tokens", Num(usage.input_tokens));
  u.Set("input_tokens_details", std::move(input_details));
  u.Set("output_tokens", Num(usage.output_tokens));
  u.Set("output_tokens_details", std::move(output_details));
  u.Set("total_tokens", Num(usage.total_tokens));
  return u;
}

JsonValue Lifecycle(EventStream* s, std::string_view type, JsonValue response) {
  JsonValue event = s->Start(type);
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

JsonValue ItemEvent(EventStream* s, std::string_view type, std::size_t index, JsonValue item) {
  JsonValue event = s->Start(type);
  event.Set("output_index", Num(index));
  event.Set("item", std::move(item));
  return event;
}

JsonValue PartEvent(EventStream* s, std::string_view type, std::string_view id, std::size_t index,
                    std::string_view index_key, JsonValue part) {
  JsonValue event = s->Start(type);
  event.Set("item_id", Str(id));
  event.Set("output_index", Num(index));
  event.Set(index_key, Num(0));
  event.Set("part", std::move(part));
  return event;
}

JsonValue TextPart(std::string_view type, std::string_view text, bool annotations) {
  JsonValue part = JsonValue::Object();
  part.Set("type", Str(type));
  if (annotations) part.Set("annotations", JsonValue::Array());
  part.Set("text", Str(text));
  return part;
}

// The text events of one message (content part 0) or reasoning item (summary part 0).
void EmitItemText(EventStream* s, const JsonValue& item, std::size_t index) {
  std::optional<std::string_view> type = item.GetString("type");
  const bool message = type == "message";
  if (!message && type != "reasoning") return;
  const JsonValue* parts = item.Find(message ? "content" : "summary");
  if (parts == nullptr || !parts->is_array() || parts->items().empty()) return;
  std::string_view id = item.GetString("id").value_or(std::string_view());
  std::string_view text = parts->items()[0].GetString("text").value_or(std::string_view());
  const std::string_view index_key = message ? "content_index" : "summary_index";
  const std::string_view part_type = message ? "output_text" : "summary_text";
  const std::string prefix = message ? "response.content_part" : "response.reasoning_summary_part";
  const std::string text_event =
      message ? "response.output_text" : "response.reasoning_summary_text";
  s->Emit(PartEvent(s, prefix + ".added", id, index, index_key, TextPart(part_type, "", message)));
  for (std::string_view piece : SplitDeltas(text)) {
    JsonValue delta = s->Start(text_event + ".delta");
    delta.Set("item_id", Str(id));
    delta.Set("output_index", Num(index));
    delta.Set(index_key, Num(0));
    delta.Set("delta", Str(piece));
    s->Emit(delta);
  }
  JsonValue done = s->Start(text_event + ".done");
  done.Set("item_id", Str(id));
  done.Set("output_index", Num(index));
  done.Set(index_key, Num(0));
  done.Set("text", Str(text));
  s->Emit(done);
  s->Emit(PartEvent(s, prefix + ".done", id, index, index_key, TextPart(part_type, text, message)));
}

JsonValue ErrorObject(std::string_view code, std::string_view message) {
  JsonValue error = JsonValue::Object();
  error.Set("code", Str(code));
  error.Set("message", Str(message));
  return error;
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

JsonValue MockResponseObject(const MockResponseMeta& meta, std::string_view status,
                             const std::vector<JsonValue>* output, const MockUsage* usage,
                             const JsonValue* error) {
  JsonValue items = JsonValue::Array();
  if (output != nullptr) {
    for (const JsonValue& item : *output) items.Push(item);
  }
  JsonValue response = JsonValue::Object();
  response.Set("id", Str(meta.id));
  response.Set("object", Str("response"));
  response.Set("created_at", JsonValue::Int(meta.created_at));
  response.Set("status", Str(status));
  response.Set("error", error != nullptr ? *error : JsonValue());
  response.Set("incomplete_details", JsonValue());
  response.Set("model", Str(meta.model));
  response.Set("output", std::move(items));
  response.Set("usage", usage != nullptr ? UsageObject(*usage) : JsonValue());
  if (status == "completed" && meta.cache_diagnostics) {
    response.Set("prompt_cache_diagnostics", *meta.cache_diagnostics);
  }
  return response;
}

std::string WriteSuccessStream(const MockResponseMeta& meta, const std::vector<JsonValue>& items,
                               const MockUsage& usage) {
  EventStream s;
  JsonValue pending = MockResponseObject(meta, "in_progress", nullptr, nullptr, nullptr);
  s.Emit(Lifecycle(&s, "response.created", pending));
  s.Emit(Lifecycle(&s, "response.in_progress", pending));
  for (std::size_t i = 0; i < items.size(); ++i) {
    s.Emit(ItemEvent(&s, "response.output_item.added", i, AddedItem(items[i])));
    EmitItemText(&s, items[i], i);
    s.Emit(ItemEvent(&s, "response.output_item.done", i, items[i]));
  }
  s.Emit(Lifecycle(&s, "response.completed",
                   MockResponseObject(meta, "completed", &items, &usage, nullptr)));
  return s.Take();
}

std::string WriteFailureStream(const MockResponseMeta& meta, std::string_view code,
                               std::string_view message) {
  EventStream s;
  JsonValue pending = MockResponseObject(meta, "in_progress", nullptr, nullptr, nullptr);
  s.Emit(Lifecycle(&s, "response.created", pending));
  s.Emit(Lifecycle(&s, "response.in_progress", pending));
  JsonValue error = ErrorObject(code, message);
  s.Emit(Lifecycle(&s, "response.failed",
                   MockResponseObject(meta, "failed", nullptr, nullptr, &error)));
  return s.Take();
}

std::string WriteSuccessJson(const MockResponseMeta& meta, const std::vector<JsonValue>& items,
                             const MockUsage& usage) {
  return ToJson(MockResponseObject(meta, "completed", &items, &usage, nullptr));
}

std::string WriteFailureJson(const MockResponseMeta& meta, std::string_view code,
                             std::string_view message) {
  JsonValue error = ErrorObject(code, message);
  return ToJson(MockResponseObject(meta, "failed", nullptr, nullptr, &error));
}

}  // namespace agentctx
