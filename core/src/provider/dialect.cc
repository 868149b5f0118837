// SPDX-License-Identifier: MIT
// The dialect factory (one line per provider) and the mark-plan preview; see dialect.h.
#include "provider/dialect.h"

#include "provider/anthropic/anthropic_dialect.h"
#include "provider/anthropic/breakpoint_planner.h"
#include "provider/chat/chat_dialect.h"
#include "provider/responses/responses_dialect.h"

namespace agentctx {

std::unique_ptr<Dialect> MakeDialect(Provider provider) {
  switch (provider) {
    case Provider::kChat:
      return std::make_unique<ChatDialect>();
    case Provider::kAnthropic:
      return std::make_unique<AnthropicDialect>();
    case Provider::kResponses:
      break;
  }
  return std::make_unique<ResponsesDialect>();
}

bool Dialect::IsOfficial(const std::optional<std::string>& base_url) const {
  if (!base_url) return true;
  std::string_view url = *base_url;
  while (!url.empty() && url.back() == '/') url.remove_suffix(1);
  return url == official_base_url();
}

ProviderFeatures Dialect::ResolveFeatures(const FeatureRequests& requests, std::string_view model,
                                          bool official, const PerFeature<bool>& refused) const {
  return agentctx::ResolveFeatures(
      requests, [&](ProviderFeature f) { return Availability(f, model); }, official, refused);
}

std::optional<ProviderFeature> Dialect::RefusedFeature(std::optional<std::int64_t> status,
                                                       std::string_view body,
                                                       const ProviderFeatures& on) const {
  return FeatureRefusedBy(status, body, on, [&](ProviderFeature f) { return ParametersOf(f); });
}

JsonValue PreviewCacheMarks(const BodyParams& p, const std::vector<ItemSegment>& items,
                            const DialectOptions& options) {
  const AnthropicCacheOptions cache = AnthropicCacheOptionsFor(p.model, options);
  AnthropicBodyBuilder builder;
  builder.Build(p, items, cache, nullptr);
  JsonValue out = JsonValue::Object();
  out.Set("min_cacheable_tokens",
          JsonValue::Int(static_cast<std::int64_t>(cache.min_cacheable_tokens)));
  out.Set("breakpoints", BreakpointPlanToJson(builder.plan()));
  return out;
}

}  // namespace agentctx
