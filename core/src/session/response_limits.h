// SPDX-License-Identifier: MIT
// The size limits of one model response (one attempt of one request), beside the limit of one
// SSE event (kMaxSseEventBytes, protocol/sse_parser.h). Everything a response streams is kept
// until `response.completed` (history is untouched by a failed attempt), so a server that never
// stops would otherwise grow the session without bound — the WASI guest has 4 GB.
// Past either limit the attempt fails at once with a `stream_error` that is not retryable (the
// same request would stream the same response), naming the limit; the turn ends `failed`,
// nothing is recorded from that response, and the session stays usable (docs/RELIABILITY.md).
#pragma once

#include <cstddef>
#include <cstdint>

namespace agentctx {

/// The most output items (`response.output_item.done`) one response may have.
inline constexpr std::size_t kMaxResponseOutputItems = 4096;

/// The most SSE bytes (`sse` of `model_events` deliveries) one response may stream.
inline constexpr std::uint64_t kMaxResponseBytes = std::uint64_t{128} << 20;

}  // namespace agentctx
