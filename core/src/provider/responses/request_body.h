// SPDX-License-Identifier: MIT
// Request bodies (SPEC §8.1, §8.2) assembled from cached pieces (§8.4): item bytes are
// serialised once when recorded and only concatenated here, so building request N never
// re-serialises items 1..N-1. Field order is fixed; output is deterministic.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "agentctx/wire_enums.h"

namespace agentctx {

struct BodyParams {
  std::string_view model;
  std::string_view instructions;                         // omitted when empty
  const std::vector<std::string_view>* items = nullptr;  // canonical bytes, for_prompt order
  std::string_view tools_bytes;                          // the canonical tools array
  bool compaction = false;  // local compaction: tool_choice none, no parallel calls
  bool supports_reasoning = true;
  std::optional<std::string_view> reasoning_effort;
  std::optional<std::string_view> reasoning_summary;
  std::optional<std::string_view> service_tier;
  std::string_view prompt_cache_key;
  std::optional<std::string_view> verbosity;
  /// `max_output_tokens` (issue 15): Chat `max_completion_tokens`, Anthropic `max_tokens`;
  /// never part of the Responses body.
  std::optional<std::int64_t> max_output_tokens;
  /// `chat.developer_role` (issue 15): the role of developer messages in the Chat body only.
  ChatDeveloperRole chat_developer_role = ChatDeveloperRole::kDeveloper;
};

/// The `responses` body (SPEC §8.1).
std::string BuildResponsesBody(const BodyParams& p);
/// The `responses` body up to and including `"input":[` (items not included).
void AppendResponsesHead(std::string* out, const BodyParams& p);
/// The `responses` body from the `]` closing `input` to the end.
void AppendResponsesTail(std::string* out, const BodyParams& p);
/// `,"service_tier":…` (when set) `,"prompt_cache_key":…`: shared by every body with those fields.
void AppendServiceTierAndCacheKey(std::string* out, const BodyParams& p);
/// The `responses/compact` body (SPEC §8.2).
std::string BuildCompactBody(const BodyParams& p);

}  // namespace agentctx
