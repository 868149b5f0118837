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
  /// With feature cache_breakpoints (OpenAI GPT-5.6+): `prompt_cache_options` mode and ttl
  /// (config `openai`; responses/openai_cache.h).
  OpenAiCacheMode cache_mode = OpenAiCacheMode::kImplicit;
  OpenAiCacheTtl cache_ttl = OpenAiCacheTtl::k30m;
  /// The input items that carry `prompt_cache_breakpoint` (indices, ascending; the dialect's
  /// plan). Null or empty: none.
  const std::vector<std::size_t>* cache_marks = nullptr;
  /// Compaction by the provider (compaction.strategy inband / server, feature
  /// inband_compaction; docs/compaction-timing.md). `compaction_trigger`: this request compacts
  /// in-band (Responses: a `compaction_trigger` item last; Anthropic: the on-demand
  /// `compaction` parameter). `compact_threshold`: the provider compacts past this many input
  /// tokens (Responses `context_management`; Anthropic `compact_20260112`, paused after
  /// compacting). Neither set: the body is as without the feature.
  bool compaction_trigger = false;
  std::optional<std::int64_t> compact_threshold;
  /// The configured summarization prompt (config `compaction.prompt`), sent as the provider's
  /// compaction `instructions` where it takes them (Anthropic on demand and compact_20260112);
  /// empty: the provider's own prompt.
  std::string_view compaction_instructions;
  /// With feature cache_diagnostics: the id of the previous response, which the provider
  /// compares this request with (empty on the first request: nothing to compare yet).
  std::string_view cache_comparison_id;
  /// With feature tool_changes: the prompt holds a native tool change (`tool_changes` item;
  /// Anthropic: the betas of its tool_addition / tool_removal blocks).
  bool tool_changes = false;
  /// Anthropic context editing: the rendered `clear_tool_uses_20250919` edit
  /// (anthropic/context_editing.h), sent in `context_management.edits`; empty: none.
  std::string_view context_edit;
  /// With feature prewarm: this request only prepares the cache (Responses
  /// `prompt_cache_options.prewarm: true`, Anthropic `max_tokens: 0`); the body is otherwise the
  /// turn request's.
  bool prewarm = false;
};

}  // namespace agentctx
