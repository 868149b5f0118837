// SPDX-License-Identifier: MIT
// Item canonicalisation and builders; see items.h.
#include "protocol/items.h"

#include <initializer_list>
#include <utility>

#include "support/utf8.h"

namespace agentctx {

namespace {

JsonValue Str(std::string_view s) {
  if (IsValidUtf8(s)) return JsonValue::String(std::string(s));
  return JsonValue::String(LossyUtf8(s));
}

void Warn(std::vector<Warning>* warnings, std::string message) {
  if (warnings != nullptr)
    warnings->push_back(Warning{WarningCode::kUnsupportedItem, std::move(message)});
}

void SetIdIfKept(const JsonValue& raw, JsonValue* out) {
  std::optional<std::string_view> id = raw.GetString("id");
  if (id.has_value() && IsKeptItemId(*id)) out->Set("id", Str(*id));
}

// A string field, or a non-string JSON value written compactly; "" when absent or null.
std::string StringOrJson(const JsonValue* v) {
  if (v == nullptr || v->is_null()) return std::string();
  if (v->is_string()) return v->string_value();
  return ToJson(*v);
}

// A text part {type,text} of one of the `allowed` types; nullopt (with a warning) otherwise.
std::optional<JsonValue> CanonicalPart(const JsonValue& raw,
                                       std::initializer_list<std::string_view> allowed,
                                       std::string_view where, std::vector<Warning>* warnings) {
  std::string_view type = ItemType(raw);
  bool ok = false;
  for (std::string_view a : allowed) ok = ok || a == type;
  if (!ok) {
    Warn(warnings, "unsupported content part `" + std::string(type) + "` in " + std::string(where) +
                       " dropped");
    return std::nullopt;
  }
  JsonValue part = JsonValue::Object();
  part.Set("type", JsonValue::String(std::string(type)));
  if (type == "input_image") {
    std::optional<std::string_view> url = raw.GetString("image_url");
    if (!url.has_value()) {
      Warn(warnings, "input_image part without image_url in " + std::string(where) + " dropped");
      return std::nullopt;
    }
    part.Set("image_url", Str(*url));
    std::optional<std::string_view> detail = raw.GetString("detail");
    if (detail.has_value()) part.Set("detail", Str(*detail));
    return part;
  }
  std::optional<std::string_view> text = raw.GetString("text");
  if (!text.has_value()) {
    Warn(warnings, std::string(type) + " part without text in " + std::string(where) + " dropped");
    return std::nullopt;
  }
  part.Set("text", Str(*text));
  return part;
}

JsonValue CanonicalParts(const JsonValue& raw, std::initializer_list<std::string_view> allowed,
                         std::string_view where, std::vector<Warning>* warnings) {
  JsonValue parts = JsonValue::Array();
  for (const JsonValue& p : raw.items()) {
    std::optional<JsonValue> part = CanonicalPart(p, allowed, where, warnings);
    if (part.has_value()) parts.Push(std::move(*part));
  }
  return parts;
}

// A tool output: string, parts array, or a legacy `{"content": "..."}` object.
JsonValue CanonicalOutput(const JsonValue* raw, std::string_view where,
                          std::vector<Warning>* warnings) {
  if (raw == nullptr || raw->is_null()) return JsonValue::String("");
  if (raw->is_string()) return *raw;
  if (raw->is_array()) return CanonicalParts(*raw, {"input_text", "input_image"}, where, warnings);
  if (raw->is_object()) {
    std::optional<std::string_view> content = raw->GetString("content");
    if (content.has_value()) return Str(*content);
  }
  return JsonValue::String(ToJson(*raw));
}

std::optional<JsonValue> CanonicalMessage(const JsonValue& raw, std::vector<Warning>* warnings) {
  std::string_view role = raw.GetString("role").value_or("");
  if (role == "system") return std::nullopt;  // dropped silently
  if (role != "user" && role != "assistant" && role != "developer") {
    Warn(warnings, "message with unsupported role `" + std::string(role) + "` dropped");
    return std::nullopt;
  }
  JsonValue out = JsonValue::Object();
  out.Set("type", JsonValue::String("message"));
  SetIdIfKept(raw, &out);
  out.Set("role", JsonValue::String(std::string(role)));
  const JsonValue* content = raw.Find("content");
  std::string_view text_type = role == "assistant" ? "output_text" : "input_text";
  if (content != nullptr && content->is_string()) {
    JsonValue parts = JsonValue::Array();
    JsonValue part = JsonValue::Object();
    part.Set("type", JsonValue::String(std::string(text_type)));
    part.Set("text", *content);
    parts.Push(std::move(part));
    out.Set("content", std::move(parts));
  } else if (content != nullptr && content->is_array()) {
    out.Set("content", CanonicalParts(*content, {"input_text", "output_text", "input_image"},
                                      "message", warnings));
  } else {
    out.Set("content", JsonValue::Array());
  }
  return out;
}

std::optional<JsonValue> CanonicalReasoning(const JsonValue& raw, std::vector<Warning>* warnings) {
  JsonValue out = JsonValue::Object();
  out.Set("type", JsonValue::String("reasoning"));
  SetIdIfKept(raw, &out);
  const JsonValue* summary = raw.Find("summary");
  out.Set("summary", summary != nullptr && summary->is_array()
                         ? CanonicalParts(*summary, {"summary_text"}, "reasoning", warnings)
                         : JsonValue::Array());
  const JsonValue* content = raw.Find("content");
  if (content != nullptr && content->is_array()) {
    JsonValue parts = JsonValue::Array();
    for (const JsonValue& p : content->items()) {
      std::string_view type = ItemType(p);
      std::optional<std::string_view> text = p.GetString("text");
      if (type.empty() || !text.has_value()) {
        Warn(warnings, "malformed reasoning content part dropped");
        continue;
      }
      JsonValue part = JsonValue::Object();
      part.Set("type", JsonValue::String(std::string(type)));
      part.Set("text", Str(*text));
      parts.Push(std::move(part));
    }
    out.Set("content", std::move(parts));
  }
  std::optional<std::string_view> encrypted = raw.GetString("encrypted_content");
  if (encrypted.has_value()) out.Set("encrypted_content", Str(*encrypted));
  return out;
}

bool RequireStrings(const JsonValue& raw, std::string_view type,
                    std::initializer_list<std::string_view> keys, std::vector<Warning>* warnings) {
  for (std::string_view key : keys) {
    if (!raw.GetString(key).has_value()) {
      Warn(warnings, std::string(type) + " item without `" + std::string(key) + "` dropped");
      return false;
    }
  }
  return true;
}

}  // namespace

bool IsKeptItemId(std::string_view id) {
  if (id.size() < 3) return false;
  return id.find('_', 1) < id.size() - 1;
}

std::string_view ItemType(const JsonValue& item) { return item.GetString("type").value_or(""); }

std::string_view ItemCallId(const JsonValue& item) {
  return item.GetString("call_id").value_or("");
}

std::optional<JsonValue> CanonicalizeItem(const JsonValue& raw, std::vector<Warning>* warnings) {
  if (!raw.is_object()) {
    Warn(warnings, "item that is not a JSON object dropped");
    return std::nullopt;
  }
  std::string_view type = ItemType(raw);
  if (type == "message") return CanonicalMessage(raw, warnings);
  if (type == "reasoning") return CanonicalReasoning(raw, warnings);
  JsonValue out = JsonValue::Object();
  if (type == "function_call") {
    if (!RequireStrings(raw, type, {"name", "call_id"}, warnings)) return std::nullopt;
    out.Set("type", JsonValue::String("function_call"));
    SetIdIfKept(raw, &out);
    out.Set("name", Str(*raw.GetString("name")));
    out.Set("arguments", Str(StringOrJson(raw.Find("arguments"))));
    out.Set("call_id", Str(*raw.GetString("call_id")));
    return out;
  }
  if (type == "function_call_output" || type == "custom_tool_call_output") {
    if (!RequireStrings(raw, type, {"call_id"}, warnings)) return std::nullopt;
    out.Set("type", JsonValue::String(std::string(type)));
    out.Set("call_id", Str(*raw.GetString("call_id")));
    out.Set("output", CanonicalOutput(raw.Find("output"), type, warnings));
    return out;
  }
  if (type == "custom_tool_call") {
    if (!RequireStrings(raw, type, {"call_id", "name"}, warnings)) return std::nullopt;
    out.Set("type", JsonValue::String("custom_tool_call"));
    SetIdIfKept(raw, &out);
    out.Set("call_id", Str(*raw.GetString("call_id")));
    out.Set("name", Str(*raw.GetString("name")));
    out.Set("input", Str(StringOrJson(raw.Find("input"))));
    return out;
  }
  if (type == "compaction" || type == "compaction_summary") {
    if (!RequireStrings(raw, type, {"encrypted_content"}, warnings)) return std::nullopt;
    out.Set("type", JsonValue::String("compaction"));
    out.Set("encrypted_content", Str(*raw.GetString("encrypted_content")));
    // Anthropic's compaction block: its summary, signature and tool changes go back verbatim.
    if (auto content = raw.GetString("content")) out.Set("content", Str(*content));
    if (auto signature = raw.GetString("signature")) out.Set("signature", Str(*signature));
    if (const JsonValue* changes = raw.Find("tool_changes"); changes && changes->is_array()) {
      out.Set("tool_changes", *changes);
    }
    return out;
  }
  if (type == "tool_changes") {
    const JsonValue* added = raw.Find("added");
    const JsonValue* removed = raw.Find("removed");
    bool ok = added != nullptr && added->is_array() && removed != nullptr && removed->is_array() &&
              raw.GetString("notice").has_value();
    std::vector<std::string> names;
    for (std::size_t i = 0; ok && i < added->items().size(); ++i) {
      ok = added->items()[i].is_object() && added->items()[i].GetString("name").has_value();
    }
    for (std::size_t i = 0; ok && i < removed->items().size(); ++i) {
      ok = removed->items()[i].is_string();
      if (ok) names.push_back(removed->items()[i].string_value());
    }
    if (!ok) {
      Warn(warnings, "malformed tool_changes item dropped");
      return std::nullopt;
    }
    return ToolChangesItem(*added, names, *raw.GetString("notice"),
                           raw.GetString("removal_notice").value_or(""));
  }
  if (type.empty()) {
    Warn(warnings, "item without a type dropped");
  } else {
    Warn(warnings, "unsupported item type `" + std::string(type) + "` dropped");
  }
  return std::nullopt;
}

JsonValue InputTextPart(std::string_view text) {
  JsonValue part = JsonValue::Object();
  part.Set("type", JsonValue::String("input_text"));
  part.Set("text", Str(text));
  return part;
}

JsonValue InputImagePart(std::string_view image_url) {
  JsonValue part = JsonValue::Object();
  part.Set("type", JsonValue::String("input_image"));
  part.Set("image_url", Str(image_url));
  return part;
}

JsonValue InputMessage(std::string_view role, const std::vector<std::string>& fragments) {
  JsonValue out = JsonValue::Object();
  out.Set("type", JsonValue::String("message"));
  out.Set("role", JsonValue::String(std::string(role)));
  JsonValue content = JsonValue::Array();
  for (const std::string& f : fragments) content.Push(InputTextPart(f));
  out.Set("content", std::move(content));
  return out;
}

JsonValue UserInputMessage(std::string_view text, const std::vector<std::string>& image_urls) {
  JsonValue out = InputMessage("user", {std::string(text)});
  JsonValue* content = out.Find("content");
  for (const std::string& url : image_urls) content->Push(InputImagePart(url));
  return out;
}

JsonValue FunctionCallOutputItem(std::string_view call_id, std::string_view output) {
  JsonValue out = JsonValue::Object();
  out.Set("type", JsonValue::String("function_call_output"));
  out.Set("call_id", Str(call_id));
  out.Set("output", Str(output));
  return out;
}

JsonValue FunctionCallOutputItem(std::string_view call_id, const JsonValue& parts) {
  JsonValue out = JsonValue::Object();
  out.Set("type", JsonValue::String("function_call_output"));
  out.Set("call_id", Str(call_id));
  out.Set("output", CanonicalOutput(&parts, "function_call_output", nullptr));
  return out;
}

JsonValue CustomToolCallOutputItem(std::string_view call_id, std::string_view output) {
  JsonValue out = JsonValue::Object();
  out.Set("type", JsonValue::String("custom_tool_call_output"));
  out.Set("call_id", Str(call_id));
  out.Set("output", Str(output));
  return out;
}

RecordedItem MakeRecordedItem(JsonValue canonical_item, std::string turn_id, std::string origin) {
  RecordedItem item;
  item.bytes = ToJson(canonical_item);
  item.json = std::move(canonical_item);
  item.turn_id = std::move(turn_id);
  item.origin = std::move(origin);
  return item;
}

JsonValue ToolChangesItem(JsonValue added_specs, const std::vector<std::string>& removed,
                          std::string_view notice, std::string_view removal_notice) {
  JsonValue out = JsonValue::Object();
  out.Set("type", JsonValue::String("tool_changes"));
  out.Set("added", std::move(added_specs));
  JsonValue names = JsonValue::Array();
  for (const std::string& name : removed) names.Push(Str(name));
  out.Set("removed", std::move(names));
  out.Set("notice", Str(notice));
  if (!removed.empty()) out.Set("removal_notice", Str(removal_notice));
  return out;
}

}  // namespace agentctx
