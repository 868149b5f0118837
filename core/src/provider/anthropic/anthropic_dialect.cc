// SPDX-License-Identifier: MIT
// AnthropicDialect; see anthropic_dialect.h.
#include "provider/anthropic/anthropic_dialect.h"

#include "provider/anthropic/anthropic_stream.h"
#include "provider/anthropic/breakpoint_planner.h"

namespace agentctx {

AnthropicCacheOptions AnthropicCacheOptionsFor(std::string_view model,
                                               const DialectOptions& options) {
  AnthropicCacheOptions cache;
  cache.min_cacheable_tokens = options.min_cacheable_tokens ? *options.min_cacheable_tokens
                                                            : DefaultMinCacheableTokens(model);
  cache.stable_ttl = options.stable_ttl;
  return cache;
}

RenderedRequest AnthropicDialect::Render(AnthropicBodyBuilder* builder, const BodyParams& p,
                                         const std::vector<ItemSegment>& items,
                                         const DialectOptions& options, std::int64_t now_ms) const {
  const AnthropicCacheOptions cache = AnthropicCacheOptionsFor(p.model, options);
  RenderedRequest r;
  r.endpoint = endpoint();
  r.segments.model = p.model;  // no cache_key: a Messages body carries none to change
  r.body = builder->Build(p, items, cache, &r.segments);
  r.rule = BreakpointRuleOf(builder->plan(), cache.min_cacheable_tokens, now_ms);
  r.marks = BreakpointPlanToJson(builder->plan());
  return r;
}

RenderedRequest AnthropicDialect::RenderTurn(const BodyParams& p, const std::vector<PromptItem>&,
                                             std::size_t, const std::vector<ItemSegment>& items,
                                             const DialectOptions& options, std::int64_t now_ms) {
  return Render(&turn_, p, items, options, now_ms);
}

RenderedRequest AnthropicDialect::RenderOnce(const BodyParams& p,
                                             const std::vector<ItemSegment>& items,
                                             const DialectOptions& options, std::int64_t now_ms,
                                             std::string* owned) {
  RenderedRequest r = Render(&once_, p, items, options, now_ms);
  owned->assign(r.body.data(), r.body.size());
  r.body = *owned;
  return r;
}

std::unique_ptr<StreamAdapter> AnthropicDialect::NewStream() const {
  return std::make_unique<AnthropicStreamAdapter>();
}

ModelFailure AnthropicDialect::MapErrorDelivery(std::optional<std::int64_t> status,
                                                std::string_view body,
                                                std::string_view message) const {
  return MapAnthropicErrorDelivery(status, body, message);
}

}  // namespace agentctx
