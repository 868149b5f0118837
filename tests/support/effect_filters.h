// SPDX-License-Identifier: MIT
// Filters over the effects a session call answers (an envelope's `effects`, or a SessionDriver
// call's), shared by the session tests.
#pragma once

#include <string_view>
#include <vector>

#include "protocol/json_value.h"

namespace agentctx::testing {

/// The `event` payloads of `type` among `effects`, in order.
inline std::vector<JsonValue> EventsOfType(const std::vector<JsonValue>& effects,
                                           std::string_view type) {
  std::vector<JsonValue> out;
  for (const JsonValue& e : effects) {
    if (e.GetString("type") != "event") continue;
    const JsonValue* event = e.Find("event");
    if (event != nullptr && event->GetString("type") == type) out.push_back(*event);
  }
  return out;
}

}  // namespace agentctx::testing
