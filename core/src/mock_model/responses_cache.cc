// SPDX-License-Identifier: MIT
// ResponsesBreakpointCache; see responses_cache.h.
#include "mock_model/responses_cache.h"

#include <algorithm>
#include <vector>

#include "protocol/json_codec.h"
#include "provider/responses/openai_cache.h"

namespace agentctx {
namespace {

constexpr std::string_view kMark = "prompt_cache_breakpoint";

// The blocks of an item that may carry a mark (null when the item takes none).
const JsonValue* MarkableBlocks(const JsonValue& item) {
  if (!item.is_object()) return nullptr;
  const std::string_view type = item.GetString("type").value_or("");
  const std::string_view role = item.GetString("role").value_or("");
  const JsonValue* blocks = nullptr;
  if (type == "message" && (role == "user" || role == "developer")) {
    blocks = item.Find("content");
  } else if (type == "function_call_output" || type == "custom_tool_call_output") {
    blocks = item.Find("output");
  }
  return blocks != nullptr && blocks->is_array() ? blocks : nullptr;
}

bool HasExplicitMark(const JsonValue& item) {
  const JsonValue* blocks = MarkableBlocks(item);
  if (blocks == nullptr) return false;
  for (const JsonValue& b : blocks->items()) {
    const std::string_view type = b.is_object() ? b.GetString("type").value_or("") : "";
    const JsonValue* mark = b.is_object() ? b.Find(kMark) : nullptr;
    if (mark != nullptr && mark->is_object() &&
        (type == "input_text" || type == "input_image" || type == "input_file")) {
      return true;
    }
  }
  return false;
}

std::string OptionString(const JsonValue& body, std::string_view key) {
  const JsonValue* options = body.Find("prompt_cache_options");
  return options != nullptr && options->is_object()
             ? std::string(options->GetString(key).value_or(""))
             : std::string();
}

std::string Setting(const JsonValue& body, std::string_view object, std::string_view key) {
  const JsonValue* holder = object.empty() ? &body : body.Find(object);
  const JsonValue* v = holder != nullptr && holder->is_object() ? holder->Find(key) : nullptr;
  return v != nullptr ? ToJson(*v) : std::string();
}

}  // namespace

std::string UnmarkedItemBytes(const JsonValue& item, std::string_view bytes) {
  if (!item.is_object() || bytes.find(kMark) == std::string_view::npos) return std::string(bytes);
  JsonValue copy = item;
  for (std::string_view key : {"content", "output"}) {
    JsonValue* blocks = copy.Find(key);
    if (blocks == nullptr || !blocks->is_array()) continue;
    for (JsonValue& b : blocks->items()) {
      if (b.is_object()) b.Remove(kMark);
    }
  }
  return ToJson(copy);
}

ResponsesCacheUsage ResponsesBreakpointCache::Lookup(const JsonValue& body,
                                                     const PromptBytes& prompt,
                                                     std::int64_t now_ms) {
  std::uint64_t id = 0;
  for (const std::string& part :
       {std::string(body.GetString("model").value_or("")),
        std::string(body.GetString("prompt_cache_key").value_or("")),
        Setting(body, "text", "format"), Setting(body, "reasoning", "effort"),
        Setting(body, "text", "verbosity"), Setting(body, "", "service_tier")}) {
    id = ChainHash(id, part);
  }
  id = ChainHash(ChainHash(id, prompt.instructions), prompt.tools);
  std::uint64_t bytes = prompt.instructions.size() + prompt.tools.size();

  const bool explicit_mode = OptionString(body, "mode") == "explicit";
  const JsonValue* input = body.Find("input");
  BreakpointCacheRequest request;
  request.ttl_ms = OptionString(body, "ttl") == "12h" ? kOpenAiTtl12hMs : kOpenAiTtl30mMs;
  std::vector<std::size_t> explicit_marks;
  std::vector<std::string> unmarked(prompt.items.size());
  for (std::size_t i = 0; i < prompt.items.size(); ++i) {
    const JsonValue* item = input != nullptr && input->is_array() && i < input->items().size()
                                ? &input->items()[i]
                                : nullptr;
    unmarked[i] = item != nullptr ? UnmarkedItemBytes(*item, prompt.items[i]) : prompt.items[i];
    if (item != nullptr && HasExplicitMark(*item)) explicit_marks.push_back(i);
    bytes += unmarked[i].size();
    request.prefix_ids.push_back(id = ChainHash(id, unmarked[i]));
    request.prefix_tokens.push_back(TokensForBytes(bytes));
  }
  std::size_t implicit = unmarked.size();  // none
  for (std::size_t i = unmarked.size(); !explicit_mode && i-- > 0;) {
    if (IsImplicitBreakpointItem(unmarked[i])) {
      implicit = i;
      break;
    }
  }
  const std::size_t kept = explicit_mode ? 4 : 3;
  if (explicit_marks.size() > kept) {
    explicit_marks.erase(explicit_marks.begin(), explicit_marks.end() - kept);
  }
  request.breakpoints = std::move(explicit_marks);
  if (implicit < prompt.items.size()) request.breakpoints.push_back(implicit);
  std::sort(request.breakpoints.begin(), request.breakpoints.end());
  request.breakpoints.erase(std::unique(request.breakpoints.begin(), request.breakpoints.end()),
                            request.breakpoints.end());

  const BreakpointCacheResult result = cache_.Run(request, now_ms);
  ResponsesCacheUsage usage;
  usage.cached_tokens = result.read;
  usage.cache_write_tokens = result.written;
  if (request.ttl_ms == kOpenAiTtl12hMs) usage.ttl_12h_tokens = result.written;
  return usage;
}

}  // namespace agentctx
