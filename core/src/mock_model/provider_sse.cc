// SPDX-License-Identifier: MIT
// Chat Completions and Anthropic Messages answers of the mock; see provider_sse.h.
#include "mock_model/provider_sse.h"

#include <algorithm>
#include <utility>

#include "protocol/json_fields.h"

namespace agentctx {
namespace {

JsonValue Str(std::string_view s) { return JsonValue::String(std::string(s)); }

// h[:12] from the meta id `resp_<h12>`.
std::string ShortHash(const MockResponseMeta& meta) {
  return meta.id.size() > 5 ? meta.id.substr(5) : meta.id;
}

std::string MessageText(const JsonValue& item) {
  std::string text;
  if (const JsonValue* content = item.Find("content"); content != nullptr && content->is_array()) {
    for (const JsonValue& part : content->items()) text += part.GetString("text").value_or("");
  }
  return text;
}

// The output as text + calls (reasoning is not sent).
struct Output {
  std::string text;
  bool has_text = false;
  std::vector<const JsonValue*> calls;
  const JsonValue* compaction = nullptr;  // an Anthropic compaction block (mock_compaction.h)
};

Output Collect(const std::vector<JsonValue>& items) {
  Output out;
  for (const JsonValue& item : items) {
    std::string_view type = item.GetString("type").value_or("");
    if (type == "message") {
      out.text += MessageText(item);
      out.has_text = true;
    } else if (type == "function_call") {
      out.calls.push_back(&item);
    } else if (type == "compaction") {
      out.compaction = &item;
    }
  }
  return out;
}

JsonValue ChatUsage(const MockUsage& usage) {
  JsonValue u = JsonValue::Object();
  SetInt(&u, "prompt_tokens", static_cast<std::int64_t>(usage.input_tokens));
  SetInt(&u, "completion_tokens", static_cast<std::int64_t>(usage.output_tokens));
  SetInt(&u, "total_tokens", static_cast<std::int64_t>(usage.total_tokens));
  JsonValue prompt_details = JsonValue::Object();
  SetInt(&prompt_details, "cached_tokens", static_cast<std::int64_t>(usage.cached_tokens));
  u.Set("prompt_tokens_details", std::move(prompt_details));
  JsonValue completion_details = JsonValue::Object();
  SetInt(&completion_details, "reasoning_tokens",
         static_cast<std::int64_t>(usage.reasoning_tokens));
  u.Set("completion_tokens_details", std::move(completion_details));
  return u;
}

JsonValue ChatToolCall(const JsonValue& call, std::size_t index, bool with_index) {
  JsonValue function = JsonValue::Object();
  SetString(&function, "name", call.GetString("name").value_or(""));
  SetString(&function, "arguments", call.GetString("arguments").value_or(""));
  JsonValue entry = JsonValue::Object();
  if (with_index) SetInt(&entry, "index", static_cast<std::int64_t>(index));
  SetString(&entry, "id", call.GetString("call_id").value_or(""));
  SetString(&entry, "type", "function");
  entry.Set("function", std::move(function));
  return entry;
}

// {"id","object","created","model","choices":[{"index":0,<key>:value,"logprobs":null,
// "finish_reason":finish}]}: a chunk (key delta) or a whole completion (key message).
JsonValue ChatObject(const MockResponseMeta& meta, std::string_view object, std::string_view key,
                     JsonValue value, JsonValue finish) {
  JsonValue choice = JsonValue::Object();
  SetInt(&choice, "index", 0);
  choice.Set(key, std::move(value));
  choice.Set("logprobs", JsonValue());
  choice.Set("finish_reason", std::move(finish));
  JsonValue choices = JsonValue::Array();
  choices.Push(std::move(choice));
  JsonValue out = JsonValue::Object();
  SetString(&out, "id", "chatcmpl-" + ShortHash(meta));
  SetString(&out, "object", object);
  SetInt(&out, "created", meta.created_at);
  SetString(&out, "model", meta.model);
  out.Set("choices", std::move(choices));
  return out;
}

JsonValue ChatChunk(const MockResponseMeta& meta, JsonValue delta, JsonValue finish) {
  return ChatObject(meta, "chat.completion.chunk", "delta", std::move(delta), std::move(finish));
}

void AppendData(std::string* out, const JsonValue& data) {
  out->append("data: ");
  AppendJson(out, data);
  out->append("\n\n");
}

std::string_view AnthropicErrorType(std::string_view code) {
  if (code == "server_is_overloaded") return "overloaded_error";
  if (code == "rate_limit_exceeded") return "rate_limit_error";
  return "api_error";
}

JsonValue AnthropicUsage(const AnthropicCacheUsage& cache, std::uint64_t output_tokens) {
  JsonValue u = JsonValue::Object();
  SetInt(&u, "input_tokens", static_cast<std::int64_t>(cache.input_tokens));
  SetInt(&u, "cache_creation_input_tokens",
         static_cast<std::int64_t>(cache.cache_creation_input_tokens));
  SetInt(&u, "cache_read_input_tokens", static_cast<std::int64_t>(cache.cache_read_input_tokens));
  // The split of the writes by TTL, as the Messages API reports it.
  const std::uint64_t one_hour =
      std::min(cache.cache_creation_1h_input_tokens, cache.cache_creation_input_tokens);
  JsonValue creation = JsonValue::Object();
  SetInt(&creation, "ephemeral_5m_input_tokens",
         static_cast<std::int64_t>(cache.cache_creation_input_tokens - one_hour));
  SetInt(&creation, "ephemeral_1h_input_tokens", static_cast<std::int64_t>(one_hour));
  u.Set("cache_creation", std::move(creation));
  SetInt(&u, "output_tokens", static_cast<std::int64_t>(output_tokens));
  return u;
}

JsonValue TextBlock(std::string_view text) {
  JsonValue b = JsonValue::Object();
  SetString(&b, "type", "text");
  SetString(&b, "text", text);
  return b;
}

JsonValue ToolUseBlock(const JsonValue& call, JsonValue input) {
  JsonValue b = JsonValue::Object();
  SetString(&b, "type", "tool_use");
  SetString(&b, "id", call.GetString("call_id").value_or(""));
  SetString(&b, "name", call.GetString("name").value_or(""));
  b.Set("input", std::move(input));
  return b;
}

JsonValue AnthropicMessageObject(const MockResponseMeta& meta, JsonValue content,
                                 JsonValue stop_reason, JsonValue usage) {
  JsonValue m = JsonValue::Object();
  SetString(&m, "id", "msg_" + ShortHash(meta));
  SetString(&m, "type", "message");
  SetString(&m, "role", "assistant");
  SetString(&m, "model", meta.model);
  m.Set("content", std::move(content));
  m.Set("stop_reason", std::move(stop_reason));
  m.Set("stop_sequence", JsonValue());
  m.Set("usage", std::move(usage));
  if (meta.cache_diagnostics) m.Set("diagnostics", *meta.cache_diagnostics);
  return m;
}

}  // namespace

std::string WriteChatSuccess(const MockResponseMeta& meta, const std::vector<JsonValue>& items,
                             const MockUsage& usage, bool streaming) {
  Output o = Collect(items);
  std::string_view finish = o.calls.empty() ? "stop" : "tool_calls";
  if (!streaming) {
    JsonValue message = JsonValue::Object();
    SetString(&message, "role", "assistant");
    message.Set("content", o.has_text ? Str(o.text) : JsonValue());
    if (!o.calls.empty()) {
      JsonValue calls = JsonValue::Array();
      for (std::size_t i = 0; i < o.calls.size(); ++i) {
        calls.Push(ChatToolCall(*o.calls[i], i, false));
      }
      message.Set("tool_calls", std::move(calls));
    }
    JsonValue out = ChatObject(meta, "chat.completion", "message", std::move(message), Str(finish));
    out.Set("usage", ChatUsage(usage));
    return ToJson(out);
  }
  std::string out;
  JsonValue role = JsonValue::Object();
  SetString(&role, "role", "assistant");
  SetString(&role, "content", "");
  AppendData(&out, ChatChunk(meta, std::move(role), JsonValue()));
  if (o.has_text) {
    for (std::string_view piece : SplitDeltas(o.text)) {
      JsonValue delta = JsonValue::Object();
      SetString(&delta, "content", piece);
      AppendData(&out, ChatChunk(meta, std::move(delta), JsonValue()));
    }
  }
  for (std::size_t i = 0; i < o.calls.size(); ++i) {
    JsonValue calls = JsonValue::Array();
    calls.Push(ChatToolCall(*o.calls[i], i, true));
    JsonValue delta = JsonValue::Object();
    delta.Set("tool_calls", std::move(calls));
    AppendData(&out, ChatChunk(meta, std::move(delta), JsonValue()));
  }
  AppendData(&out, ChatChunk(meta, JsonValue::Object(), Str(finish)));
  JsonValue usage_chunk = ChatChunk(meta, JsonValue::Object(), JsonValue());
  usage_chunk.Set("choices", JsonValue::Array());
  usage_chunk.Set("usage", ChatUsage(usage));
  AppendData(&out, usage_chunk);
  out += "data: [DONE]\n\n";
  return out;
}

std::string WriteChatFailure(const MockResponseMeta& meta, std::string_view code,
                             std::string_view message, bool streaming) {
  (void)meta;
  JsonValue error = JsonValue::Object();
  SetString(&error, "code", code);
  SetString(&error, "message", message);
  JsonValue out = JsonValue::Object();
  out.Set("error", std::move(error));
  if (!streaming) return ToJson(out);
  std::string sse;
  AppendData(&sse, out);
  return sse;
}

std::string WriteAnthropicSuccess(const MockResponseMeta& meta, const std::vector<JsonValue>& items,
                                  const AnthropicCacheUsage& cache, std::uint64_t output_tokens,
                                  bool streaming) {
  Output o = Collect(items);
  JsonValue stop_reason = Str(!o.calls.empty()              ? "tool_use"
                              : o.compaction && !o.has_text ? "compaction"
                                                            : "end_turn");
  // The mock's own arguments are compact JSON objects (mock_rules.h): spliced as they are.
  auto input_json = [](const JsonValue& call) {
    return std::string(call.GetString("arguments").value_or("{}"));
  };
  if (!streaming) {
    // One message object.
    std::string out = "{\"id\":";
    AppendJsonString(&out, "msg_" + ShortHash(meta));
    out += ",\"type\":\"message\",\"role\":\"assistant\",\"model\":";
    AppendJsonString(&out, meta.model);
    out += ",\"content\":[";
    bool first = true;
    if (o.compaction != nullptr) {
      AppendJson(&out, *o.compaction);
      first = false;
    }
    if (o.has_text && !o.text.empty()) {
      if (!first) out.push_back(',');
      AppendJson(&out, TextBlock(o.text));
      first = false;
    }
    for (const JsonValue* call : o.calls) {
      if (!first) out.push_back(',');
      first = false;
      out += "{\"type\":\"tool_use\",\"id\":";
      AppendJsonString(&out, call->GetString("call_id").value_or(""));
      out += ",\"name\":";
      AppendJsonString(&out, call->GetString("name").value_or(""));
      out += ",\"input\":";
      out += input_json(*call);
      out.push_back('}');
    }
    out += "],\"stop_reason\":";
    AppendJson(&out, stop_reason);
    out += ",\"stop_sequence\":null,\"usage\":";
    AppendJson(&out, AnthropicUsage(cache, output_tokens));
    if (meta.cache_diagnostics) {
      out += ",\"diagnostics\":";
      AppendJson(&out, *meta.cache_diagnostics);
    }
    if (meta.context_management) {
      out += ",\"context_management\":";
      AppendJson(&out, *meta.context_management);
    }
    out.push_back('}');
    return out;
  }
  std::string out;
  JsonValue start = JsonValue::Object();
  SetString(&start, "type", "message_start");
  start.Set("message", AnthropicMessageObject(meta, JsonValue::Array(), JsonValue(),
                                              AnthropicUsage(cache, 1)));
  AppendSseEvent(&out, "message_start", start);
  JsonValue ping = JsonValue::Object();
  SetString(&ping, "type", "ping");
  AppendSseEvent(&out, "ping", ping);
  std::int64_t index = 0;
  auto block_event = [&](std::string_view type, JsonValue field_value, std::string_view field) {
    JsonValue e = JsonValue::Object();
    SetString(&e, "type", type);
    SetInt(&e, "index", index);
    if (!field.empty()) e.Set(field, std::move(field_value));
    AppendSseEvent(&out, type, e);
  };
  if (o.compaction != nullptr) {  // the block opens empty; one delta carries its content
    JsonValue opened = JsonValue::Object();
    SetString(&opened, "type", "compaction");
    opened.Set("content", JsonValue());
    opened.Set("encrypted_content", JsonValue());
    block_event("content_block_start", std::move(opened), "content_block");
    JsonValue delta = JsonValue::Object();
    SetString(&delta, "type", "compaction_delta");
    delta.Set("content", *o.compaction->Find("content"));
    delta.Set("encrypted_content", *o.compaction->Find("encrypted_content"));
    block_event("content_block_delta", std::move(delta), "delta");
    block_event("content_block_stop", JsonValue(), "");
    ++index;
  }
  if (o.has_text && !o.text.empty()) {
    block_event("content_block_start", TextBlock(""), "content_block");
    for (std::string_view piece : SplitDeltas(o.text)) {
      JsonValue delta = JsonValue::Object();
      SetString(&delta, "type", "text_delta");
      SetString(&delta, "text", piece);
      block_event("content_block_delta", std::move(delta), "delta");
    }
    block_event("content_block_stop", JsonValue(), "");
    ++index;
  }
  for (const JsonValue* call : o.calls) {
    block_event("content_block_start", ToolUseBlock(*call, JsonValue::Object()), "content_block");
    JsonValue delta = JsonValue::Object();
    SetString(&delta, "type", "input_json_delta");
    SetString(&delta, "partial_json", input_json(*call));
    block_event("content_block_delta", std::move(delta), "delta");
    block_event("content_block_stop", JsonValue(), "");
    ++index;
  }
  JsonValue delta = JsonValue::Object();
  delta.Set("stop_reason", std::move(stop_reason));
  delta.Set("stop_sequence", JsonValue());
  JsonValue usage = JsonValue::Object();
  SetInt(&usage, "output_tokens", static_cast<std::int64_t>(output_tokens));
  JsonValue message_delta = JsonValue::Object();
  SetString(&message_delta, "type", "message_delta");
  message_delta.Set("delta", std::move(delta));
  message_delta.Set("usage", std::move(usage));
  if (meta.context_management) message_delta.Set("context_management", *meta.context_management);
  AppendSseEvent(&out, "message_delta", message_delta);
  JsonValue stop = JsonValue::Object();
  SetString(&stop, "type", "message_stop");
  AppendSseEvent(&out, "message_stop", stop);
  return out;
}

std::string WriteAnthropicFailure(std::string_view code, std::string_view message, bool streaming) {
  JsonValue error = JsonValue::Object();
  SetString(&error, "type", AnthropicErrorType(code));
  SetString(&error, "message", message);
  JsonValue out = JsonValue::Object();
  SetString(&out, "type", "error");
  out.Set("error", std::move(error));
  if (!streaming) return ToJson(out);
  std::string sse;
  AppendSseEvent(&sse, "error", out);
  return sse;
}

}  // namespace agentctx
