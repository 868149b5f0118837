// SPDX-License-Identifier: MIT
// Items and tools rendered for Chat Completions and Anthropic Messages; see provider_items.h.
#include "provider/provider_items.h"

#include <utility>

#include "prompt/for_prompt.h"
#include "protocol/json_codec.h"
#include "protocol/json_fields.h"

namespace agentctx {
namespace {

// A canonical tool spec as an Anthropic tool {"name","description","input_schema"}.
JsonValue AnthropicToolEntry(const JsonValue& tool) {
  JsonValue entry = JsonValue::Object();
  SetString(&entry, "name", tool.GetString("name").value_or(""));
  SetString(&entry, "description", tool.GetString("description").value_or(""));
  const JsonValue* parameters = tool.Find("parameters");
  entry.Set("input_schema", parameters != nullptr ? *parameters : JsonValue::Object());
  return entry;
}

JsonValue TextBlock(std::string_view text) {
  JsonValue block = JsonValue::Object();
  SetString(&block, "type", "text");
  SetString(&block, "text", text);
  return block;
}

const JsonValue* Content(const JsonValue& item) {
  const JsonValue* content = item.Find("content");
  return content != nullptr && content->is_array() ? content : nullptr;
}

// `data:<media type>;base64,<data>` → (media type, data); false for any other URL.
bool SplitDataUrl(std::string_view url, std::string_view* media_type, std::string_view* data) {
  constexpr std::string_view kPrefix = "data:";
  constexpr std::string_view kBase64 = ";base64,";
  if (url.substr(0, kPrefix.size()) != kPrefix) return false;
  std::size_t marker = url.find(kBase64);
  if (marker == std::string_view::npos) return false;
  *media_type = url.substr(kPrefix.size(), marker - kPrefix.size());
  *data = url.substr(marker + kBase64.size());
  return true;
}

JsonValue ChatPart(const JsonValue& part) {
  if (part.GetString("type") == "input_image") {
    JsonValue image = JsonValue::Object();
    SetString(&image, "url", part.GetString("image_url").value_or(""));
    if (auto detail = part.GetString("detail")) SetString(&image, "detail", *detail);
    JsonValue out = JsonValue::Object();
    SetString(&out, "type", "image_url");
    out.Set("image_url", std::move(image));
    return out;
  }
  return TextBlock(part.GetString("text").value_or(""));
}

JsonValue AnthropicBlock(const JsonValue& part) {
  if (part.GetString("type") != "input_image")
    return TextBlock(part.GetString("text").value_or(""));
  std::string_view url = part.GetString("image_url").value_or("");
  JsonValue source = JsonValue::Object();
  std::string_view media_type;
  std::string_view data;
  if (SplitDataUrl(url, &media_type, &data)) {
    SetString(&source, "type", "base64");
    SetString(&source, "media_type", media_type);
    SetString(&source, "data", data);
  } else {
    SetString(&source, "type", "url");
    SetString(&source, "url", url);
  }
  JsonValue block = JsonValue::Object();
  SetString(&block, "type", "image");
  block.Set("source", std::move(source));
  return block;
}

bool IsEmptyText(const JsonValue& block) {
  return block.GetString("type") == "text" && block.GetString("text").value_or("").empty();
}

// A tool output's parts as text-only parts (Chat tool messages take text).
JsonValue TextOnlyParts(const JsonValue& parts) {
  JsonValue out = JsonValue::Array();
  for (const JsonValue& part : parts.items()) {
    if (part.GetString("type") == "input_image") {
      out.Push(TextBlock(kImageOmittedText));
    } else {
      out.Push(TextBlock(part.GetString("text").value_or("")));
    }
  }
  return out;
}

std::string CallArguments(const JsonValue& item) {
  if (item.GetString("type") == "custom_tool_call") {
    JsonValue wrapped = JsonValue::Object();
    SetString(&wrapped, "input", item.GetString("input").value_or(""));
    return ToJson(wrapped);
  }
  return std::string(item.GetString("arguments").value_or(""));
}

ChatPiece ChatMessage(const JsonValue& item) {
  std::string_view role = item.GetString("role").value_or("");
  const JsonValue* content = Content(item);
  if (content == nullptr) return {};
  if (role == "assistant") {
    ChatPiece piece{ChatPiece::Kind::kAssistantText, {}};
    for (const JsonValue& part : content->items()) {
      if (part.GetString("type") == "output_text")
        piece.bytes += part.GetString("text").value_or("");
    }
    return piece;
  }
  if (role != "user" && role != "developer") return {};
  JsonValue message = JsonValue::Object();
  SetString(&message, "role", role);
  if (content->items().size() == 1 && content->items()[0].GetString("type") == "input_text") {
    SetString(&message, "content", content->items()[0].GetString("text").value_or(""));
  } else {
    JsonValue parts = JsonValue::Array();
    for (const JsonValue& part : content->items()) parts.Push(ChatPart(part));
    message.Set("content", std::move(parts));
  }
  return {ChatPiece::Kind::kMessage, ToJson(message)};
}

}  // namespace

ChatPiece RenderChatPiece(const JsonValue& item) {
  std::string_view type = ItemType(item);
  if (type == "message") return ChatMessage(item);
  if (type == "function_call" || type == "custom_tool_call") {
    JsonValue function = JsonValue::Object();
    SetString(&function, "name", item.GetString("name").value_or(""));
    SetString(&function, "arguments", CallArguments(item));
    JsonValue call = JsonValue::Object();
    SetString(&call, "id", ItemCallId(item));
    SetString(&call, "type", "function");
    call.Set("function", std::move(function));
    return {ChatPiece::Kind::kToolCall, ToJson(call)};
  }
  if (type == "function_call_output" || type == "custom_tool_call_output") {
    JsonValue message = JsonValue::Object();
    SetString(&message, "role", "tool");
    SetString(&message, "tool_call_id", ItemCallId(item));
    const JsonValue* output = item.Find("output");
    if (output != nullptr && output->is_array()) {
      message.Set("content", TextOnlyParts(*output));
    } else {
      SetString(&message, "content", item.GetString("output").value_or(""));
    }
    return {ChatPiece::Kind::kMessage, ToJson(message)};
  }
  return {};  // reasoning, compaction: the Chat API cannot take them
}

AnthropicMessage RenderAnthropicMessage(const JsonValue& item) {
  std::string_view type = ItemType(item);
  JsonValue blocks = JsonValue::Array();
  std::string_view role = "user";
  if (type == "message") {
    std::string_view item_role = item.GetString("role").value_or("");
    const JsonValue* content = Content(item);
    if (content == nullptr) return {};
    if (item_role == "assistant") {
      role = "assistant";
      for (const JsonValue& part : content->items()) {
        if (part.GetString("type") != "output_text") continue;
        JsonValue block = TextBlock(part.GetString("text").value_or(""));
        if (!IsEmptyText(block)) blocks.Push(std::move(block));
      }
    } else if (item_role == "user" || item_role == "developer" || item_role == "system") {
      if (item_role == "system") role = "system";  // the harness's notices (session_step.cc)
      for (const JsonValue& part : content->items()) {
        JsonValue block = AnthropicBlock(part);
        if (!IsEmptyText(block)) blocks.Push(std::move(block));
      }
    } else {
      return {};
    }
  } else if (type == "function_call" || type == "custom_tool_call") {
    role = "assistant";
    JsonValue block = JsonValue::Object();
    SetString(&block, "type", "tool_use");
    SetString(&block, "id", ItemCallId(item));
    SetString(&block, "name", item.GetString("name").value_or(""));
    std::string arguments = CallArguments(item);
    auto parsed = ParseJson(arguments);
    if (parsed && parsed->is_object()) {
      block.Set("input", std::move(*parsed));
    } else {
      JsonValue wrapped = JsonValue::Object();
      wrapped.Set("arguments", JsonValue::String(std::move(arguments)));
      block.Set("input", std::move(wrapped));
    }
    blocks.Push(std::move(block));
  } else if (type == "function_call_output" || type == "custom_tool_call_output") {
    JsonValue block = JsonValue::Object();
    SetString(&block, "type", "tool_result");
    SetString(&block, "tool_use_id", ItemCallId(item));
    const JsonValue* output = item.Find("output");
    if (output != nullptr && output->is_array()) {
      JsonValue parts = JsonValue::Array();
      for (const JsonValue& part : output->items()) {
        JsonValue converted = AnthropicBlock(part);
        if (!IsEmptyText(converted)) parts.Push(std::move(converted));
      }
      if (!parts.items().empty()) block.Set("content", std::move(parts));
    } else if (auto text = item.GetString("output"); text && !text->empty()) {
      SetString(&block, "content", *text);
    }
    blocks.Push(std::move(block));
  } else if (type == "compaction" && item.GetString("content")) {
    // Anthropic's own compaction block, sent back as it came (an OpenAI compaction has no
    // `content` and is dropped below).
    role = "assistant";
    JsonValue block = JsonValue::Object();
    SetString(&block, "type", "compaction");
    SetString(&block, "content", *item.GetString("content"));
    if (auto e = item.GetString("encrypted_content"); e && !e->empty()) {
      SetString(&block, "encrypted_content", *e);
    }
    if (auto signature = item.GetString("signature")) SetString(&block, "signature", *signature);
    if (const JsonValue* changes = item.Find("tool_changes")) block.Set("tool_changes", *changes);
    blocks.Push(std::move(block));
  } else if (type == "tool_changes") {
    // A native tool change: one mid-conversation system message, definitions inline.
    role = "system";
    if (const JsonValue* added = item.Find("added"); added != nullptr && added->is_array()) {
      for (const JsonValue& spec : added->items()) {
        JsonValue tool = JsonValue::Object();
        SetString(&tool, "type", "tool_definition");
        tool.Set("definition", AnthropicToolEntry(spec));
        JsonValue block = JsonValue::Object();
        SetString(&block, "type", "tool_addition");
        block.Set("tool", std::move(tool));
        blocks.Push(std::move(block));
      }
    }
    if (const JsonValue* removed = item.Find("removed");
        removed != nullptr && removed->is_array()) {
      for (const JsonValue& name : removed->items()) {
        JsonValue tool = JsonValue::Object();
        SetString(&tool, "type", "tool_reference");
        SetString(&tool, "name", name.is_string() ? name.string_value() : std::string());
        JsonValue block = JsonValue::Object();
        SetString(&block, "type", "tool_removal");
        block.Set("tool", std::move(tool));
        blocks.Push(std::move(block));
      }
    }
  } else {
    return {};  // reasoning, OpenAI compaction: dropped in rendering, kept in history
  }
  if (blocks.items().empty()) return {};
  JsonValue message = JsonValue::Object();
  SetString(&message, "role", role);
  message.Set("content", std::move(blocks));
  return {false, ToJson(message)};
}

std::string ChatToolsJson(std::string_view canonical_tools) {
  auto parsed = ParseJson(canonical_tools);
  if (!parsed || !parsed->is_array() || parsed->items().empty()) return {};
  JsonValue out = JsonValue::Array();
  for (const JsonValue& tool : parsed->items()) {
    JsonValue function = JsonValue::Object();
    SetString(&function, "name", tool.GetString("name").value_or(""));
    SetString(&function, "description", tool.GetString("description").value_or(""));
    const JsonValue* parameters = tool.Find("parameters");
    function.Set("parameters", parameters != nullptr ? *parameters : JsonValue::Object());
    if (tool.GetBool("strict").value_or(false)) function.Set("strict", JsonValue::Bool(true));
    JsonValue entry = JsonValue::Object();
    SetString(&entry, "type", "function");
    entry.Set("function", std::move(function));
    out.Push(std::move(entry));
  }
  return ToJson(out);
}

std::string AnthropicToolJson(const JsonValue& tool) { return ToJson(AnthropicToolEntry(tool)); }

std::vector<std::string> AnthropicToolsJson(std::string_view canonical_tools) {
  std::vector<std::string> out;
  auto parsed = ParseJson(canonical_tools);
  if (!parsed || !parsed->is_array()) return out;
  for (const JsonValue& tool : parsed->items()) out.push_back(AnthropicToolJson(tool));
  return out;
}

}  // namespace agentctx
