// SPDX-License-Identifier: MIT
// for_prompt over cached item bytes; see for_prompt.h.
#include "prompt/for_prompt.h"

#include <set>
#include <utility>

namespace agentctx {

namespace {

bool PartsHaveImage(const JsonValue* parts) {
  if (parts == nullptr || !parts->is_array()) return false;
  for (const JsonValue& p : parts->items()) {
    if (ItemType(p) == "input_image") return true;
  }
  return false;
}

void ReplaceImages(JsonValue* parts) {
  if (parts == nullptr || !parts->is_array()) return;
  for (JsonValue& p : parts->items()) {
    if (ItemType(p) == "input_image") p = InputTextPart(kImageOmittedText);
  }
}

}  // namespace

std::string_view OutputTypeFor(std::string_view call_type) {
  if (call_type == "function_call") return "function_call_output";
  if (call_type == "custom_tool_call") return "custom_tool_call_output";
  return "";
}

std::string_view CallTypeFor(std::string_view output_type) {
  if (output_type == "function_call_output") return "function_call";
  if (output_type == "custom_tool_call_output") return "custom_tool_call";
  return "";
}

std::string PairKey(std::string_view call_type, std::string_view call_id) {
  std::string key(call_type);
  key.push_back('\0');
  key.append(call_id);
  return key;
}

const CachedPromptItem& PromptItemCache::Add(std::map<std::string, CachedPromptItem>* map,
                                             std::string key, std::string bytes) {
  ++serialized_count_;
  CachedPromptItem item{std::move(bytes), kCacheSerialBit | serialized_count_};
  return map->emplace(std::move(key), std::move(item)).first->second;
}

const CachedPromptItem& PromptItemCache::AbortedOutput(std::string_view call_type,
                                                       std::string_view call_id) {
  std::string key = PairKey(call_type, call_id);
  auto it = aborted_.find(key);
  if (it != aborted_.end()) return it->second;
  JsonValue item = call_type == "custom_tool_call"
                       ? CustomToolCallOutputItem(call_id, kAbortedOutput)
                       : FunctionCallOutputItem(call_id, kAbortedOutput);
  return Add(&aborted_, std::move(key), ToJson(item));
}

const CachedPromptItem& PromptItemCache::WithoutImages(const RecordedItem& item) {
  auto it = stripped_.find(item.bytes);
  if (it != stripped_.end()) return it->second;
  JsonValue copy = item.json;
  ReplaceImages(copy.Find("content"));
  ReplaceImages(copy.Find("output"));
  return Add(&stripped_, item.bytes, ToJson(copy));
}

const std::vector<CachedPromptItem>& PromptItemCache::ToolChanges(const RecordedItem& item,
                                                                  ToolChangeForm form) {
  std::string key(1, form == ToolChangeForm::kResponses ? 'r' : 'n');
  key += item.bytes;
  auto it = tool_changes_.find(key);
  if (it != tool_changes_.end()) return it->second;
  std::vector<std::string> bytes;
  auto text = [&](std::string_view field) {
    std::optional<std::string_view> t = item.json.GetString(field);
    if (t.has_value() && !t->empty()) {
      bytes.push_back(ToJson(InputMessage("developer", {std::string(*t)})));
    }
  };
  if (form == ToolChangeForm::kResponses) {
    const JsonValue* added = item.json.Find("added");
    if (added != nullptr && added->is_array() && !added->items().empty()) {
      JsonValue tools = JsonValue::Object();
      tools.Set("type", JsonValue::String("additional_tools"));
      tools.Set("role", JsonValue::String("developer"));
      tools.Set("tools", *added);
      bytes.push_back(ToJson(tools));
    }
    text("removal_notice");
  } else {
    text("notice");
  }
  std::vector<CachedPromptItem> made;
  for (std::string& b : bytes) {
    ++serialized_count_;
    made.push_back(CachedPromptItem{std::move(b), kCacheSerialBit | serialized_count_});
  }
  return tool_changes_.emplace(std::move(key), std::move(made)).first->second;
}

void AppendPromptItem(const std::vector<RecordedItem>& history, std::size_t index,
                      bool supports_images, ToolChangeForm tool_changes, PromptItemCache* cache,
                      std::vector<PromptItem>* view) {
  const RecordedItem& item = history[index];
  if (tool_changes != ToolChangeForm::kRaw && ItemType(item.json) == "tool_changes") {
    for (const CachedPromptItem& made : cache->ToolChanges(item, tool_changes)) {
      view->push_back(PromptItem{&made.bytes, index, false, made.serial});
    }
  } else if (!supports_images && ItemHasImage(item.json)) {
    const CachedPromptItem& stripped = cache->WithoutImages(item);
    view->push_back(PromptItem{&stripped.bytes, index, false, stripped.serial});
  } else {
    view->push_back(PromptItem{&item.bytes, index, false, item.serial});
  }
}

bool ItemHasImage(const JsonValue& item) {
  return PartsHaveImage(item.Find("content")) || PartsHaveImage(item.Find("output"));
}

std::vector<PromptItem> ForPrompt(const std::vector<RecordedItem>& history, bool supports_images,
                                  PromptItemCache* cache, ToolChangeForm tool_changes) {
  const std::size_t n = history.size();
  // answered[i]: call i has a later output (scan backwards collecting output keys).
  std::vector<bool> answered(n, false);
  {
    std::set<std::string> later_outputs;
    for (std::size_t k = n; k-- > 0;) {
      std::string_view type = ItemType(history[k].json);
      std::string_view call_type = CallTypeFor(type);
      if (!call_type.empty()) {
        later_outputs.insert(PairKey(call_type, ItemCallId(history[k].json)));
      } else if (!OutputTypeFor(type).empty()) {
        answered[k] = later_outputs.count(PairKey(type, ItemCallId(history[k].json))) != 0;
      }
    }
  }
  std::vector<PromptItem> view;
  view.reserve(n);
  std::set<std::string> earlier_calls;
  for (std::size_t i = 0; i < n; ++i) {
    const RecordedItem& item = history[i];
    std::string_view type = ItemType(item.json);
    std::string_view call_type = CallTypeFor(type);
    if (!call_type.empty()) {
      if (earlier_calls.count(PairKey(call_type, ItemCallId(item.json))) == 0) continue;  // orphan
    }
    AppendPromptItem(history, i, supports_images, tool_changes, cache, &view);
    if (!OutputTypeFor(type).empty()) {
      std::string_view call_id = ItemCallId(item.json);
      earlier_calls.insert(PairKey(type, call_id));
      if (!answered[i]) {
        const CachedPromptItem& aborted = cache->AbortedOutput(type, call_id);
        view.push_back(PromptItem{&aborted.bytes, i, true, aborted.serial});
      }
    }
  }
  return view;
}

void AppendPromptItemsJson(std::string* out, const std::vector<PromptItem>& items) {
  out->push_back('[');
  bool first = true;
  for (const PromptItem& item : items) {
    if (!first) out->push_back(',');
    first = false;
    out->append(*item.bytes);
  }
  out->push_back(']');
}

}  // namespace agentctx
