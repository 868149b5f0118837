// SPDX-License-Identifier: MIT
// The model APIs a session can speak (issue 15) and the layouts of the Responses rendering.
// Invariants: one history, three renderings. The session records Responses-shaped canonical
// items whatever the provider; a provider only changes how the request body is rendered
// (prompt/chat_body.h, prompt/anthropic_body.h) and how the answer stream is read
// (protocol/chat_stream.h, protocol/anthropic_stream.h). Names are wire strings (snake_case).
#pragma once

#include <optional>
#include <string_view>

namespace agentctx {

/// `provider` in the session config.
enum class Provider {
  kResponses,  ///< "responses": OpenAI Responses (SPEC §8), the default
  kChat,       ///< "chat": Chat Completions (OpenAI, vLLM, llama.cpp servers)
  kAnthropic,  ///< "anthropic": Anthropic Messages with cache_control breakpoints
};

/// `layout` in the session config: how a pass's context fragments become messages.
enum class PromptLayout {
  kPerFragment,  ///< "per_fragment": one message per fragment (SPEC §7.2), the default
  kPerRole,      ///< "per_role": one developer and one user message per pass (Codex 0.169)
};

/// `anthropic.cache_ttl`: the TTL of the stable breakpoints (tools, system, session context).
enum class CacheTtl {
  k5m,  ///< "5m", the default
  k1h,  ///< "1h"
};

std::string_view ProviderName(Provider provider);
std::optional<Provider> ParseProvider(std::string_view name);
/// The endpoint the host appends to its base URL: responses | chat/completions | messages.
std::string_view ProviderEndpoint(Provider provider);

std::string_view PromptLayoutName(PromptLayout layout);
std::optional<PromptLayout> ParsePromptLayout(std::string_view name);

std::string_view CacheTtlName(CacheTtl ttl);
std::optional<CacheTtl> ParseCacheTtl(std::string_view name);

}  // namespace agentctx
