// SPDX-License-Identifier: MIT
// The Anthropic Messages dialect: `messages` bodies rendered by AnthropicBodyBuilder with their
// `cache_control` marks (breakpoint_planner.h; a turn builder kept across requests, a second one
// for one-off requests), the explainer's breakpoint rule from the placed marks, the event stream
// read by AnthropicStreamAdapter, errors by MapAnthropicErrorDelivery, Anthropic cache pricing
// (reads 0.1x, writes 1.25x / 2x). Remote compaction has no Messages form.
#pragma once

#include "provider/anthropic/anthropic_body.h"
#include "provider/dialect.h"

namespace agentctx {

class AnthropicDialect final : public Dialect {
 public:
  Provider provider() const override { return Provider::kAnthropic; }
  std::string_view endpoint() const override { return "messages"; }
  std::string_view official_base_url() const override { return "https://api.anthropic.com/v1"; }
  RenderedRequest RenderTurn(const BodyParams& p, const std::vector<PromptItem>& prompt,
                             std::size_t stable, const std::vector<ItemSegment>& items,
                             const DialectOptions& options, std::int64_t now_ms) override;
  RenderedRequest RenderOnce(const BodyParams& p, const std::vector<ItemSegment>& items,
                             const DialectOptions& options, std::int64_t now_ms,
                             std::string* owned) override;
  std::unique_ptr<StreamAdapter> NewStream() const override;
  ModelFailure MapErrorDelivery(std::optional<std::int64_t> status, std::string_view body,
                                std::string_view message) const override;
  CachePricing pricing() const override { return CachePricing::kAnthropic; }
  DiagnosisVocabulary diagnosis_vocabulary() const override {
    return DiagnosisVocabulary::kAnthropic;
  }
  FeatureAvailability Availability(ProviderFeature feature, std::string_view model) const override;
  std::vector<std::string_view> ParametersOf(ProviderFeature feature) const override;
  ToolChangeForm tool_change_form(const ProviderFeatures& on) const override {
    return on(ProviderFeature::kToolChanges) ? ToolChangeForm::kRaw : ToolChangeForm::kNotice;
  }

 private:
  RenderedRequest Render(AnthropicBodyBuilder* builder, const BodyParams& p,
                         const std::vector<ItemSegment>& items, const DialectOptions& options,
                         std::int64_t now_ms) const;

  AnthropicBodyBuilder turn_;
  AnthropicBodyBuilder once_;
};

/// True for the models with mid-conversation system messages and tool changes (slug prefixes).
bool HasMidConversationSystemMessages(std::string_view model);

/// The builder's cache settings for `model` under `options` (the model's minimum unless set).
AnthropicCacheOptions AnthropicCacheOptionsFor(std::string_view model,
                                               const DialectOptions& options);

}  // namespace agentctx
