// SPDX-License-Identifier: MIT
// Token usage of a `response.completed` event: `input_tokens`,
// `input_tokens_details.cached_tokens` (missing → 0), `output_tokens`,
// `output_tokens_details.reasoning_tokens` (missing → 0), `total_tokens` (missing → in + out).
// Feeds the `token_usage` event and the persisted `event_msg token_count`.
#pragma once

#include <cstdint>
#include <optional>

#include "protocol/json_value.h"

namespace agentctx {

struct TokenUsage {
  std::int64_t input_tokens = 0;
  std::int64_t cached_tokens = 0;
  std::int64_t output_tokens = 0;
  std::int64_t reasoning_tokens = 0;
  std::int64_t total_tokens = 0;
};

/// The usage of a `response.completed` event (`response.usage`), or of a bare usage object;
/// nullopt when there is no usage object. Missing or non-integer counts read as 0.
std::optional<TokenUsage> ParseTokenUsage(const JsonValue& event_or_usage);

}  // namespace agentctx
