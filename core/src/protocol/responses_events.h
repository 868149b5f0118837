// SPDX-License-Identifier: MIT
// Builders of the Responses events that the provider stream adapters emit
// (provider/stream_adapter.h): one definition of each shape the session reads.
// Invariants: keys in the canonical order the session uses; items are raw (the session
// canonicalises them like any `response.output_item.done` item).
#pragma once

#include <cstdint>
#include <string_view>

#include "protocol/json_value.h"

namespace agentctx {

/// `{"type":type}`.
JsonValue ResponsesEvent(std::string_view type);
/// `{"type":type,"delta":delta}` (output_text / reasoning_text deltas).
JsonValue ResponsesDeltaEvent(std::string_view type, std::string_view delta);
/// `response.output_item.done` with `output_index` and `item`.
JsonValue OutputItemDoneEvent(std::int64_t output_index, JsonValue item);
/// `response.failed` with `response.error {code, message}`.
JsonValue ResponseFailedEvent(std::string_view code, std::string_view message);
/// `response.incomplete` with `response.incomplete_details.reason`.
JsonValue ResponseIncompleteEvent(std::string_view reason);
/// `response.completed` with `response.usage` when `usage` is not null.
JsonValue ResponseCompletedEvent(JsonValue usage);
/// An assistant message item with one output_text part.
JsonValue AssistantMessageItem(std::string_view text);
/// A function_call item {type, name, arguments ("{}" when empty), call_id}.
JsonValue FunctionCallItem(std::string_view name, std::string_view arguments,
                           std::string_view call_id);

}  // namespace agentctx
