// SPDX-License-Identifier: MIT
// ChatDialect; see chat_dialect.h.
#include "provider/chat/chat_dialect.h"

#include "provider/chat/chat_stream.h"

namespace agentctx {

RenderedRequest ChatDialect::Render(ChatBodyBuilder* builder, const BodyParams& p,
                                    const std::vector<ItemSegment>& items) const {
  RenderedRequest r;
  r.endpoint = endpoint();
  r.segments.provider = ToWire(provider());
  r.segments.model = p.model;  // no cache_key: a Chat body carries none to change
  r.segments.settings = CacheSettingsOf(p, DiagnosisVocabulary::kOpenAi);
  r.body = builder->Build(p, items, &r.segments);
  return r;
}

RenderedRequest ChatDialect::RenderTurn(const BodyParams& p, const std::vector<PromptItem>&,
                                        std::size_t, const std::vector<ItemSegment>& items,
                                        const DialectOptions&, std::int64_t) {
  return Render(&turn_, p, items);
}

RenderedRequest ChatDialect::RenderOnce(const BodyParams& p, const std::vector<ItemSegment>& items,
                                        const DialectOptions&, std::int64_t, std::string* owned) {
  RenderedRequest r = Render(&once_, p, items);
  owned->assign(r.body.data(), r.body.size());
  r.body = *owned;
  return r;
}

FeatureAvailability ChatDialect::Availability(ProviderFeature feature, std::string_view) const {
  // Chat bodies have always carried prompt_cache_key; Chat has none of the other features.
  return feature == ProviderFeature::kPromptCacheKey ? FeatureAvailability::kEveryEndpoint
                                                     : FeatureAvailability::kNone;
}

std::vector<std::string_view> ChatDialect::ParametersOf(ProviderFeature feature) const {
  if (feature == ProviderFeature::kPromptCacheKey) return {"prompt_cache_key"};
  return {};
}

std::unique_ptr<StreamAdapter> ChatDialect::NewStream() const {
  return std::make_unique<ChatStreamAdapter>();
}

}  // namespace agentctx
