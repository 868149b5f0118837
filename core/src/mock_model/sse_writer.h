// SPDX-License-Identifier: MIT
// Writer of the mock model's answers: the Responses event stream the session's
// parser reads, or, for `stream:false`, the one JSON response object — shaped like
// the real API's so the official SDKs work as clients.
// Invariants:
//  - Each event is `event: <type>\ndata: <compact JSON>\n\n`; every event carries a
//    `sequence_number` (0, 1, …) right after its `type`, then its own fields in a fixed order.
//  - The `response` of `response.created` / `response.in_progress` / `response.completed` /
//    `response.failed` is a full response object: `id, object:"response", created_at (s),
//    status, error, incomplete_details, model, output, usage` — `output` empty and `usage` null
//    until `completed`, which carries every item in its final form and the usage.
//  - Deltas are <= kMaxDeltaBytes bytes, cut on character boundaries, and concatenate to the
//    full text; calls get no deltas.
// Algorithm (WriteSuccessStream): response.created, response.in_progress; per item i:
// output_item.added (message with `content:[]`, reasoning with `summary:[]`, calls as they are);
// for a message: content_part.added (empty output_text), output_text deltas, output_text.done,
// content_part.done; for a reasoning item: reasoning_summary_part.added, summary text deltas,
// reasoning_summary_text.done, reasoning_summary_part.done; output_item.done; then
// response.completed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/json_value.h"

namespace agentctx {

inline constexpr std::size_t kMaxDeltaBytes = 32;

/// Usage numbers of one response.
struct MockUsage {
  std::uint64_t input_tokens = 0;
  std::uint64_t cached_tokens = 0;
  std::uint64_t output_tokens = 0;
  std::uint64_t reasoning_tokens = 0;
  std::uint64_t total_tokens = 0;
  /// GPT-5.6+ (breakpoint cache): `input_tokens_details.cache_write_tokens` and its
  /// `cache_write_tokens_details` {ttl_12h_tokens, ttl_30m_tokens}; unset: neither is sent.
  std::optional<std::uint64_t> cache_write_tokens;
  std::uint64_t cache_write_12h_tokens = 0;  ///< of the writes
};

/// What every response object of one answer shares.
struct MockResponseMeta {
  std::string id;               // resp_<h12>
  std::string model;            // the request's `model` ("" when absent)
  std::int64_t created_at = 0;  // seconds (now_ms / 1000)
  /// The completed answer's cache diagnostics when the request asked (mock_diagnostics.h):
  /// OpenAI's `prompt_cache_diagnostics`, Anthropic's `diagnostics` (null included).
  std::optional<JsonValue> cache_diagnostics;
  /// Anthropic: the context edits applied to the request (mock_context_edits.h), sent as the
  /// answer's `context_management` (on `message_delta` when streaming).
  std::optional<JsonValue> context_management;
};

/// Appends `event: <type>\ndata: <ToJson(data)>\n\n`.
void AppendSseEvent(std::string* out, std::string_view type, const JsonValue& data);
/// Splits `text` into pieces of at most `max_bytes` bytes on character boundaries.
std::vector<std::string_view> SplitDeltas(std::string_view text,
                                          std::size_t max_bytes = kMaxDeltaBytes);

/// A response object: `status` "in_progress", "completed" or "failed"; `output` and `usage`
/// may be null (empty output / usage null); `error` {code, message} for "failed".
JsonValue MockResponseObject(const MockResponseMeta& meta, std::string_view status,
                             const std::vector<JsonValue>* output, const MockUsage* usage,
                             const JsonValue* error);

/// The full stream of a successful response with the given output items.
std::string WriteSuccessStream(const MockResponseMeta& meta, const std::vector<JsonValue>& items,
                               const MockUsage& usage);
/// `response.created`, `response.in_progress`, then `response.failed` with `error`.
std::string WriteFailureStream(const MockResponseMeta& meta, std::string_view code,
                               std::string_view message);
/// `stream:false`: the completed (or failed) response object as compact JSON.
std::string WriteSuccessJson(const MockResponseMeta& meta, const std::vector<JsonValue>& items,
                             const MockUsage& usage);
std::string WriteFailureJson(const MockResponseMeta& meta, std::string_view code,
                             std::string_view message);

}  // namespace agentctx
