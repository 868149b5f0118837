// SPDX-License-Identifier: MIT
// ChatStreamAdapter; see chat_stream.h.
#include "provider/chat/chat_stream.h"

#include <utility>

#include "protocol/json_fields.h"
#include "protocol/responses_events.h"

namespace agentctx {
namespace {

std::int64_t Count(const JsonValue* holder, std::string_view key) {
  if (holder == nullptr || !holder->is_object()) return 0;
  auto v = holder->GetInt(key);
  return v && *v > 0 ? *v : 0;
}

// The Chat usage object in the Responses shape.
JsonValue MapUsage(const JsonValue& usage) {
  JsonValue out = JsonValue::Object();
  std::int64_t input = Count(&usage, "prompt_tokens");
  std::int64_t output = Count(&usage, "completion_tokens");
  SetInt(&out, "input_tokens", input);
  JsonValue input_details = JsonValue::Object();
  input_details.Set("cached_tokens",
                    JsonValue::Int(Count(usage.Find("prompt_tokens_details"), "cached_tokens")));
  // Writes, where the server reports them (OpenAI GPT-5.6+): read like the Responses usage.
  if (const JsonValue* details = usage.Find("prompt_tokens_details");
      details != nullptr && details->Find("cache_write_tokens") != nullptr) {
    input_details.Set("cache_write_tokens", JsonValue::Int(Count(details, "cache_write_tokens")));
  }
  out.Set("input_tokens_details", std::move(input_details));
  SetInt(&out, "output_tokens", output);
  JsonValue output_details = JsonValue::Object();
  output_details.Set(
      "reasoning_tokens",
      JsonValue::Int(Count(usage.Find("completion_tokens_details"), "reasoning_tokens")));
  out.Set("output_tokens_details", std::move(output_details));
  out.Set("total_tokens",
          JsonValue::Int(usage.Find("total_tokens") != nullptr ? Count(&usage, "total_tokens")
                                                               : input + output));
  return out;
}

}  // namespace

void ChatStreamAdapter::OnChunk(const JsonValue& chunk, std::vector<JsonValue>* out) {
  if (done_ || !chunk.is_object()) return;
  if (const JsonValue* error = chunk.Find("error"); error != nullptr && error->is_object()) {
    auto code = error->GetString("code");
    out->push_back(ResponseFailedEvent(code ? *code : error->GetString("type").value_or(""),
                                       error->GetString("message").value_or("")));
    done_ = true;
    return;
  }
  const JsonValue* choices = chunk.Find("choices");
  if (choices != nullptr && choices->is_array() && !choices->items().empty()) {
    const JsonValue& choice = choices->items()[0];
    const JsonValue* delta = choice.is_object() ? choice.Find("delta") : nullptr;
    if (delta != nullptr && delta->is_object()) {
      if (auto content = delta->GetString("content"); content && !content->empty()) {
        text_ += *content;
        has_text_ = true;
        out->push_back(ResponsesDeltaEvent("response.output_text.delta", *content));
      }
      auto reasoning = delta->GetString("reasoning_content");
      if (!reasoning) reasoning = delta->GetString("reasoning");
      if (reasoning && !reasoning->empty()) {
        out->push_back(ResponsesDeltaEvent("response.reasoning_text.delta", *reasoning));
      }
      const JsonValue* tool_calls = delta->Find("tool_calls");
      if (tool_calls != nullptr && tool_calls->is_array()) {
        for (const JsonValue& piece : tool_calls->items()) {
          if (!piece.is_object()) continue;
          std::int64_t index = piece.GetInt("index").value_or(0);
          Call& call = calls_[index];
          if (auto id = piece.GetString("id"); id && !id->empty()) call.id = std::string(*id);
          const JsonValue* function = piece.Find("function");
          if (function != nullptr && function->is_object()) {
            if (auto name = function->GetString("name")) call.name += *name;
            if (auto args = function->GetString("arguments")) call.arguments += *args;
          }
        }
      }
    }
    if (choice.is_object()) {
      if (auto finish = choice.GetString("finish_reason"); finish && !finish->empty()) {
        finish_reason_ = std::string(*finish);
      }
    }
  }
  const JsonValue* usage = chunk.Find("usage");
  if (finish_reason_ && usage != nullptr && usage->is_object()) Complete(usage, out);
}

void ChatStreamAdapter::OnEnd(std::vector<JsonValue>* out) {
  if (!done_ && finish_reason_) Complete(nullptr, out);
}

void ChatStreamAdapter::Complete(const JsonValue* usage, std::vector<JsonValue>* out) {
  done_ = true;
  if (*finish_reason_ == "length" || *finish_reason_ == "content_filter") {
    out->push_back(ResponseIncompleteEvent(*finish_reason_ == "length" ? "max_output_tokens"
                                                                       : "content_filter"));
    return;
  }
  std::int64_t output_index = 0;
  if (has_text_) out->push_back(OutputItemDoneEvent(output_index++, AssistantMessageItem(text_)));
  for (auto& [index, call] : calls_) {
    std::string call_id = call.id.empty() ? "call_" + std::to_string(index) : call.id;
    out->push_back(
        OutputItemDoneEvent(output_index++, FunctionCallItem(call.name, call.arguments, call_id)));
  }
  out->push_back(ResponseCompletedEvent(usage != nullptr ? MapUsage(*usage) : JsonValue()));
}

}  // namespace agentctx
