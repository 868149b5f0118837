// SPDX-License-Identifier: MIT
// Warning: a non-fatal finding produced by a pure protocol step (a `warning{code,
// message}` event). The session turns each into an `event` (and a persisted `event_msg warning`).
// Codes are the typed WarningCode of the protocol description (agentctx/wire_enums.h, listed in
// docs/protocol.md); ToWire(code) is the wire spelling.
#pragma once

#include <string>

#include "agentctx/wire_enums.h"
#include "protocol/json_value.h"

namespace agentctx {

struct Warning {
  WarningCode code;
  std::string message;

  bool operator==(const Warning& other) const {
    return code == other.code && message == other.message;
  }
};

/// `{"code","message"}`: how reports and inspect views list a warning.
inline JsonValue WarningJson(const Warning& w) {
  JsonValue out = JsonValue::Object();
  out.Set("code", JsonValue::String(std::string(ToWire(w.code))));
  out.Set("message", JsonValue::String(w.message));
  return out;
}

}  // namespace agentctx
