// SPDX-License-Identifier: MIT
// AnthropicBodyBuilder; see anthropic_body.h.
#include "provider/anthropic/anthropic_body.h"

#include <utility>

#include "protocol/json_value.h"

namespace agentctx {
namespace {

// `bytes` with `"cache_control":<mark>` added to the object that closes `tail` bytes before
// its end (1 for a tool or block, 3 for a message's last block).
void AppendMarked(std::string* out, std::string_view bytes, std::size_t tail, CacheTtl ttl) {
  out->append(bytes.substr(0, bytes.size() - tail));
  out->append(",\"cache_control\":");
  out->append(CacheControlJson(ttl));
  out->append(bytes.substr(bytes.size() - tail));
}

}  // namespace

bool IsContextOrigin(std::string_view origin) {
  return !origin.empty() && origin != "user" && origin != "model" && origin != "tool" &&
         origin != "compaction";
}

std::string_view AnthropicBodyBuilder::Build(const BodyParams& p,
                                             const std::vector<ItemSegment>& items,
                                             const AnthropicCacheOptions& cache,
                                             PromptSegments* segments) {
  bool tools_changed = false;
  const std::vector<std::string>& tools = tools_.Get(p.tools_bytes, &tools_changed);
  if (tools_changed) {
    tools_array_.clear();
    if (!tools.empty()) {
      tools_array_ = "[";
      for (std::size_t i = 0; i < tools.size(); ++i) {
        if (i != 0) tools_array_.push_back(',');
        tools_array_ += tools[i];
      }
      tools_array_ += "]";
    }
  }
  system_.clear();
  std::string block;
  if (!p.instructions.empty()) {
    block = "{\"type\":\"text\",\"text\":";
    AppendJsonString(&block, p.instructions);
    block.push_back('}');
    system_ = "[" + block + "]";
  }

  messages_.clear();
  origins_.clear();
  owned_.clear();
  owned_.reserve(items.size());
  std::optional<std::size_t> context_end;
  bool leading_context = true;
  for (const ItemSegment& item : items) {
    const AnthropicMessage& message = rendered_.Get(item);
    if (message.dropped) continue;
    if (leading_context && IsContextOrigin(item.origin)) {
      context_end = messages_.size();
    } else {
      leading_context = false;
    }
    if (item.serial == 0) {
      owned_.push_back(message.bytes);
      messages_.push_back(owned_.back());
    } else {
      messages_.push_back(message.bytes);
    }
    origins_.push_back(item.origin);
  }
  rendered_.EndBuild();

  BreakpointInputs in;
  in.tools_bytes = tools_array_.size();
  in.system_bytes = system_.size();
  for (auto m : messages_) in.message_bytes.push_back(m.size());
  in.context_end = context_end;
  in.min_cacheable_tokens = cache.min_cacheable_tokens;
  in.stable_ttl = cache.stable_ttl;
  plan_ = PlanBreakpoints(in);

  std::size_t size = 512 + p.model.size() + system_.size() + tools_array_.size();
  for (auto m : messages_) size += m.size() + 1;
  body_.clear();
  body_.reserve(size);
  body_ += "{\"model\":";
  AppendJsonString(&body_, p.model);
  body_ += ",\"max_tokens\":";
  body_ += std::to_string(p.max_output_tokens.value_or(kDefaultAnthropicMaxTokens));
  if (!tools.empty()) {
    body_ += ",\"tools\":[";
    const PlannedBreakpoint* mark = plan_.Find(BreakpointAt::kTools);
    for (std::size_t i = 0; i < tools.size(); ++i) {
      if (i != 0) body_.push_back(',');
      if (mark != nullptr && i + 1 == tools.size()) {
        AppendMarked(&body_, tools[i], 1, mark->ttl);
      } else {
        body_ += tools[i];
      }
    }
    body_.push_back(']');
  }
  if (!system_.empty()) {
    body_ += ",\"system\":[";
    if (const PlannedBreakpoint* mark = plan_.Find(BreakpointAt::kSystem)) {
      AppendMarked(&body_, block, 1, mark->ttl);
    } else {
      body_ += block;
    }
    body_.push_back(']');
  }
  body_ += ",\"messages\":[";
  const PlannedBreakpoint* context_mark = plan_.Find(BreakpointAt::kContext);
  const PlannedBreakpoint* newest_mark = plan_.Find(BreakpointAt::kNewest);
  for (std::size_t i = 0; i < messages_.size(); ++i) {
    if (i != 0) body_.push_back(',');
    const PlannedBreakpoint* mark = nullptr;
    if (context_mark != nullptr && context_mark->message_index == i) mark = context_mark;
    if (newest_mark != nullptr && newest_mark->message_index == i) mark = newest_mark;
    if (mark != nullptr) {
      AppendMarked(&body_, messages_[i], 3, mark->ttl);
    } else {
      body_ += messages_[i];
    }
  }
  body_.push_back(']');
  if (p.compaction && !tools.empty()) body_ += ",\"tool_choice\":{\"type\":\"none\"}";
  body_ += ",\"stream\":true}";

  FillMessageSegments(system_, tools_array_, messages_, origins_, segments);
  return body_;
}

}  // namespace agentctx
