// SPDX-License-Identifier: MIT
// Session configuration (docs/config.md): typed view of the config JSON with defaults,
// validated as a whole. Every enum-valued key is a C++ enum generated from core/protocol.json
// (agentctx/wire_enums.h); nothing downstream re-parses a string. Invariants: a SessionConfig is
// always valid (ParseSessionConfig either returns a
// complete, validated config or kInvalidConfig and nothing); `raw` keeps the JSON it came from so
// `update(delta)` is a merge patch over it followed by a full re-parse.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "agentctx/result.h"
#include "agentctx/wire_enums.h"
#include "agents_md/types.h"
#include "protocol/host_tool.h"
#include "protocol/json_value.h"
#include "protocol/warning.h"
#include "provider/cache/cache_pricing.h"
#include "provider/dialect.h"
#include "tools/output_truncation.h"

namespace agentctx {

struct ModelConfig {
  std::string slug;
  std::string instructions;        // unset in the config: the base instructions
  bool base_instructions = false;  // instructions were unset and are the base instructions
  std::optional<std::int64_t> context_window;
  std::optional<std::int64_t> auto_compact_token_limit;
  bool supports_reasoning = true;
  bool supports_images = true;
  TruncationPolicy truncation;
};

struct SandboxConfig {
  SandboxMode mode = SandboxMode::kWorkspaceWrite;
  std::vector<std::string> writable_roots;
  bool network_access = false;
};

struct EnvironmentConfig {
  std::string id;
  std::string cwd;
  std::optional<std::string> shell;
  EnvironmentStatus status = EnvironmentStatus::kAvailable;
  std::string fs;
  std::optional<bool> sandboxed;  // default: the FileSystem's own Sandboxed()
  std::int64_t fs_epoch = 0;
};

struct SkillConfig {
  std::string name;
  std::optional<std::string> description;
  std::string path;
};

struct EnvironmentContextConfig {
  bool include_date = false;
  std::optional<std::string> current_date;  // YYYY-MM-DD
  std::optional<std::string> timezone;
};

struct CompactionConfig {
  CompactionStrategy strategy = CompactionStrategy::kLocal;
  bool auto_compact = true;
  std::optional<std::string> prompt;
  // Warmth-aware compaction (ours; compaction/warmth.h): 0 disables it.
  std::int64_t cache_ttl_ms = 300000;
  std::int64_t soft_limit_bp = 6000;  // 1..10000 of the context window
};

/// `task_frontier` (ours, docs/task-frontier.md): the update_plan tool and the `<task_frontier>`
/// block.
struct TaskFrontierConfig {
  bool enabled = false;
  std::optional<std::string> goal;  // set by the host; else the first user message
  std::vector<std::string> rules;   // pinned rules shown in the block
};

/// `context_budget` (ours, docs/context-budget.md): the opt-in `<context_budget>` block.
struct ContextBudgetConfig {
  bool enabled = false;
};

/// `anthropic`: the breakpoint planner's settings (provider/anthropic/breakpoint_planner.h).
struct AnthropicConfig {
  CacheTtl cache_ttl = CacheTtl::k5m;  // the stable marks' TTL
  std::optional<std::int64_t>
      min_cacheable_tokens;  // default: by model (DefaultMinCacheableTokens)
  /// `context_editing`, rendered (provider/anthropic/context_editing.h); empty = off.
  std::string context_edit;
};

/// `openai`: prompt caching of GPT-5.6+ with feature cache_breakpoints
/// (provider/responses/openai_cache.h).
struct OpenAiConfig {
  OpenAiCacheMode cache_mode = OpenAiCacheMode::kImplicit;  // prompt_cache_options.mode
  OpenAiCacheTtl cache_ttl = OpenAiCacheTtl::k30m;          // prompt_cache_options.ttl
};

/// `chat`: the Chat Completions rendering (provider/chat/chat_body.h).
struct ChatConfig {
  ChatDeveloperRole developer_role =
      ChatDeveloperRole::kDeveloper;  // `system`: renamed in the body
};

struct SessionConfig {
  std::string session_id;
  ModelConfig model;
  std::optional<std::string> developer_instructions;
  ApprovalPolicy approval_policy = ApprovalPolicy::kOnRequest;
  SandboxConfig sandbox;
  std::vector<EnvironmentConfig> environments;
  Trust trust = Trust::kTrusted;
  AgentsMdConfig agents_md;  // parsed by the agents_md module (agents_md/config.h)
  std::vector<SkillConfig> skills;
  bool builtin_tools = true;
  std::vector<HostToolConfig> tools;
  ToolPolicy tool_policy = ToolPolicy::kApply;
  EnvironmentContextConfig environment_context;
  std::optional<ReasoningEffort> reasoning_effort;    // kNone normalised to nullopt
  std::optional<ReasoningSummary> reasoning_summary;  // kNone normalised to nullopt
  std::optional<Verbosity> verbosity;
  std::optional<ServiceTier> service_tier;
  std::optional<std::string> prompt_cache_key;
  CompactionConfig compaction;
  std::int64_t max_steps_per_turn = 64;
  std::int64_t max_history_bytes = std::int64_t{256} << 20;  // Session::HistoryLimitRefusal
  TaskFrontierConfig task_frontier;
  ContextBudgetConfig context_budget;
  // Providers (docs/providers.md): which API the requests are rendered for, the layout, the
  // output cap (Chat max_completion_tokens, Anthropic max_tokens), the Anthropic and the Chat
  // settings.
  Provider provider = Provider::kResponses;
  PromptLayout layout = PromptLayout::kPerFragment;
  std::optional<std::int64_t> max_output_tokens;
  AnthropicConfig anthropic;
  OpenAiConfig openai;
  ChatConfig chat;
  // Cold caches (docs/providers.md, "Cold resume"): prewarm before a turn's first request, and
  // the prices of the `cache_cold` estimate.
  PrewarmMode prewarm = PrewarmMode::kOff;
  TypedPrices cache_prices;
  // What the endpoint can do (provider/features.h): the host's base URL when it is not the
  // provider's official one, and the config's `provider_features` (nullopt = automatic).
  std::optional<std::string> base_url;
  FeatureRequests provider_features;

  JsonValue raw;  // the JSON this config was parsed from

  /// The configured prompt_cache_key, else the session id.
  const std::string& CacheKey() const { return prompt_cache_key ? *prompt_cache_key : session_id; }
  /// The settings the session's dialect renders with.
  DialectOptions DialectSettings() const;
};

/// Parses and validates a whole config. Unknown top-level keys add one
/// `unknown_config_key` warning each. Errors are kInvalidConfig with a message naming the key.
Result<SessionConfig> ParseSessionConfig(const JsonValue& raw, std::vector<Warning>* warnings);

/// Applies an update delta: the `cwd` shorthand sets the primary environment's cwd; the rest is an
/// RFC 7386 merge patch over `current.raw` (arrays replace whole); the result is validated whole.
Result<SessionConfig> ApplyConfigDelta(const SessionConfig& current, const JsonValue& delta,
                                       std::vector<Warning>* warnings);

}  // namespace agentctx
