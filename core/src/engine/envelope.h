// SPDX-License-Identifier: MIT
// Envelopes (agentctx/engine.h): {"v":1,"ok":true,"value":V} and
// {"v":1,"ok":false,"error":{"code","message","details"?}}. Key order is fixed.
#pragma once

#include <string>

#include "agentctx/error.h"
#include "protocol/json_value.h"

namespace agentctx {

std::string OkEnvelope(const JsonValue& value);
/// `value_json` must already be valid compact JSON (spliced verbatim).
std::string OkEnvelopeRaw(std::string_view value_json);
/// The same, built in `value_json`'s own buffer (no second copy of a large value).
std::string OkEnvelopeOwned(std::string value_json);
std::string ErrorEnvelope(const Error& error);

}  // namespace agentctx
