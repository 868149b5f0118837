// SPDX-License-Identifier: MIT
// Token accounting and compaction thresholds. Pure integer arithmetic over item
// bytes; no session types.
// Invariants:
//  - An item's estimate is ceil(bytes / 4) of its canonical bytes, except:
//    * `reasoning` with `encrypted_content` and `compaction` items: the estimate is
//      max(0, floor(len(encrypted_content)·3/4) − 650) bytes (upstream's
//      estimate_reasoning_length), whatever else the item holds;
//    * every inline image (an `input_image` part, in a message or a tool output, whose
//      `image_url` starts with `data:`, ASCII case-insensitive) counts 7373 bytes instead of the
//      bytes of its URL (ours: the whole URL is replaced, not only the base64 payload).
//  - estimate_prompt = ceil((|J(instructions)| + |J(tools)|) / 4) + Σ item estimates (each
//    item rounded up on its own).
//  - context_tokens = last usage input + output + estimates of the items recorded after that
//    response's output; without usage, estimate_prompt of the next prompt (the caller decides).
//  - usable = window·95/100; auto_limit = min(auto_compact_token_limit ?? ∞, window·9/10);
//    limit_reached = context_tokens ≥ auto_limit or ≥ usable. No (positive) window → no
//    thresholds, so no automatic compaction. A non-positive configured limit is ignored (ours).
//  - Totals are uint64_t (size_t is 32-bit on wasm32).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "protocol/items.h"
#include "protocol/json_value.h"
#include "support/text.h"

namespace agentctx {

/// Bytes an inline `data:` image counts for.
inline constexpr std::uint64_t kInlineImageEstimateBytes = 7373;
/// Bytes subtracted from 3/4 of an encrypted payload's length.
inline constexpr std::uint64_t kEncryptedOverheadBytes = 650;

/// max(0, floor(len·3/4) − 650): the estimated bytes of an encrypted reasoning or compaction
/// payload of `encrypted_len` bytes.
std::uint64_t EncryptedContentEstimateBytes(std::uint64_t encrypted_len);

/// The estimated bytes of one item: `item` is the canonical item whose serialisation is
/// `bytes`; nullptr means "unknown shape" and the plain byte count is used.
std::uint64_t ItemEstimateBytes(const JsonValue* item, std::string_view bytes);
/// ceil(ItemEstimateBytes / 4).
inline std::uint64_t ItemEstimateTokens(const JsonValue* item, std::string_view bytes) {
  return TokensForBytes(ItemEstimateBytes(item, bytes));
}
/// The estimate of a recorded history item.
inline std::uint64_t ItemEstimateTokens(const RecordedItem& item) {
  return ItemEstimateTokens(&item.json, item.bytes);
}

/// One element of a prompt's `input` for estimation: the bytes as sent and, when known, the
/// canonical item they serialise (nullptr = estimate the plain bytes).
struct EstimateItem {
  const JsonValue* item = nullptr;
  std::string_view bytes;
};

/// estimate_prompt (the rule above). `instructions_bytes` is J(instructions) (empty when omitted),
/// `tools_bytes` J(tools).
std::uint64_t EstimatePrompt(std::string_view instructions_bytes, std::string_view tools_bytes,
                             const std::vector<EstimateItem>& items);

/// Σ item estimates of history[from..].
std::uint64_t EstimateHistorySince(const std::vector<RecordedItem>& history, std::uint64_t from);

/// Last usage input + output tokens plus the estimates of the items recorded after it.
inline std::uint64_t ContextTokensFromUsage(std::uint64_t input_tokens, std::uint64_t output_tokens,
                                            std::uint64_t later_items_tokens) {
  return input_tokens + output_tokens + later_items_tokens;
}

struct CompactionThresholds {
  std::uint64_t window = 0;
  std::uint64_t usable = 0;      ///< window·95/100
  std::uint64_t auto_limit = 0;  ///< min(configured limit, window·9/10)
};

/// The thresholds of a model; nullopt without a positive `context_window`.
std::optional<CompactionThresholds> ComputeThresholds(
    std::optional<std::int64_t> context_window,
    std::optional<std::int64_t> auto_compact_token_limit);

/// context_tokens ≥ auto_limit or ≥ usable.
inline bool LimitReached(std::uint64_t context_tokens, const CompactionThresholds& t) {
  return context_tokens >= t.auto_limit || context_tokens >= t.usable;
}

}  // namespace agentctx
