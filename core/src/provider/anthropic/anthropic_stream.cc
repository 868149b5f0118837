// SPDX-License-Identifier: MIT
// AnthropicStreamAdapter and Anthropic error mapping; see anthropic_stream.h.
#include "provider/anthropic/anthropic_stream.h"

#include <algorithm>
#include <utility>

#include "protocol/json_codec.h"
#include "protocol/json_fields.h"
#include "protocol/responses_events.h"

namespace agentctx {
std::string AnthropicErrorCode(const JsonValue& error) {
  std::string_view type = error.GetString("type").value_or("");
  std::string_view message = error.GetString("message").value_or("");
  if (type == "rate_limit_error") return "rate_limit_exceeded";
  if (type == "overloaded_error") return "server_is_overloaded";
  if (type == "invalid_request_error") {
    return message.find("prompt is too long") != std::string_view::npos ? "context_length_exceeded"
                                                                        : "invalid_prompt";
  }
  if (type == "authentication_error" || type == "permission_error") return "invalid_prompt";
  return std::string(type);
}

ModelFailure MapAnthropicErrorDelivery(std::optional<std::int64_t> status, std::string_view body,
                                       std::string_view message) {
  Result<JsonValue> parsed = ParseJson(body);
  const JsonValue* error = parsed && parsed->is_object() ? parsed->Find("error") : nullptr;
  if (error != nullptr && error->is_object() && error->Find("code") == nullptr &&
      error->GetString("type")) {
    std::string code = AnthropicErrorCode(*error);
    // Authentication failures keep their status rule (unauthorized), not invalid_request.
    std::string_view type = error->GetString("type").value_or("");
    if (type != "authentication_error" && type != "permission_error") {
      JsonValue rewritten = JsonValue::Object();
      JsonValue inner = JsonValue::Object();
      SetString(&inner, "code", code);
      SetString(&inner, "message", error->GetString("message").value_or(""));
      rewritten.Set("error", std::move(inner));
      ModelFailure f = MapModelErrorDelivery(status, ToJson(rewritten), message);
      if (status == 529 && f.code == ErrorCode::kHttpError) f.code = ErrorCode::kServerOverloaded;
      return f;
    }
  }
  ModelFailure f = MapModelErrorDelivery(status, body, message);
  if (status == 529) {
    f.code = ErrorCode::kServerOverloaded;
    f.retryable = true;
  }
  return f;
}

void AnthropicStreamAdapter::ReadUsage(const JsonValue* usage) {
  if (usage == nullptr || !usage->is_object()) return;
  has_usage_ = true;
  auto read = [usage](std::string_view key, std::int64_t* into) {
    if (auto v = usage->GetInt(key)) *into = *v > 0 ? *v : 0;
  };
  read("input_tokens", &input_tokens_);
  read("cache_creation_input_tokens", &cache_creation_tokens_);
  read("cache_read_input_tokens", &cache_read_tokens_);
  read("output_tokens", &output_tokens_);
  const JsonValue* creation = usage->Find("cache_creation");
  if (creation != nullptr && creation->is_object()) {
    std::int64_t one_hour = 0;
    if (auto v = creation->GetInt("ephemeral_1h_input_tokens")) one_hour = *v > 0 ? *v : 0;
    cache_creation_1h_tokens_ = one_hour;
  }
}

void AnthropicStreamAdapter::OnEvent(const JsonValue& event, std::vector<JsonValue>* out) {
  if (done_ || !event.is_object()) return;
  std::string_view type = event.GetString("type").value_or("");
  if (type == "message_start") {
    const JsonValue* message = event.Find("message");
    if (message != nullptr && message->is_object()) {
      ReadUsage(message->Find("usage"));
      message_id_ = std::string(message->GetString("id").value_or(""));
      if (const JsonValue* d = message->Find("diagnostics")) diagnostics_ = *d;
    }
  } else if (type == "content_block_start") {
    const JsonValue* block = event.Find("content_block");
    if (block == nullptr || !block->is_object()) return;
    Block& b = blocks_[event.GetInt("index").value_or(0)];
    b.type = std::string(block->GetString("type").value_or(""));
    b.id = std::string(block->GetString("id").value_or(""));
    b.name = std::string(block->GetString("name").value_or(""));
    b.text = std::string(block->GetString("text").value_or(""));
    if (b.type == "compaction") b.compaction = *block;
  } else if (type == "content_block_delta") {
    const JsonValue* delta = event.Find("delta");
    if (delta == nullptr || !delta->is_object()) return;
    Block& b = blocks_[event.GetInt("index").value_or(0)];
    std::string_view delta_type = delta->GetString("type").value_or("");
    if (delta_type == "text_delta") {
      std::string_view text = delta->GetString("text").value_or("");
      b.text += text;
      if (!text.empty()) out->push_back(ResponsesDeltaEvent("response.output_text.delta", text));
    } else if (delta_type == "input_json_delta") {
      b.text += delta->GetString("partial_json").value_or("");
    } else if (delta_type == "compaction_delta" && b.type == "compaction") {
      for (std::string_view key : {"content", "encrypted_content"}) {
        if (const JsonValue* v = delta->Find(key)) b.compaction.Set(std::string(key), *v);
      }
    } else if (delta_type == "thinking_delta") {
      std::string_view thinking = delta->GetString("thinking").value_or("");
      if (!thinking.empty())
        out->push_back(ResponsesDeltaEvent("response.reasoning_text.delta", thinking));
    }
  } else if (type == "content_block_stop") {
    auto found = blocks_.find(event.GetInt("index").value_or(0));
    if (found == blocks_.end()) return;
    Block b = std::move(found->second);
    blocks_.erase(found);
    if (b.type == "text" && !b.text.empty()) {
      out->push_back(OutputItemDoneEvent(output_index_++, AssistantMessageItem(b.text)));
    } else if (b.type == "tool_use") {
      out->push_back(OutputItemDoneEvent(output_index_++, FunctionCallItem(b.name, b.text, b.id)));
    } else if (b.type == "compaction" && b.compaction.GetString("content")) {
      // A summary (null content: the server failed to compact, nothing to keep) becomes a
      // `compaction` item; the canonical item keeps what goes back (protocol/items.h).
      JsonValue item = b.compaction;
      if (!item.GetString("encrypted_content"))
        item.Set("encrypted_content", JsonValue::String(""));
      out->push_back(OutputItemDoneEvent(output_index_++, std::move(item)));
    }
  } else if (type == "message_delta") {
    const JsonValue* delta = event.Find("delta");
    if (delta != nullptr && delta->is_object()) {
      if (auto reason = delta->GetString("stop_reason")) stop_reason_ = std::string(*reason);
    }
    ReadUsage(event.Find("usage"));
    // The context edits the server applied (applied_edits), verbatim for the session.
    if (const JsonValue* edits = event.Find("context_management"); edits && edits->is_object()) {
      context_management_ = *edits;
    }
  } else if (type == "message_stop") {
    done_ = true;
    if (stop_reason_ == "max_tokens") {
      out->push_back(ResponseIncompleteEvent("max_output_tokens"));
      return;
    }
    JsonValue usage;
    if (has_usage_) {
      std::int64_t input = input_tokens_ + cache_creation_tokens_ + cache_read_tokens_;
      usage = JsonValue::Object();
      SetInt(&usage, "input_tokens", input);
      JsonValue details = JsonValue::Object();
      SetInt(&details, "cached_tokens", cache_read_tokens_);
      SetInt(&details, "cache_creation_tokens", cache_creation_tokens_);
      if (cache_creation_1h_tokens_) {
        SetInt(&details, "cache_creation_1h_tokens",
               std::min(*cache_creation_1h_tokens_, cache_creation_tokens_));
      }
      usage.Set("input_tokens_details", std::move(details));
      SetInt(&usage, "output_tokens", output_tokens_);
      SetInt(&usage, "total_tokens", input + output_tokens_);
    }
    JsonValue completed = ResponseCompletedEvent(std::move(usage));
    // The id names this response in the next request's diagnostics; the provider's verdict
    // travels verbatim (cache_diagnosis.h reads it).
    if (JsonValue* response = completed.Find("response")) {
      if (!message_id_.empty()) response->Set("id", JsonValue::String(message_id_));
      if (diagnostics_) response->Set("diagnostics", *diagnostics_);
      if (context_management_) response->Set("context_management", *context_management_);
    }
    out->push_back(std::move(completed));
  } else if (type == "error") {
    done_ = true;
    const JsonValue* error = event.Find("error");
    const bool has = error != nullptr && error->is_object();
    out->push_back(ResponseFailedEvent(has ? AnthropicErrorCode(*error) : std::string(),
                                       has ? error->GetString("message").value_or("") : ""));
  }
}
}  // namespace agentctx
