// SPDX-License-Identifier: MIT
#include "provider/responses/request_body.h"

#include "protocol/json_value.h"

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
  out->append(p.compaction ? ",\"tool_choice\":\"none\",\"parallel_tool_calls\":false"
                           : ",\"tool_choice\":\"auto\",\"parallel_tool_calls\":true");
  if (p.supports_reasoning) AppendReasoning(out, p);
  out->append(",\"store\":false,\"stream\":true");
  if (p.supports_reasoning) out->append(",\"include\":[\"reasoning.encrypted_content\"]");
  AppendTail(out, p);
  out->push_back('}');
}

std::string BuildResponsesBody(const BodyParams& p) {
  std::string out;
  out.reserve(EstimateSize(p));
  AppendResponsesHead(&out, p);
  if (p.items != nullptr) {
    bool first = true;
    for (std::string_view item : *p.items) {
      if (!first) out.push_back(',');
      first = false;
      out.append(item);
    }
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
