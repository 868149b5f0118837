// SPDX-License-Identifier: MIT
// StreamAdapter: a provider's stream events turned into the Responses event language the
// session reads (text deltas, output items, completed / failed / incomplete with usage), so every
// provider shares the session's effects and retry rules. One adapter per attempt.
#pragma once

#include <vector>

#include "protocol/json_value.h"

namespace agentctx {

/// Provider stream events -> Responses events (the session's one event language).
class StreamAdapter {
 public:
  virtual ~StreamAdapter() = default;
  /// Appends the Responses events for one framed provider event.
  virtual void OnEvent(const JsonValue& event, std::vector<JsonValue>* out) = 0;
  /// The host's `end` delivery came before a terminal event; a provider whose stream may end
  /// without one completes here.
  virtual void OnEnd(std::vector<JsonValue>* out) { (void)out; }
};

}  // namespace agentctx
