// SPDX-License-Identifier: MIT
// Provider and layout names; see provider.h.
#include "prompt/provider.h"

namespace agentctx {

std::string_view ProviderName(Provider provider) {
  switch (provider) {
    case Provider::kChat:
      return "chat";
    case Provider::kAnthropic:
      return "anthropic";
    case Provider::kResponses:
      break;
  }
  return "responses";
}

std::optional<Provider> ParseProvider(std::string_view name) {
  if (name == "responses") return Provider::kResponses;
  if (name == "chat") return Provider::kChat;
  if (name == "anthropic") return Provider::kAnthropic;
  return std::nullopt;
}

std::string_view ProviderEndpoint(Provider provider) {
  switch (provider) {
    case Provider::kChat:
      return "chat/completions";
    case Provider::kAnthropic:
      return "messages";
    case Provider::kResponses:
      break;
  }
  return "responses";
}

std::string_view PromptLayoutName(PromptLayout layout) {
  return layout == PromptLayout::kPerRole ? "per_role" : "per_fragment";
}

std::optional<PromptLayout> ParsePromptLayout(std::string_view name) {
  if (name == "per_fragment") return PromptLayout::kPerFragment;
  if (name == "per_role") return PromptLayout::kPerRole;
  return std::nullopt;
}

std::string_view CacheTtlName(CacheTtl ttl) { return ttl == CacheTtl::k1h ? "1h" : "5m"; }

std::optional<CacheTtl> ParseCacheTtl(std::string_view name) {
  if (name == "5m") return CacheTtl::k5m;
  if (name == "1h") return CacheTtl::k1h;
  return std::nullopt;
}

}  // namespace agentctx
