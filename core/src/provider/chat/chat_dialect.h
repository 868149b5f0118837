// SPDX-License-Identifier: MIT
// The Chat Completions dialect (OpenAI, vLLM, llama.cpp): `chat/completions` bodies rendered by
// ChatBodyBuilder (a turn builder kept across requests, a second one for one-off requests), the
// chunk stream read by ChatStreamAdapter, errors by the Responses error table, OpenAI pricing.
// Remote compaction has no Chat form.
#pragma once

#include "provider/chat/chat_body.h"
#include "provider/dialect.h"

namespace agentctx {

class ChatDialect final : public Dialect {
 public:
  Provider provider() const override { return Provider::kChat; }
  std::string_view endpoint() const override { return "chat/completions"; }
  std::string_view official_base_url() const override { return "https://api.openai.com/v1"; }
  RenderedRequest RenderTurn(const BodyParams& p, const std::vector<PromptItem>& prompt,
                             std::size_t stable, const std::vector<ItemSegment>& items,
                             const DialectOptions& options, std::int64_t now_ms) override;
  RenderedRequest RenderOnce(const BodyParams& p, const std::vector<ItemSegment>& items,
                             const DialectOptions& options, std::int64_t now_ms,
                             std::string* owned) override;
  std::unique_ptr<StreamAdapter> NewStream() const override;
  FeatureAvailability Availability(ProviderFeature feature, std::string_view model) const override;
  std::vector<std::string_view> ParametersOf(ProviderFeature feature) const override;

 private:
  RenderedRequest Render(ChatBodyBuilder* builder, const BodyParams& p,
                         const std::vector<ItemSegment>& items) const;

  ChatBodyBuilder turn_;
  ChatBodyBuilder once_;
};

}  // namespace agentctx
