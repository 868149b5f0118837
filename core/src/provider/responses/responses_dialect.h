// SPDX-License-Identifier: MIT
// The OpenAI Responses dialect: `responses` bodies extended in place (body_builder.h), the
// explainer's segments from the same pieces (instructions as their JSON string, escaped again
// only when they change), `responses/compact` for remote compaction; the stream already speaks
// the session's event language and errors follow the Responses error table (model_errors.h).
#pragma once

#include <string>

#include "provider/dialect.h"
#include "provider/responses/body_builder.h"

namespace agentctx {

class ResponsesDialect final : public Dialect {
 public:
  Provider provider() const override { return Provider::kResponses; }
  std::string_view endpoint() const override { return "responses"; }
  std::string_view official_base_url() const override { return "https://api.openai.com/v1"; }
  RenderedRequest RenderTurn(const BodyParams& p, const std::vector<PromptItem>& prompt,
                             std::size_t stable, const std::vector<ItemSegment>& items,
                             const DialectOptions& options, std::int64_t now_ms) override;
  RenderedRequest RenderOnce(const BodyParams& p, const std::vector<ItemSegment>& items,
                             const DialectOptions& options, std::int64_t now_ms,
                             std::string* owned) override;
  std::optional<RenderedRequest> RenderRemoteCompaction(const BodyParams& p,
                                                        const std::vector<ItemSegment>& items,
                                                        std::string* owned) override;
  FeatureAvailability Availability(ProviderFeature feature, std::string_view model) const override;
  std::vector<std::string_view> ParametersOf(ProviderFeature feature) const override;
  ToolChangeForm tool_change_form(const ProviderFeatures& on) const override {
    return on(ProviderFeature::kToolChanges) ? ToolChangeForm::kResponses : ToolChangeForm::kNotice;
  }

 private:
  RenderedRequest Once(const BodyParams& p, const std::vector<ItemSegment>& items, bool remote,
                       std::int64_t now_ms, std::string* owned);
  // Feature cache_breakpoints: plans the marks of a body (openai_cache.h) into `*marks`, points
  // `p` at them and sets the cache report's plan.
  static void PlanMarks(BodyParams* p, std::string_view instructions_json,
                        const std::vector<ItemSegment>& items, std::vector<std::size_t>* marks,
                        RenderedRequest* r);

  ResponsesBodyBuilder builder_;
  std::string instructions_source_;  // the instructions instructions_json_ escapes
  std::string instructions_json_;    // their JSON string (the explainer's instructions segment)
  std::string once_instructions_json_;
  std::vector<std::string_view> once_bytes_;
  std::vector<std::size_t> turn_marks_;  // the marked items of the last turn / one-off body
  std::vector<std::size_t> once_marks_;
};

/// True for the models that take `prompt_cache_options` (gpt-5.6 and later).
bool HasPromptCacheOptions(std::string_view model);

}  // namespace agentctx
