// SPDX-License-Identifier: MIT
// Usage of `response.completed`; see token_usage.h.
#include "protocol/token_usage.h"

namespace agentctx {

namespace {

std::int64_t IntOr0(const JsonValue* object, std::string_view key) {
  if (object == nullptr) return 0;
  return object->GetInt(key).value_or(0);
}

}  // namespace

std::optional<TokenUsage> ParseTokenUsage(const JsonValue& event_or_usage) {
  const JsonValue* usage = nullptr;
  if (const JsonValue* response = event_or_usage.Find("response")) {
    usage = response->Find("usage");
  } else if (event_or_usage.Find("input_tokens") != nullptr) {
    usage = &event_or_usage;
  } else {
    usage = event_or_usage.Find("usage");
  }
  if (usage == nullptr || !usage->is_object()) return std::nullopt;
  TokenUsage out;
  out.input_tokens = IntOr0(usage, "input_tokens");
  out.cached_tokens = IntOr0(usage->Find("input_tokens_details"), "cached_tokens");
  out.output_tokens = IntOr0(usage, "output_tokens");
  out.reasoning_tokens = IntOr0(usage->Find("output_tokens_details"), "reasoning_tokens");
  std::optional<std::int64_t> total = usage->GetInt("total_tokens");
  out.total_tokens = total.has_value() ? *total : out.input_tokens + out.output_tokens;
  return out;
}

}  // namespace agentctx
