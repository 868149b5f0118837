// SPDX-License-Identifier: MIT
// BodyParams: the request fields a dialect renders into a body, whatever the provider. Views
// only: the caller keeps every string (and `items`) alive while a body is rendered.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "agentctx/wire_enums.h"
#include "provider/features.h"

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
  /// `max_output_tokens`: Chat `max_completion_tokens`, Anthropic `max_tokens`;
  /// never part of the Responses body.
  std::optional<std::int64_t> max_output_tokens;
  /// `chat.developer_role`: the role of developer messages in the Chat body only.
  ChatDeveloperRole chat_developer_role = ChatDeveloperRole::kDeveloper;
  /// The provider features this request uses (features.h); by default what every body carried
  /// before features existed: prompt_cache_key only.
  ProviderFeatures features = ProviderFeatures::Baseline();
};

}  // namespace agentctx
