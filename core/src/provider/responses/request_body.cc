// SPDX-License-Identifier: MIT
#include "provider/responses/request_body.h"

#include "protocol/json_value.h"
#include "provider/responses/openai_cache.h"

namespace agentctx {
namespace {

void AppendItems(std::string* out, const std::vector<std::string_view>* items) {
  out->push_back('[');
  if (items != nullptr) {
    bool first = true;
    for (std::string_view item : *items) {
      if (!first) out->push_back(',');
      first = false;
      out->append(item);
    }
  }
  out->push_back(']');
}

void AppendReasoning(std::string* out, const BodyParams& p) {
  out->append(",\"reasoning\":{");
  bool first = true;
  if (p.reasoning_effort) {
    out->append("\"effort\":");
    AppendJsonString(out, *p.reasoning_effort);
    first = false;
  }
  if (p.reasoning_summary) {
    if (!first) out->push_back(',');
    out->append("\"summary\":");
    AppendJsonString(out, *p.reasoning_summary);
  }
  out->push_back('}');
}

void AppendTail(std::string* out, const BodyParams& p) {
  AppendServiceTierAndCacheKey(out, p);
  if (p.verbosity) {
    out->append(",\"text\":{\"verbosity\":");
    AppendJsonString(out, *p.verbosity);
    out->push_back('}');
  }
}

std::size_t EstimateSize(const BodyParams& p) {
  std::size_t n = 512 + p.instructions.size() + p.tools_bytes.size();
  if (p.items != nullptr) {
    for (auto item : *p.items) n += item.size() + 1;
  }
  return n;
}

}  // namespace

void AppendServiceTierAndCacheKey(std::string* out, const BodyParams& p) {
  if (p.service_tier) {
    out->append(",\"service_tier\":");
    AppendJsonString(out, *p.service_tier);
  }
  if (!p.features(ProviderFeature::kPromptCacheKey)) return;  // refused by the endpoint
  out->append(",\"prompt_cache_key\":");
  AppendJsonString(out, p.prompt_cache_key);
}

void AppendResponsesHead(std::string* out, const BodyParams& p) {
  out->append("{\"model\":");
  AppendJsonString(out, p.model);
  if (!p.instructions.empty()) {
    out->append(",\"instructions\":");
    AppendJsonString(out, p.instructions);
  }
  out->append(",\"input\":[");
}

void AppendResponsesTail(std::string* out, const BodyParams& p) {
  out->append("],\"tools\":");
  out->append(p.tools_bytes.empty() ? std::string_view("[]") : p.tools_bytes);
  const std::size_t tail_start = out->size();  // past any tool schema's own keys
  out->append(p.compaction ? ",\"tool_choice\":\"none\",\"parallel_tool_calls\":false"
                           : ",\"tool_choice\":\"auto\",\"parallel_tool_calls\":true");
  if (p.supports_reasoning) AppendReasoning(out, p);
  out->append(",\"store\":false,\"stream\":true");
  if (p.supports_reasoning) out->append(",\"include\":[\"reasoning.encrypted_content\"]");
  if (p.compact_threshold) {  // threshold compaction by the server
    out->append(",\"context_management\":[{\"type\":\"compaction\",\"compact_threshold\":");
    out->append(std::to_string(*p.compact_threshold));
    out->append("}]");
  }
  AppendTail(out, p);
  if (p.features(ProviderFeature::kCacheBreakpoints)) AppendPromptCacheOptions(out, p);
  // Diagnostics compare with the previous response; the first request has none.
  if (p.features(ProviderFeature::kCacheDiagnostics) && !p.cache_comparison_id.empty()) {
    std::string member = "\"comparison_response_id\":";
    AppendJsonString(&member, p.cache_comparison_id);
    MergePromptCacheOption(out, tail_start, member);
  }
  if (p.prewarm && p.features(ProviderFeature::kPrewarm)) {
    MergePromptCacheOption(out, tail_start, "\"prewarm\":true");
  }
  out->push_back('}');
}

void MergePromptCacheOption(std::string* body, std::size_t from, std::string_view member) {
  constexpr std::string_view kKey = "\"prompt_cache_options\":{";
  const std::size_t at = body->find(kKey, from);
  if (at == std::string::npos) {
    body->append(",").append(kKey).append(member).push_back('}');
    return;
  }
  const std::size_t open = at + kKey.size();
  const bool empty = open < body->size() && (*body)[open] == '}';
  body->insert(open, empty ? std::string(member) : std::string(member) + ",");
}

std::string BuildResponsesBody(const BodyParams& p) {
  std::string out;
  out.reserve(EstimateSize(p));
  AppendResponsesHead(&out, p);
  bool first = true;
  if (p.items != nullptr) {
    const std::vector<std::size_t> none;
    const std::vector<std::size_t>& marks = p.cache_marks != nullptr ? *p.cache_marks : none;
    auto mark = marks.begin();
    for (std::size_t i = 0; i < p.items->size(); ++i) {
      if (!first) out.push_back(',');
      first = false;
      if (mark != marks.end() && *mark == i) {
        AppendWithBreakpoint(&out, (*p.items)[i]);
        ++mark;
      } else {
        out.append((*p.items)[i]);
      }
    }
  }
  if (p.compaction_trigger) {  // in-band compaction: the trigger is the last input item
    if (!first) out.push_back(',');
    out.append(kCompactionTriggerItem);
  }
  AppendResponsesTail(&out, p);
  return out;
}

std::string BuildCompactBody(const BodyParams& p) {
  std::string out;
  out.reserve(EstimateSize(p));
  out.append("{\"model\":");
  AppendJsonString(&out, p.model);
  out.append(",\"input\":");
  AppendItems(&out, p.items);
  if (!p.instructions.empty()) {
    out.append(",\"instructions\":");
    AppendJsonString(&out, p.instructions);
  }
  out.append(",\"tools\":");
  out.append(p.tools_bytes.empty() ? std::string_view("[]") : p.tools_bytes);
  out.append(",\"parallel_tool_calls\":true");
  if (p.supports_reasoning) AppendReasoning(&out, p);
  AppendTail(&out, p);
  out.push_back('}');
  return out;
}

}  // namespace agentctx
