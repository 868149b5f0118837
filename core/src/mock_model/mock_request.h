// SPDX-License-Identifier: MIT
// The request as the mock model reads it (ours, issue 14): clients of the real Responses API
// send shorthand the engine never produces, and the mock accepts it like the API does.
// Normalisation (of a copy; the body bytes the ids hash stay as sent):
//  - a string `input` becomes one user message with one `input_text` part;
//  - an `input` item without `type` but with a `role` is a message (the API's "easy" form);
//    its string `content` becomes one `input_text` part (`output_text` for the assistant).
// Everything else is kept; shapes the mock cannot read are rejected later, as before.
#pragma once

#include "agentctx/result.h"
#include "protocol/json_value.h"

namespace agentctx {

/// `body` (an object) with its `input` in the long form; kInvalidInput when `stream` is not a
/// boolean. `*streaming` receives `stream == true` (absent: false, the API's default).
Result<JsonValue> NormalizeMockRequest(const JsonValue& body, bool* streaming);

}  // namespace agentctx
