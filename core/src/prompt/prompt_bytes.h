// SPDX-License-Identifier: MIT
// Prompt bytes: the byte string the prompt cache and the cache-break explainer see,
// `P = J(instructions) ‖ J(tools) ‖ J(item_1) ‖ … ‖ J(item_n)`, with segment bounds kept, plus
// the token arithmetic shared by the explainer, the accounting and the mock's simulator.
// Invariants:
//  - J(instructions) is the JSON string literal (canonical escaping) of the body's
//    `instructions`, empty when the field is omitted; J(tools) is the compact `tools` array,
//    empty when omitted; J(item_i) is each `input` item's compact bytes in stored key order.
//    For a canonical body (everything the core builds) these are exactly the bytes in the body.
//  - No separators between segments. Integer math only; totals are uint64_t.
//  - `tokens(b) = ceil(b/4)`, `cacheable(t) = 0 if t < 1024 else 1024 + 128·floor((t−1024)/128)`.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "agentctx/result.h"
#include "protocol/json_value.h"
#include "support/text.h"

namespace agentctx {

/// Where a byte offset of P falls (a cache break is attributed to that segment).
struct PromptSegmentRef {
  enum class Kind { kInstructions, kTools, kItem, kEnd };
  Kind kind = Kind::kEnd;
  std::uint64_t item_index = 0;  // valid for kItem (0-based index into `input`)
};

/// The segments of P for one request body.
struct PromptBytes {
  std::string instructions;        // J(instructions) or ""
  std::string tools;               // J(tools) or ""
  std::vector<std::string> items;  // J(item_i), in `input` order

  /// |P|.
  std::uint64_t size() const;
  /// P itself (concatenation of every segment).
  std::string Concat() const;
  /// The segment containing byte `offset` of P (kEnd when offset >= size()).
  PromptSegmentRef SegmentAt(std::uint64_t offset) const;
};

/// Builds the segments from a parsed request body (`responses` or `responses/compact`).
/// Errors: kInvalidInput when the body is not an object, `instructions` is present but not a
/// string, `tools` is present but not an array, or `input` is present but not an array.
Result<PromptBytes> PromptBytesFromBody(const JsonValue& body);
/// Same, from the body bytes; kInvalidJson when they do not parse.
Result<PromptBytes> PromptBytesFromBodyBytes(std::string_view body_bytes);

/// `cacheable(t)`, OpenAI's cache granularity: 0 below 1024, else rounded down to 1024 + a
/// multiple of 128.
inline std::uint64_t Cacheable(std::uint64_t tokens) {
  return tokens < 1024 ? 0 : 1024 + 128 * ((tokens - 1024) / 128);
}

}  // namespace agentctx
