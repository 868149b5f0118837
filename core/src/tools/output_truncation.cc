// SPDX-License-Identifier: MIT
// Tool output truncation; see output_truncation.h.
#include "tools/output_truncation.h"

#include <utility>

namespace agentctx {

namespace {

constexpr std::uint64_t kSaturated = UINT64_MAX / 8;

std::uint64_t TokensOf(std::uint64_t bytes) { return (bytes + 3) / 4; }

JsonValue TextPart(std::string text) {
  JsonValue part = JsonValue::Object();
  part.Set("type", JsonValue::String("input_text"));
  part.Set("text", JsonValue::String(std::move(text)));
  return part;
}

}  // namespace

std::uint64_t TruncationBudget(const TruncationPolicy& policy) {
  if (policy.limit > kSaturated / 12) return kSaturated;
  return (policy.limit * 12 + 9) / 10;
}

std::uint64_t TruncationBudgetBytes(const TruncationPolicy& policy) {
  std::uint64_t budget = TruncationBudget(policy);
  return policy.mode == TruncationMode::kTokens ? budget * 4 : budget;
}

std::string TruncateToolText(std::string_view text, const TruncationPolicy& policy) {
  return TruncateMiddle(text, TruncationBudgetBytes(policy), policy.mode);
}

JsonValue TruncateToolOutput(const JsonValue& output, const TruncationPolicy& policy) {
  if (output.is_string()) return JsonValue::String(TruncateToolText(output.string_value(), policy));
  if (!output.is_array()) return output;
  const bool tokens = policy.mode == TruncationMode::kTokens;
  std::uint64_t remaining = TruncationBudget(policy);  // in the policy's unit
  std::uint64_t omitted = 0;
  JsonValue out = JsonValue::Array();
  for (const JsonValue& part : output.items()) {
    std::optional<std::string_view> type = part.GetString("type");
    std::optional<std::string_view> text = part.GetString("text");
    if (!type.has_value() || *type != "input_text" || !text.has_value()) {
      out.Push(part);  // images (and anything else) are always kept
      continue;
    }
    if (remaining == 0) {
      ++omitted;
      continue;
    }
    std::uint64_t cost = tokens ? TokensOf(text->size()) : text->size();
    if (cost <= remaining) {
      out.Push(part);
      remaining -= cost;
      continue;
    }
    std::string snippet = TruncateMiddle(*text, tokens ? remaining * 4 : remaining, policy.mode);
    remaining = 0;
    if (snippet.empty()) {
      ++omitted;
    } else {
      out.Push(TextPart(std::move(snippet)));
    }
  }
  if (omitted > 0) {
    out.Push(TextPart("[omitted " + std::to_string(omitted) + " text items ...]"));
  }
  return out;
}

}  // namespace agentctx
