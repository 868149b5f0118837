// SPDX-License-Identifier: MIT
// The model APIs a session can speak (issue 15) and the layouts of the Responses rendering.
// Invariants: one history, three renderings. The session records Responses-shaped canonical
// items whatever the provider; a provider only changes how the request body is rendered
// (provider/chat/chat_body.h, provider/anthropic/anthropic_body.h) and how the answer stream is read
// (protocol/chat_stream.h, protocol/anthropic_stream.h). Names are wire strings (snake_case).
#pragma once

#include <string_view>

#include "agentctx/wire_enums.h"

namespace agentctx {

// Provider, PromptLayout and CacheTtl are generated from core/protocol.json
// (agentctx/wire_enums.h; ToWire/FromWire spell them).

/// The endpoint the host appends to its base URL: responses | chat/completions | messages.
std::string_view ProviderEndpoint(Provider provider);

}  // namespace agentctx
