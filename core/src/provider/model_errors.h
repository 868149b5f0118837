// SPDX-License-Identifier: MIT
// Classification of model failures into `error` effects (codes: docs/protocol.md). Pure
// functions of the failed event or the `model_error` delivery; the host owns timers and calls
// `retry`.
// Rules:
//  - `response.failed` error.code: context_length_exceeded → context_window_exceeded;
//    insufficient_quota → quota_exceeded; usage_not_included → usage_not_included;
//    invalid_prompt, bio_policy, cyber_policy → invalid_request; server_is_overloaded,
//    slow_down → server_overloaded*; rate_limit_exceeded → rate_limited*; else stream_error*.
//  - `model_error`: a body `error.code` from the table above wins; else 401/403 → unauthorized;
//    429 → rate_limited*; 408, 409, 5xx, no status (network) → http_error*; else http_error.
//  - `response.incomplete` → incomplete_response
//    `Incomplete response returned, reason: <incomplete_details.reason or "unknown">`.
//  - `end` without a terminal event → stream_error* `stream closed before response.completed`.
//  (* = retryable.) retry_after_ms comes from the message, case-insensitive
//  `try again in <number>(s|ms|seconds)`, rounded up to whole ms; set only when retryable.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "agentctx/error.h"
#include "protocol/json_value.h"

namespace agentctx {

struct ModelFailure {
  ErrorCode code = ErrorCode::kStreamError;
  std::string message;
  bool retryable = false;
  std::optional<std::int64_t> retry_after_ms;
};

/// The failure for a `response.failed` event (its `response.error`, else a top-level `error`).
ModelFailure MapResponseFailed(const JsonValue& event);

/// The failure for a `response.incomplete` event.
ModelFailure MapResponseIncomplete(const JsonValue& event);

/// The failure for a `model_error` delivery; `status` absent = network error.
ModelFailure MapModelErrorDelivery(std::optional<std::int64_t> status, std::string_view body,
                                   std::string_view message);

/// `stream_error` (retryable) for an `end` delivery without a terminal event.
ModelFailure StreamClosedFailure();

/// `stream_error`, not retryable: the stream ended without a terminal event after an SSE event
/// over the 32 MiB limit was dropped (a deterministic failure; a retry would repeat it).
ModelFailure OversizedEventFailure();

/// Parses `try again in <number>(s|ms|seconds)` (ASCII case-insensitive) from `message`,
/// rounded up to whole milliseconds; nullopt when absent. Saturates instead of overflowing.
std::optional<std::int64_t> ParseRetryAfterMs(std::string_view message);

}  // namespace agentctx
