// SPDX-License-Identifier: MIT
// Warning: a non-fatal finding produced by a pure protocol step (SPEC §2.5 `warning{code,
// message}`). The session turns each into an `event` (and a persisted `event_msg warning`).
// Codes are the SPEC §2.8 warning names (`sse_parse_error`, `unsupported_item`, ...).
#pragma once

#include <string>

namespace agentctx {

struct Warning {
  std::string code;
  std::string message;

  bool operator==(const Warning& other) const {
    return code == other.code && message == other.message;
  }
};

}  // namespace agentctx
