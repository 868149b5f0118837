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

 private:
  RenderedRequest Once(const BodyParams& p, const std::vector<ItemSegment>& items, bool remote,
                       std::string* owned);

  ResponsesBodyBuilder builder_;
  std::string instructions_source_;  // the instructions instructions_json_ escapes
  std::string instructions_json_;    // their JSON string (the explainer's instructions segment)
  std::string once_instructions_json_;
  std::vector<std::string_view> once_bytes_;
};

}  // namespace agentctx
