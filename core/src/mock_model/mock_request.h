// SPDX-License-Identifier: MIT
// The request as the mock model reads it (ours): clients of the real Responses API
// send shorthand the engine never produces, and the mock accepts it like the API does.
// Normalisation (of a copy; the body bytes the ids hash stay as sent):
//  - a string `input` becomes one user message with one `input_text` part;
//  - an `input` item without `type` but with a `role` is a message (the API's "easy" form);
//    its string `content` becomes one `input_text` part (`output_text` for the assistant).
// Everything else is kept; shapes the mock cannot read are rejected later, as before.
// Size: the mock's work is linear in the items of a request, and it is bounded: a body whose
// `input` (Responses) or `messages` (Chat, Anthropic) holds more than kMaxMockInputItems items
// and content parts together — parts nested at any depth included (a tool output's parts, an
// Anthropic tool_result's blocks) — is refused before any other work (docs/RELIABILITY.md).
#pragma once

#include <cstddef>

#include "agentctx/result.h"
#include "protocol/json_value.h"

namespace agentctx {

/// `body` (an object) with its `input` in the long form; kInvalidInput when `stream` is not a
/// boolean. `*streaming` receives `stream == true` (absent: false, the API's default).
Result<JsonValue> NormalizeMockRequest(const JsonValue& body, bool* streaming);

/// The most items plus content parts one mock request may hold (`input` or `messages`).
inline constexpr std::size_t kMaxMockInputItems = 65536;

/// kInvalidInput (``request body has <n> input items and content parts; the mock model answers
/// at most 65536 per request``, details {"limit": "65536", "items": "<n>"}) when the parsed
/// body's `input` / `messages` array and every array nested in it (at any depth) hold more than
/// kMaxMockInputItems elements together.
Result<void> CheckMockRequestSize(const JsonValue& body);

}  // namespace agentctx
