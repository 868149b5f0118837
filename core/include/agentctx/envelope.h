// SPDX-License-Identifier: MIT
// Envelope helpers for boundary glue that answers a method itself (the WASI guest's
// `rollout.open`): the engine's exact envelope spelling (docs/boundary.md) and the one JSON read
// such a method needs, without the core's private headers.
// Invariants: the envelopes are byte-identical to what Engine::Call would produce for the same
// value or error; nothing here aborts on bad input.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "agentctx/error.h"
#include "agentctx/result.h"

namespace agentctx {

/// `{"v":1,"ok":false,"error":{"code","message","details"?}}`.
std::string ErrorEnvelopeFor(const Error& error);

/// `{"v":1,"ok":true,"value":{"<key>":"<value>"}}` (both JSON-escaped).
std::string OkEnvelopeWithString(std::string_view key, std::string_view value);

/// The string member `key` of the JSON object `json` ("" reads as {}): nullopt when the member
/// is absent or not a string; invalid_json / invalid_input when `json` is not a JSON object.
Result<std::optional<std::string>> JsonObjectString(std::string_view json, std::string_view key);

}  // namespace agentctx
