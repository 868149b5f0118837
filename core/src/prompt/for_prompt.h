// SPDX-License-Identifier: MIT
// for_prompt: the per-request view of history that goes into `input`, built without
// re-serialising anything (each item is serialised once, when recorded).
// Invariants:
//  - Pure apart from the cache: same history + same flag ⇒ same view (same bytes).
//  - The view points at existing bytes: each history item's RecordedItem::bytes, or bytes
//    owned by the PromptItemCache (synthetic outputs by call id, image-stripped variants).
//    Cache entries are never erased, so their addresses are stable; history pointers stay
//    valid until the history vector is modified.
//  - PromptItemCache::serialized_count() counts each synthetic/stripped item once, however
//    many requests use it (the `items_serialized` stat = recorded items + this).
//  - Every PromptItem carries a serial: the history item's (RecordedItem::serial), or for bytes
//    the cache made, one with kCacheSerialBit set, unique per cache entry. Equal non-zero
//    serials mean equal bytes (the cache explainer skips comparing them).
// Algorithm, in history order:
//  1. A function_call / custom_tool_call with no later output of the matching type and call id
//     is followed by a synthetic output `aborted` (function_call_output /
//     custom_tool_call_output, same call id).
//  2. An output with no earlier call of the matching type and call id is removed.
//  3. With supports_images false, every `input_image` part (message content or tool output
//     parts) becomes `input_text` `image content omitted because you do not support image
//     input`.
//  4. A `tool_changes` item (protocol/items.h) takes the form the request's provider reads
//     (ToolChangeForm): kRaw keeps it (the dialect renders it natively), kResponses becomes an
//     `additional_tools{type,role:"developer",tools}` item (when tools were added) followed by
//     a developer message with its removal_notice (when tools were removed), kNotice becomes a
//     developer message with its notice (no native channel: the change waits for compaction).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/items.h"

namespace agentctx {

inline constexpr std::string_view kAbortedOutput = "aborted";
inline constexpr std::string_view kImageOmittedText =
    "image content omitted because you do not support image input";

/// Serials of cache-made bytes have this bit; history serials never do.
inline constexpr std::uint64_t kCacheSerialBit = std::uint64_t{1} << 63;

/// Bytes the cache made, with their serial.
struct CachedPromptItem {
  std::string bytes;
  std::uint64_t serial = 0;
};

/// How a `tool_changes` item reaches the provider (step 4 above).
enum class ToolChangeForm { kRaw, kResponses, kNotice };

/// Owns the bytes of items that for_prompt synthesises; lives as long as the session.
class PromptItemCache {
 public:
  /// The canonical bytes of `<call_type>_output{call_id, output:"aborted"}`.
  const CachedPromptItem& AbortedOutput(std::string_view call_type, std::string_view call_id);
  /// The bytes of `item` with image parts replaced (step 3 above).
  const CachedPromptItem& WithoutImages(const RecordedItem& item);
  /// The items a `tool_changes` item becomes in `form` (kResponses or kNotice; step 4 above).
  const std::vector<CachedPromptItem>& ToolChanges(const RecordedItem& item, ToolChangeForm form);
  /// Distinct items this cache has serialised.
  std::uint64_t serialized_count() const { return serialized_count_; }

 private:
  const CachedPromptItem& Add(std::map<std::string, CachedPromptItem>* map, std::string key,
                              std::string bytes);

  std::map<std::string, CachedPromptItem> aborted_;   // key: call type + NUL + call id
  std::map<std::string, CachedPromptItem> stripped_;  // key: original bytes
  std::map<std::string, std::vector<CachedPromptItem>> tool_changes_;  // key: form + bytes
  std::uint64_t serialized_count_ = 0;
};

/// One element of the prompt's `input`.
struct PromptItem {
  const std::string* bytes = nullptr;  // canonical item bytes (history's or the cache's)
  std::size_t history_index = 0;       // the history item, or for a synthetic output its call
  bool synthetic = false;              // a synthetic `aborted` output
  std::uint64_t serial = 0;            // identity of `bytes` (see the invariants above)
};

/// The call type an output answers ("" when `output_type` is not an output), and the output
/// type answering a call ("" when `call_type` is not a call).
std::string_view CallTypeFor(std::string_view output_type);
std::string_view OutputTypeFor(std::string_view call_type);
/// The key pairing a call with its outputs: call type + NUL + call id.
std::string PairKey(std::string_view call_type, std::string_view call_id);

/// True when a message or tool output of `item` has an `input_image` part.
bool ItemHasImage(const JsonValue& item);

/// for_prompt (the algorithm above) over `history`; pointers stay valid while `history` is
/// unmodified.
std::vector<PromptItem> ForPrompt(const std::vector<RecordedItem>& history, bool supports_images,
                                  PromptItemCache* cache,
                                  ToolChangeForm tool_changes = ToolChangeForm::kNotice);

/// Appends the view of history item `index` (steps 3 and 4; not the call pairing) to `view`.
void AppendPromptItem(const std::vector<RecordedItem>& history, std::size_t index,
                      bool supports_images, ToolChangeForm tool_changes, PromptItemCache* cache,
                      std::vector<PromptItem>* view);

/// Appends `[b1,b2,…]` (the items' bytes joined by `,`) to `out`.
void AppendPromptItemsJson(std::string* out, const std::vector<PromptItem>& items);

}  // namespace agentctx
