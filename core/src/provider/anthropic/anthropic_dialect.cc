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
  r.segments.provider = ToWire(provider());
  r.segments.model = p.model;  // no cache_key: a Messages body carries none to change
  r.segments.settings = CacheSettingsOf(p, DiagnosisVocabulary::kAnthropic);
  r.segments.settings_outrank_input = false;  // its diagnostics name messages first
  r.body = builder->Build(p, items, cache, &r.segments);
  r.rule = BreakpointRuleOf(builder->plan(), cache.min_cacheable_tokens, now_ms);
  r.marks = BreakpointPlanToJson(builder->plan());
  std::string betas;
  for (std::string_view beta : AnthropicBetas(p)) {
    if (!betas.empty()) betas.push_back(',');
    betas.append(beta);
  }
  if (!betas.empty()) r.headers.emplace_back("anthropic-beta", std::move(betas));
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

bool HasMidConversationSystemMessages(std::string_view model) {
  // The models the API documents for mid-conversation system messages and tool changes (not
  // Claude Sonnet 5, whose slug is a prefix of none of these).
  constexpr std::string_view kFamilies[] = {
      "claude-opus-4-8",  "claude-opus-5",  "claude-sonnet-5-5",
      "claude-haiku-5-5", "claude-fable-5", "claude-mythos-5",
  };
  for (std::string_view family : kFamilies) {
    if (model.substr(0, family.size()) == family) return true;
  }
  return false;
}

FeatureAvailability AnthropicDialect::Availability(ProviderFeature feature,
                                                   std::string_view model) const {
  // tool_addition / tool_removal in a mid-conversation system message: at the official API on
  // the models that have them; elsewhere when the config asks for it.
  if (feature == ProviderFeature::kToolChanges) {
    return HasMidConversationSystemMessages(model) ? FeatureAvailability::kOfficialOnly
                                                   : FeatureAvailability::kOnRequest;
  }
  // Harness notices as mid-conversation system messages: only when the config asks for it.
  if (feature == ProviderFeature::kSystemMessages) return FeatureAvailability::kOnRequest;
  // Context editing: sent only when the config has an edit, to any endpoint (the user asked for
  // it by name); a refusal turns it off for the session.
  if (feature == ProviderFeature::kContextEditing) return FeatureAvailability::kEveryEndpoint;
  // The provider's own compaction (on demand, or at a threshold; beta parameters).
  if (feature == ProviderFeature::kInbandCompaction) return FeatureAvailability::kOfficialOnly;
  // Prewarming: a `max_tokens: 0` request writes the cache and generates nothing.
  if (feature == ProviderFeature::kPrewarm) return FeatureAvailability::kOfficialOnly;
  // Cache diagnostics are part of the Messages API (the typings' Message.diagnostics).
  return feature == ProviderFeature::kCacheDiagnostics ? FeatureAvailability::kOfficialOnly
                                                       : FeatureAvailability::kNone;
}

std::vector<std::string_view> AnthropicDialect::ParametersOf(ProviderFeature feature) const {
  if (feature == ProviderFeature::kCacheDiagnostics) return {"diagnostics", "previous_message_id"};
  if (feature == ProviderFeature::kToolChanges) {
    return {"tool_addition", "tool_removal", "tool_definition",
            "mid-conversation-tool-changes-2026-07-01", "inline-tools-2026-09-15"};
  }
  if (feature == ProviderFeature::kInbandCompaction) return {"compaction", "compact_20260112"};
  if (feature == ProviderFeature::kPrewarm) return {"max_tokens"};
  if (feature == ProviderFeature::kContextEditing) {
    return {"clear_tool_uses_20250919", "context-management-2025-06-27", "context_management"};
  }
  return {};
}

ModelFailure AnthropicDialect::MapErrorDelivery(std::optional<std::int64_t> status,
                                                std::string_view body,
                                                std::string_view message) const {
  return MapAnthropicErrorDelivery(status, body, message);
}

}  // namespace agentctx
