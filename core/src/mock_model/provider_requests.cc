// SPDX-License-Identifier: MIT
// Chat and Anthropic requests read by the mock; see provider_requests.h.
#include "mock_model/provider_requests.h"

#include <utility>

#include "protocol/json_fields.h"
#include "world_state/sections/tools_section.h"

namespace agentctx {
namespace {

JsonValue Part(std::string_view type, std::string_view text) {
  JsonValue part = JsonValue::Object();
  SetString(&part, "type", type);
  SetString(&part, "text", text);
  return part;
}

JsonValue Message(std::string_view role, JsonValue content) {
  JsonValue m = JsonValue::Object();
  SetString(&m, "type", "message");
  SetString(&m, "role", role);
  m.Set("content", std::move(content));
  return m;
}

JsonValue Call(std::string_view name, std::string arguments, std::string_view call_id) {
  JsonValue c = JsonValue::Object();
  SetString(&c, "type", "function_call");
  SetString(&c, "name", name);
  c.Set("arguments", JsonValue::String(std::move(arguments)));
  SetString(&c, "call_id", call_id);
  return c;
}

JsonValue Output(std::string_view call_id, std::string output) {
  JsonValue o = JsonValue::Object();
  SetString(&o, "type", "function_call_output");
  SetString(&o, "call_id", call_id);
  o.Set("output", JsonValue::String(std::move(output)));
  return o;
}

// String content, or the text of its text parts joined by LF.
std::string TextOf(const JsonValue* content) {
  if (content == nullptr) return {};
  if (content->is_string()) return content->string_value();
  std::string out;
  if (!content->is_array()) return out;
  for (const JsonValue& part : content->items()) {
    if (!part.is_object() || part.GetString("type") != "text") continue;
    if (!out.empty()) out.push_back('\n');
    out += part.GetString("text").value_or("");
  }
  return out;
}

// The `responses` tool entry the rules read (they look only at names).
JsonValue FunctionTool(std::string_view name) {
  JsonValue entry = JsonValue::Object();
  SetString(&entry, "type", "function");
  SetString(&entry, "name", name);
  return entry;
}

Result<const JsonValue*> Messages(const JsonValue& body) {
  if (!body.is_object()) return Fail(ErrorCode::kInvalidInput, "request body must be an object");
  const JsonValue* messages = body.Find("messages");
  if (messages == nullptr || !messages->is_array()) {
    return Fail(ErrorCode::kInvalidInput, "request body: `messages` must be an array");
  }
  for (const JsonValue& m : messages->items()) {
    if (!m.is_object())
      return Fail(ErrorCode::kInvalidInput, "request body: a message must be an object");
  }
  return messages;
}

JsonValue ResponsesShell(const JsonValue& body, JsonValue input, JsonValue tools) {
  JsonValue out = JsonValue::Object();
  if (const JsonValue* model = body.Find("model")) out.Set("model", *model);
  out.Set("input", std::move(input));
  out.Set("tools", std::move(tools));
  return out;
}

bool StartsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

bool IsDeveloperText(std::string_view text) {
  std::size_t i = text.find_first_not_of(" \t\r\n");
  if (i == std::string_view::npos) return false;
  text.remove_prefix(i);
  return StartsWith(text, "<permissions instructions>") || StartsWith(text, "<model_switch>") ||
         StartsWith(text, "<tools>");
}

// A block without `cache_control`, with its mark.
AnthropicBlock CacheBlock(const JsonValue& raw) {
  AnthropicBlock block;
  JsonValue copy = raw;
  if (const JsonValue* mark = raw.is_object() ? raw.Find("cache_control") : nullptr) {
    block.marked = mark->is_object();
    if (block.marked && mark->GetString("ttl") == "1h") block.ttl_ms = 3600000;
    copy.Remove("cache_control");
  }
  block.bytes = ToJson(copy);
  return block;
}

void AddBlocks(const JsonValue* content, std::vector<AnthropicBlock>* out) {
  if (content == nullptr) return;
  if (content->is_string()) {
    JsonValue text = JsonValue::Object();
    SetString(&text, "type", "text");
    text.Set("text", *content);
    out->push_back(CacheBlock(text));
  } else if (content->is_array()) {
    for (const JsonValue& b : content->items()) out->push_back(CacheBlock(b));
  }
}

}  // namespace

Result<ProviderRequest> ReadChatRequest(const JsonValue& body) {
  ACTX_TRY(const JsonValue* messages, Messages(body));
  ProviderRequest req;
  req.streaming = body.GetBool("stream").value_or(false);
  JsonValue input = JsonValue::Array();
  JsonValue tools = JsonValue::Array();
  if (const JsonValue* t = body.Find("tools"); t != nullptr && t->is_array()) {
    req.prompt += ToJson(*t);
    for (const JsonValue& tool : t->items()) {
      const JsonValue* function = tool.is_object() ? tool.Find("function") : nullptr;
      if (function == nullptr || !function->is_object()) continue;
      tools.Push(FunctionTool(function->GetString("name").value_or("")));
    }
  }
  for (const JsonValue& m : messages->items()) {
    req.prompt += ToJson(m);
    std::string_view role = m.GetString("role").value_or("");
    const JsonValue* content = m.Find("content");
    if (role == "user" || role == "developer") {
      JsonValue parts = JsonValue::Array();
      if (content != nullptr && content->is_string()) {
        parts.Push(Part("input_text", content->string_value()));
      } else if (content != nullptr && content->is_array()) {
        for (const JsonValue& part : content->items()) {
          if (!part.is_object()) continue;
          if (part.GetString("type") == "text") {
            parts.Push(Part("input_text", part.GetString("text").value_or("")));
          } else if (const JsonValue* image = part.Find("image_url"); image && image->is_object()) {
            JsonValue img = JsonValue::Object();
            SetString(&img, "type", "input_image");
            SetString(&img, "image_url", image->GetString("url").value_or(""));
            parts.Push(std::move(img));
          }
        }
      }
      input.Push(Message(role, std::move(parts)));
    } else if (role == "assistant") {
      std::string text = TextOf(content);
      if (!text.empty()) {
        JsonValue parts = JsonValue::Array();
        parts.Push(Part("output_text", text));
        input.Push(Message("assistant", std::move(parts)));
      }
      if (const JsonValue* calls = m.Find("tool_calls"); calls != nullptr && calls->is_array()) {
        for (const JsonValue& call : calls->items()) {
          const JsonValue* function = call.is_object() ? call.Find("function") : nullptr;
          if (function == nullptr || !function->is_object()) continue;
          input.Push(Call(function->GetString("name").value_or(""),
                          std::string(function->GetString("arguments").value_or("")),
                          call.GetString("id").value_or("")));
        }
      }
    } else if (role == "tool") {
      input.Push(Output(m.GetString("tool_call_id").value_or(""), TextOf(content)));
    }
  }
  req.responses_body = ResponsesShell(body, std::move(input), std::move(tools));
  return req;
}

Result<ProviderRequest> ReadAnthropicRequest(const JsonValue& body) {
  ACTX_TRY(const JsonValue* messages, Messages(body));
  ProviderRequest req;
  req.streaming = body.GetBool("stream").value_or(false);
  JsonValue input = JsonValue::Array();
  JsonValue tools = JsonValue::Array();
  if (const JsonValue* t = body.Find("tools"); t != nullptr && t->is_array()) {
    for (const JsonValue& tool : t->items()) {
      req.blocks.push_back(CacheBlock(tool));
      tools.Push(FunctionTool(tool.is_object() ? tool.GetString("name").value_or("") : ""));
    }
  }
  AddBlocks(body.Find("system"), &req.blocks);
  for (const JsonValue& m : messages->items()) {
    const JsonValue* content = m.Find("content");
    AddBlocks(content, &req.blocks);
    const bool assistant = m.GetString("role") == "assistant";
    const bool system = m.GetString("role") == "system";  // a mid-conversation system message
    JsonValue parts = JsonValue::Array();
    std::string first_text;
    auto flush_text = [&]() {
      if (parts.items().empty()) return;
      input.Push(Message(assistant                               ? "assistant"
                         : system || IsDeveloperText(first_text) ? "developer"
                                                                 : "user",
                         std::move(parts)));
      parts = JsonValue::Array();
      first_text.clear();
    };
    if (content != nullptr && content->is_string()) {
      first_text = content->string_value();
      parts.Push(Part(assistant ? "output_text" : "input_text", first_text));
    } else if (content != nullptr && content->is_array()) {
      for (const JsonValue& block : content->items()) {
        if (!block.is_object()) continue;
        std::string_view type = block.GetString("type").value_or("");
        if (type == "text") {
          std::string_view text = block.GetString("text").value_or("");
          if (parts.items().empty()) first_text = std::string(text);
          parts.Push(Part(assistant ? "output_text" : "input_text", text));
        } else if (type == "tool_use") {
          flush_text();
          const JsonValue* args = block.Find("input");
          input.Push(Call(block.GetString("name").value_or(""),
                          args != nullptr ? ToJson(*args) : std::string("{}"),
                          block.GetString("id").value_or("")));
        } else if (type == "tool_result") {
          flush_text();
          input.Push(
              Output(block.GetString("tool_use_id").value_or(""), TextOf(block.Find("content"))));
        } else if (system && (type == "tool_addition" || type == "tool_removal")) {
          // Native tool changes, read as the Responses items the rules know.
          flush_text();
          const JsonValue* tool = block.Find("tool");
          const JsonValue* definition = tool != nullptr ? tool->Find("definition") : nullptr;
          std::string name(definition != nullptr ? definition->GetString("name").value_or("")
                           : tool != nullptr     ? tool->GetString("name").value_or("")
                                                 : "");
          if (type == "tool_addition") {
            JsonValue added = JsonValue::Object();
            SetString(&added, "type", "additional_tools");
            SetString(&added, "role", "developer");
            JsonValue list = JsonValue::Array();
            list.Push(FunctionTool(name));
            added.Set("tools", std::move(list));
            input.Push(std::move(added));
          } else {
            JsonValue notice = JsonValue::Array();
            notice.Push(Part("input_text", RenderToolsRemovedNotice({name})));
            input.Push(Message("developer", std::move(notice)));
          }
        }
      }
    }
    flush_text();
  }
  req.responses_body = ResponsesShell(body, std::move(input), std::move(tools));
  return req;
}

}  // namespace agentctx
