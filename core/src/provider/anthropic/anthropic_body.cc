// SPDX-License-Identifier: MIT
// AnthropicBodyBuilder; see anthropic_body.h.
#include "provider/anthropic/anthropic_body.h"

#include <utility>

#include "protocol/json_value.h"
#include "provider/anthropic/context_editing.h"

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

// `,"instructions":<text>` when the configured prompt has more than whitespace (the API counts
// an empty or whitespace-only value as absent, so none is sent).
void AppendCompactionInstructions(std::string* out, std::string_view text) {
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) return;
  out->append(",\"instructions\":");
  AppendJsonString(out, text);
}

}  // namespace

void AppendProviderCompaction(std::string* out, const BodyParams& p) {
  if (p.compaction_trigger) {  // on-demand: this request only compacts
    out->append(",\"compaction\":{\"type\":\"summarize\"");
    AppendCompactionInstructions(out, p.compaction_instructions);
    out->append("}");
    return;  // the API refuses `compaction` together with `context_management`
  }
  if (!p.compact_threshold && p.context_edit.empty()) return;
  // Edits apply in order: clearing old tool results first, then compacting what is left.
  out->append(",\"context_management\":{\"edits\":[");
  out->append(p.context_edit);
  if (p.compact_threshold) {
    if (!p.context_edit.empty()) out->push_back(',');
    out->append("{\"type\":\"compact_20260112\",\"trigger\":{\"type\":\"input_tokens\",\"value\":");
    out->append(std::to_string(*p.compact_threshold));
    out->append("}");
    AppendCompactionInstructions(out, p.compaction_instructions);
    out->append(",\"pause_after_compaction\":true}");
  }
  out->append("]}");
}

std::vector<std::string_view> AnthropicBetas(const BodyParams& p) {
  std::vector<std::string_view> betas;
  if (p.compaction_trigger) {
    betas.push_back("compact-2026-09-04");
  } else if (p.compact_threshold) {
    betas.push_back("compact-2026-01-12");
  }
  if (!p.compaction_trigger && !p.context_edit.empty()) betas.push_back(kContextManagementBeta);
  if (p.tool_changes && p.features(ProviderFeature::kToolChanges)) {
    betas.push_back("mid-conversation-tool-changes-2026-07-01");  // tool_addition, tool_removal
    betas.push_back("inline-tools-2026-09-15");                   // tool_definition
  }
  return betas;
}

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
  owned_.reserve(2 * items.size());  // an item's own bytes, and at most one merge
  std::optional<std::size_t> context_end;
  bool leading_context = true;
  constexpr std::string_view kSystemOpen = "{\"role\":\"system\",\"content\":[";
  for (const ItemSegment& item : items) {
    const AnthropicMessage& message = rendered_.Get(item);
    if (message.dropped) continue;
    std::string_view bytes = message.bytes;
    if (!messages_.empty() && bytes.substr(0, kSystemOpen.size()) == kSystemOpen &&
        messages_.back().substr(0, kSystemOpen.size()) == kSystemOpen) {
      // Consecutive system messages (notices, then tool changes) become one message: a system
      // message follows a user turn, never another system message.
      std::string merged(messages_.back().substr(0, messages_.back().size() - 2));
      merged.push_back(',');
      merged.append(bytes.substr(kSystemOpen.size()));
      owned_.push_back(std::move(merged));
      messages_.back() = owned_.back();
      continue;
    }
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
  const bool prewarm = p.prewarm && p.features(ProviderFeature::kPrewarm);  // writes, no output
  body_ += prewarm ? std::string("0")
                   : std::to_string(p.max_output_tokens.value_or(kDefaultAnthropicMaxTokens));
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
  AppendProviderCompaction(&body_, p);
  if (p.features(ProviderFeature::kCacheDiagnostics)) {
    // null on the first request: opts in without a message to compare with.
    body_ += ",\"diagnostics\":{\"previous_message_id\":";
    if (p.cache_comparison_id.empty()) {
      body_ += "null";
    } else {
      AppendJsonString(&body_, p.cache_comparison_id);
    }
    body_.push_back('}');
  }
  body_ += ",\"stream\":true}";

  FillMessageSegments(system_, tools_array_, messages_, origins_, segments);
  return body_;
}

}  // namespace agentctx
