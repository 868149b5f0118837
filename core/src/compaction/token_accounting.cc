// SPDX-License-Identifier: MIT
// Token accounting; see token_accounting.h.
#include "compaction/token_accounting.h"

namespace agentctx {
namespace {

bool StartsWithDataScheme(std::string_view url) {
  constexpr std::string_view kData = "data:";
  if (url.size() < kData.size()) return false;
  for (std::size_t i = 0; i < kData.size(); ++i) {
    char c = url[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != kData[i]) return false;
  }
  return true;
}

// Adds the inline images of a parts array to (count, url bytes).
void CountInlineImages(const JsonValue& parts, std::uint64_t* count, std::uint64_t* url_bytes) {
  if (!parts.is_array()) return;
  for (const JsonValue& part : parts.items()) {
    if (!part.is_object() || part.GetString("type") != "input_image") continue;
    std::optional<std::string_view> url = part.GetString("image_url");
    if (!url.has_value() || !StartsWithDataScheme(*url)) continue;
    *count += 1;
    *url_bytes += url->size();
  }
}

}  // namespace

std::uint64_t EncryptedContentEstimateBytes(std::uint64_t encrypted_len) {
  std::uint64_t three_quarters = encrypted_len / 4 * 3 + (encrypted_len % 4) * 3 / 4;
  return three_quarters > kEncryptedOverheadBytes ? three_quarters - kEncryptedOverheadBytes : 0;
}

std::uint64_t ItemEstimateBytes(const JsonValue* item, std::string_view bytes) {
  const std::uint64_t raw = bytes.size();
  if (item == nullptr || !item->is_object()) return raw;
  std::string_view type = ItemType(*item);
  if (type == "reasoning" || type == "compaction") {
    std::optional<std::string_view> encrypted = item->GetString("encrypted_content");
    if (encrypted.has_value()) return EncryptedContentEstimateBytes(encrypted->size());
    if (type == "compaction") return EncryptedContentEstimateBytes(0);
    return raw;
  }
  std::uint64_t count = 0;
  std::uint64_t url_bytes = 0;
  if (type == "message") {
    if (const JsonValue* content = item->Find("content")) {
      CountInlineImages(*content, &count, &url_bytes);
    }
  } else if (type == "function_call_output" || type == "custom_tool_call_output") {
    if (const JsonValue* output = item->Find("output")) {
      CountInlineImages(*output, &count, &url_bytes);
    }
  }
  if (count == 0) return raw;
  std::uint64_t without = raw > url_bytes ? raw - url_bytes : 0;
  return without + count * kInlineImageEstimateBytes;
}

std::uint64_t EstimatePrompt(std::string_view instructions_bytes, std::string_view tools_bytes,
                             const std::vector<EstimateItem>& items) {
  std::uint64_t total = TokensForBytes(static_cast<std::uint64_t>(instructions_bytes.size()) +
                                       static_cast<std::uint64_t>(tools_bytes.size()));
  for (const EstimateItem& e : items) total += ItemEstimateTokens(e.item, e.bytes);
  return total;
}

std::uint64_t EstimateHistorySince(const std::vector<RecordedItem>& history, std::uint64_t from) {
  std::uint64_t total = 0;
  for (std::uint64_t i = from; i < history.size(); ++i) {
    total += ItemEstimateTokens(history[static_cast<std::size_t>(i)]);
  }
  return total;
}

std::optional<CompactionThresholds> ComputeThresholds(
    std::optional<std::int64_t> context_window,
    std::optional<std::int64_t> auto_compact_token_limit) {
  if (!context_window.has_value() || *context_window <= 0) return std::nullopt;
  CompactionThresholds t;
  t.window = static_cast<std::uint64_t>(*context_window);
  t.usable = t.window * 95 / 100;
  t.auto_limit = t.window * 9 / 10;
  if (auto_compact_token_limit.has_value() && *auto_compact_token_limit > 0) {
    auto limit = static_cast<std::uint64_t>(*auto_compact_token_limit);
    if (limit < t.auto_limit) t.auto_limit = limit;
  }
  return t;
}

}  // namespace agentctx
