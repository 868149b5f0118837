// SPDX-License-Identifier: MIT
// ResponsesDialect; see responses_dialect.h.
#include "provider/responses/responses_dialect.h"

#include "protocol/json_value.h"
#include "provider/responses/request_body.h"

namespace agentctx {
namespace {

PromptSegments SegmentsOf(const BodyParams& p, std::string_view instructions_json,
                          const std::vector<ItemSegment>& items) {
  PromptSegments segments;
  segments.model = p.model;
  // A body without the key has none to change.
  segments.cache_key = p.features(ProviderFeature::kPromptCacheKey) ? p.prompt_cache_key : "";
  segments.instructions_bytes = instructions_json;
  segments.tools_bytes = p.tools_bytes;
  segments.items = items;
  return segments;
}

}  // namespace

RenderedRequest ResponsesDialect::RenderTurn(const BodyParams& p,
                                             const std::vector<PromptItem>& prompt,
                                             std::size_t stable,
                                             const std::vector<ItemSegment>& items,
                                             const DialectOptions&, std::int64_t) {
  RenderedRequest r;
  r.endpoint = endpoint();
  r.body = builder_.Build(p, prompt, stable);
  // J(instructions), escaped again only when the instructions change (often kilobytes).
  if (p.instructions != instructions_source_) {
    instructions_source_.assign(p.instructions.data(), p.instructions.size());
    instructions_json_ = p.instructions.empty() ? std::string() : JsonString(p.instructions);
  }
  r.segments = SegmentsOf(p, instructions_json_, items);
  return r;
}

RenderedRequest ResponsesDialect::Once(const BodyParams& p, const std::vector<ItemSegment>& items,
                                       bool remote, std::string* owned) {
  once_bytes_.clear();
  once_bytes_.reserve(items.size());
  for (const ItemSegment& item : items) once_bytes_.push_back(item.bytes);
  BodyParams with_items = p;
  with_items.items = &once_bytes_;
  *owned = remote ? BuildCompactBody(with_items) : BuildResponsesBody(with_items);
  once_instructions_json_ = p.instructions.empty() ? std::string() : JsonString(p.instructions);
  RenderedRequest r;
  r.endpoint = remote ? std::string_view("responses/compact") : endpoint();
  r.body = *owned;
  r.segments = SegmentsOf(p, once_instructions_json_, items);
  return r;
}

RenderedRequest ResponsesDialect::RenderOnce(const BodyParams& p,
                                             const std::vector<ItemSegment>& items,
                                             const DialectOptions&, std::int64_t,
                                             std::string* owned) {
  return Once(p, items, /*remote=*/false, owned);
}

FeatureAvailability ResponsesDialect::Availability(ProviderFeature feature,
                                                   std::string_view) const {
  // prompt_cache_key has been in every Responses body from the start; the features of the 2026
  // API are offered once their rendering exists (docs/providers.md).
  return feature == ProviderFeature::kPromptCacheKey ? FeatureAvailability::kEveryEndpoint
                                                     : FeatureAvailability::kNone;
}

std::vector<std::string_view> ResponsesDialect::ParametersOf(ProviderFeature feature) const {
  switch (feature) {
    case ProviderFeature::kPromptCacheKey:
      return {"prompt_cache_key"};
    case ProviderFeature::kCacheBreakpoints:
      return {"prompt_cache_options", "prompt_cache_breakpoint"};
    case ProviderFeature::kCacheDiagnostics:
      return {"comparison_response_id"};
    case ProviderFeature::kToolChanges:
      return {"additional_tools"};
    case ProviderFeature::kInbandCompaction:
      return {"context_management", "compaction_trigger"};
    case ProviderFeature::kPrewarm:
      return {"prewarm"};
    case ProviderFeature::kSystemMessages:
      break;
  }
  return {};
}

std::optional<RenderedRequest> ResponsesDialect::RenderRemoteCompaction(
    const BodyParams& p, const std::vector<ItemSegment>& items, std::string* owned) {
  return Once(p, items, /*remote=*/true, owned);
}

}  // namespace agentctx
