// SPDX-License-Identifier: MIT
// SSE writer of the mock model (SPEC §14.2): turns output items into the Responses event
// stream the session's parser reads (SPEC §10).
// Invariants:
//  - Each event is `event: <type>\ndata: <compact JSON>\n\n`; JSON keys in the exact SPEC order.
//  - Deltas are <= kMaxDeltaBytes bytes, cut on character boundaries, and concatenate to the
//    full text; calls get no deltas.
// Algorithm (WriteSuccessStream): response.created; per item i: output_item.added (message with
// `content:[]`, reasoning with `summary:[]`, calls as they are), its deltas, output_item.done;
// then response.completed with usage.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/json_value.h"

namespace agentctx {

inline constexpr std::size_t kMaxDeltaBytes = 32;

/// Usage numbers of one response (SPEC §14.2).
struct MockUsage {
  std::uint64_t input_tokens = 0;
  std::uint64_t cached_tokens = 0;
  std::uint64_t output_tokens = 0;
  std::uint64_t reasoning_tokens = 0;
  std::uint64_t total_tokens = 0;
};

/// Appends `event: <type>\ndata: <ToJson(data)>\n\n`.
void AppendSseEvent(std::string* out, std::string_view type, const JsonValue& data);
/// Splits `text` into pieces of at most `max_bytes` bytes on character boundaries.
std::vector<std::string_view> SplitDeltas(std::string_view text,
                                          std::size_t max_bytes = kMaxDeltaBytes);
/// The full stream of a successful response with the given output items.
std::string WriteSuccessStream(std::string_view response_id, const std::vector<JsonValue>& items,
                               const MockUsage& usage);
/// `response.created` then `response.failed` with `error {code, message}`.
std::string WriteFailureStream(std::string_view response_id, std::string_view code,
                               std::string_view message);

}  // namespace agentctx
