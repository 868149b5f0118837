// SPDX-License-Identifier: MIT
// ParseSessionConfig (docs/config.md): every field checked for type and allowed values;
// defaults filled in (model.instructions: the base instructions, base_instructions.h); the first
// problem is reported as kInvalidConfig naming the key path. Enum values and the known top-level
// keys come from the protocol description (agentctx/wire_enums.h), so they are never re-listed.
#include "session/config.h"

#include <set>
#include <string_view>

#include "agents_md/config.h"
#include "provider/anthropic/context_editing.h"
#include "provider/cache/cache_pricing.h"
#include "session/base_instructions.h"
#include "support/paths.h"

namespace agentctx {
namespace {

Unexpected<Error> Invalid(std::string message) {
  return Fail(ErrorCode::kInvalidConfig, std::move(message));
}

// Enum readers: absent or null -> keep the default; anything but a listed value -> error.
template <typename E>
Result<void> ReadEnum(const JsonValue& obj, std::string_view key, const std::string& path, E* out) {
  const JsonValue* v = obj.Find(key);
  if (v == nullptr || v->is_null()) return {};
  std::optional<E> parsed = v->is_string() ? FromWire<E>(v->string_value()) : std::nullopt;
  if (!parsed) return Invalid(path + " must be " + WireChoices<E>());
  *out = *parsed;
  return {};
}

template <typename E>
Result<void> ReadOptEnum(const JsonValue& obj, std::string_view key, const std::string& path,
                         std::optional<E>* out) {
  const JsonValue* v = obj.Find(key);
  if (v == nullptr || v->is_null()) return {};
  E value{};
  ACTX_TRY_VOID(ReadEnum(obj, key, path, &value));
  *out = value;
  return {};
}

// Field readers: absent or null -> keep the default; wrong type -> error naming `path`.
Result<void> ReadString(const JsonValue& obj, std::string_view key, const std::string& path,
                        std::string* out) {
  const JsonValue* v = obj.Find(key);
  if (v == nullptr || v->is_null()) return {};
  if (!v->is_string()) return Invalid(path + " must be a string");
  *out = v->string_value();
  return {};
}

Result<void> ReadOptString(const JsonValue& obj, std::string_view key, const std::string& path,
                           std::optional<std::string>* out) {
  const JsonValue* v = obj.Find(key);
  if (v == nullptr || v->is_null()) return {};
  if (!v->is_string()) return Invalid(path + " must be a string or null");
  *out = v->string_value();
  return {};
}

Result<void> ReadBool(const JsonValue& obj, std::string_view key, const std::string& path,
                      bool* out) {
  const JsonValue* v = obj.Find(key);
  if (v == nullptr || v->is_null()) return {};
  if (!v->is_bool()) return Invalid(path + " must be a boolean");
  *out = v->bool_value();
  return {};
}

Result<void> ReadInt(const JsonValue& obj, std::string_view key, const std::string& path,
                     std::int64_t min, std::int64_t* out) {
  const JsonValue* v = obj.Find(key);
  if (v == nullptr || v->is_null()) return {};
  auto n = v->int_value();
  if (!n || *n < min) {
    return Invalid(path + " must be an integer >= " + std::to_string(min));
  }
  *out = *n;
  return {};
}

Result<void> ReadOptInt(const JsonValue& obj, std::string_view key, const std::string& path,
                        std::optional<std::int64_t>* out) {
  const JsonValue* v = obj.Find(key);
  if (v == nullptr || v->is_null()) return {};
  auto n = v->int_value();
  if (!n || *n <= 0) return Invalid(path + " must be a positive integer or null");
  *out = *n;
  return {};
}

Result<void> ReadStringList(const JsonValue& obj, std::string_view key, const std::string& path,
                            std::vector<std::string>* out) {
  const JsonValue* v = obj.Find(key);
  if (v == nullptr || v->is_null()) return {};
  if (!v->is_array()) return Invalid(path + " must be an array of strings");
  out->clear();
  for (const auto& item : v->items()) {
    if (!item.is_string()) return Invalid(path + " must be an array of strings");
    out->push_back(item.string_value());
  }
  return {};
}

Result<const JsonValue*> ObjectOrNull(const JsonValue& obj, std::string_view key,
                                      const std::string& path) {
  const JsonValue* v = obj.Find(key);
  if (v == nullptr || v->is_null()) return static_cast<const JsonValue*>(nullptr);
  if (!v->is_object()) return Invalid(path + " must be an object");
  return v;
}

Result<void> ParseModel(const JsonValue& raw, ModelConfig* m) {
  const JsonValue* v = raw.Find("model");
  if (v == nullptr || !v->is_object()) return Invalid("model must be an object with a slug");
  ACTX_TRY_VOID(ReadString(*v, "slug", "model.slug", &m->slug));
  if (m->slug.empty()) return Invalid("model.slug is required");
  ACTX_TRY_VOID(ReadString(*v, "instructions", "model.instructions", &m->instructions));
  ACTX_TRY_VOID(ReadOptInt(*v, "context_window", "model.context_window", &m->context_window));
  ACTX_TRY_VOID(ReadOptInt(*v, "auto_compact_token_limit", "model.auto_compact_token_limit",
                           &m->auto_compact_token_limit));
  ACTX_TRY_VOID(
      ReadBool(*v, "supports_reasoning", "model.supports_reasoning", &m->supports_reasoning));
  ACTX_TRY_VOID(ReadBool(*v, "supports_images", "model.supports_images", &m->supports_images));
  ACTX_TRY(const JsonValue* t, ObjectOrNull(*v, "truncation", "model.truncation"));
  if (t != nullptr) {
    m->truncation.mode = TruncationMode::kBytes;
    ACTX_TRY_VOID(ReadEnum(*t, "mode", "model.truncation.mode", &m->truncation.mode));
    std::int64_t limit = 10000;
    ACTX_TRY_VOID(ReadInt(*t, "limit", "model.truncation.limit", 0, &limit));
    m->truncation.limit = static_cast<std::uint64_t>(limit);
  }
  return {};
}

Result<void> ParseSandbox(const JsonValue& raw, SandboxConfig* s) {
  ACTX_TRY(const JsonValue* v, ObjectOrNull(raw, "sandbox", "sandbox"));
  if (v == nullptr) return {};
  ACTX_TRY_VOID(ReadEnum(*v, "mode", "sandbox.mode", &s->mode));
  ACTX_TRY_VOID(ReadStringList(*v, "writable_roots", "sandbox.writable_roots", &s->writable_roots));
  for (auto& root : s->writable_roots) {
    auto norm = NormalizeAbsolute(root);
    if (!norm) return Invalid("sandbox.writable_roots entries must be absolute paths");
    root = *norm;
  }
  ACTX_TRY_VOID(ReadBool(*v, "network_access", "sandbox.network_access", &s->network_access));
  return {};
}

Result<void> ParseEnvironments(const JsonValue& raw, std::vector<EnvironmentConfig>* envs) {
  const JsonValue* v = raw.Find("environments");
  if (v == nullptr || !v->is_array() || v->items().empty()) {
    return Invalid("environments must be a non-empty array");
  }
  std::set<std::string> ids;
  for (std::size_t i = 0; i < v->items().size(); ++i) {
    const JsonValue& e = v->items()[i];
    std::string path = "environments[" + std::to_string(i) + "]";
    if (!e.is_object()) return Invalid(path + " must be an object");
    EnvironmentConfig env;
    ACTX_TRY_VOID(ReadString(e, "id", path + ".id", &env.id));
    if (env.id.empty()) return Invalid(path + ".id is required");
    if (!ids.insert(env.id).second) return Invalid("duplicate environment id: " + env.id);
    ACTX_TRY_VOID(ReadString(e, "cwd", path + ".cwd", &env.cwd));
    auto cwd = NormalizeAbsolute(env.cwd);
    if (!cwd) return Invalid(path + ".cwd must be an absolute path");
    env.cwd = *cwd;
    ACTX_TRY_VOID(ReadOptString(e, "shell", path + ".shell", &env.shell));
    ACTX_TRY_VOID(ReadEnum(e, "status", path + ".status", &env.status));
    ACTX_TRY_VOID(ReadString(e, "fs", path + ".fs", &env.fs));
    if (env.fs.empty()) return Invalid(path + ".fs must name a registered FileSystem");
    const JsonValue* sb = e.Find("sandboxed");
    if (sb != nullptr && !sb->is_null()) {
      if (!sb->is_bool()) return Invalid(path + ".sandboxed must be a boolean");
      env.sandboxed = sb->bool_value();
    }
    ACTX_TRY_VOID(ReadInt(e, "fs_epoch", path + ".fs_epoch", 0, &env.fs_epoch));
    envs->push_back(std::move(env));
  }
  return {};
}

Result<void> ParseAgentsMd(const JsonValue& raw, AgentsMdConfig* a) {
  const JsonValue* v = raw.Find("agents_md");
  if (v == nullptr) return {};
  ACTX_TRY(*a, AgentsMdConfigFromJson(*v, nullptr));
  return {};
}

Result<void> ParseSkills(const JsonValue& raw, std::vector<SkillConfig>* skills) {
  const JsonValue* v = raw.Find("skills");
  if (v == nullptr || v->is_null()) return {};
  if (!v->is_array()) return Invalid("skills must be an array");
  for (std::size_t i = 0; i < v->items().size(); ++i) {
    const JsonValue& s = v->items()[i];
    std::string path = "skills[" + std::to_string(i) + "]";
    if (!s.is_object()) return Invalid(path + " must be an object");
    SkillConfig skill;
    ACTX_TRY_VOID(ReadString(s, "name", path + ".name", &skill.name));
    ACTX_TRY_VOID(ReadOptString(s, "description", path + ".description", &skill.description));
    ACTX_TRY_VOID(ReadString(s, "path", path + ".path", &skill.path));
    if (skill.name.empty() || skill.path.empty()) return Invalid(path + " needs name and path");
    skills->push_back(std::move(skill));
  }
  return {};
}

Result<void> ParseTools(const JsonValue& raw, std::vector<HostToolConfig>* tools) {
  const JsonValue* v = raw.Find("tools");
  if (v == nullptr || v->is_null()) return {};
  if (!v->is_array()) return Invalid("tools must be an array");
  for (std::size_t i = 0; i < v->items().size(); ++i) {
    const JsonValue& t = v->items()[i];
    std::string path = "tools[" + std::to_string(i) + "]";
    if (!t.is_object()) return Invalid(path + " must be an object");
    HostToolConfig tool;
    ACTX_TRY_VOID(ReadString(t, "server", path + ".server", &tool.server));
    ACTX_TRY_VOID(ReadString(t, "name", path + ".name", &tool.name));
    if (tool.name.empty()) return Invalid(path + ".name is required");
    ACTX_TRY_VOID(ReadString(t, "description", path + ".description", &tool.description));
    const JsonValue* p = t.Find("parameters");
    if (p == nullptr || p->is_null()) {
      tool.parameters = JsonValue::Object();
      tool.parameters.Set("type", JsonValue::String("object"));
      tool.parameters.Set("properties", JsonValue::Object());
    } else if (!p->is_object()) {
      return Invalid(path + ".parameters must be an object");
    } else {
      tool.parameters = *p;
    }
    ACTX_TRY_VOID(ReadBool(t, "strict", path + ".strict", &tool.strict));
    tools->push_back(std::move(tool));
  }
  return {};
}

Result<void> ParseOptionalSections(const JsonValue& raw, SessionConfig* c) {
  ACTX_TRY(const JsonValue* ec, ObjectOrNull(raw, "environment_context", "environment_context"));
  if (ec != nullptr) {
    auto& e = c->environment_context;
    ACTX_TRY_VOID(
        ReadBool(*ec, "include_date", "environment_context.include_date", &e.include_date));
    ACTX_TRY_VOID(
        ReadOptString(*ec, "current_date", "environment_context.current_date", &e.current_date));
    ACTX_TRY_VOID(ReadOptString(*ec, "timezone", "environment_context.timezone", &e.timezone));
  }
  ACTX_TRY(const JsonValue* r, ObjectOrNull(raw, "reasoning", "reasoning"));
  if (r != nullptr) {
    ACTX_TRY_VOID(ReadOptEnum(*r, "effort", "reasoning.effort", &c->reasoning_effort));
    ACTX_TRY_VOID(ReadOptEnum(*r, "summary", "reasoning.summary", &c->reasoning_summary));
    if (c->reasoning_effort == ReasoningEffort::kNone) c->reasoning_effort.reset();
    if (c->reasoning_summary == ReasoningSummary::kNone) c->reasoning_summary.reset();
  }
  ACTX_TRY(const JsonValue* cp, ObjectOrNull(raw, "compaction", "compaction"));
  if (cp != nullptr) {
    ACTX_TRY_VOID(ReadEnum(*cp, "strategy", "compaction.strategy", &c->compaction.strategy));
    ACTX_TRY_VOID(ReadBool(*cp, "auto", "compaction.auto", &c->compaction.auto_compact));
    ACTX_TRY_VOID(ReadOptString(*cp, "prompt", "compaction.prompt", &c->compaction.prompt));
    ACTX_TRY_VOID(
        ReadInt(*cp, "cache_ttl_ms", "compaction.cache_ttl_ms", 0, &c->compaction.cache_ttl_ms));
    ACTX_TRY_VOID(
        ReadInt(*cp, "soft_limit_bp", "compaction.soft_limit_bp", 1, &c->compaction.soft_limit_bp));
    if (c->compaction.soft_limit_bp > 10000) {
      return Invalid("compaction.soft_limit_bp must be an integer from 1 to 10000");
    }
  }
  ACTX_TRY(const JsonValue* tf, ObjectOrNull(raw, "task_frontier", "task_frontier"));
  if (tf != nullptr) {
    auto& t = c->task_frontier;
    ACTX_TRY_VOID(ReadBool(*tf, "enabled", "task_frontier.enabled", &t.enabled));
    ACTX_TRY_VOID(ReadOptString(*tf, "goal", "task_frontier.goal", &t.goal));
    ACTX_TRY_VOID(ReadStringList(*tf, "rules", "task_frontier.rules", &t.rules));
  }
  ACTX_TRY(const JsonValue* cb, ObjectOrNull(raw, "context_budget", "context_budget"));
  if (cb != nullptr) {
    ACTX_TRY_VOID(ReadBool(*cb, "enabled", "context_budget.enabled", &c->context_budget.enabled));
  }
  return {};
}

// The provider keys (docs/providers.md): `provider`, `layout`, `max_output_tokens`,
// `anthropic`, `openai`, `chat`, `prewarm`, `cache_prices`.
Result<void> ParseProviderKeys(const JsonValue& raw, SessionConfig* c) {
  ACTX_TRY_VOID(ReadEnum(raw, "provider", "provider", &c->provider));
  ACTX_TRY_VOID(ReadEnum(raw, "layout", "layout", &c->layout));
  ACTX_TRY_VOID(ReadOptInt(raw, "max_output_tokens", "max_output_tokens", &c->max_output_tokens));
  ACTX_TRY(const JsonValue* a, ObjectOrNull(raw, "anthropic", "anthropic"));
  if (a != nullptr) {
    ACTX_TRY_VOID(ReadEnum(*a, "cache_ttl", "anthropic.cache_ttl", &c->anthropic.cache_ttl));
    ACTX_TRY_VOID(ReadOptInt(*a, "min_cacheable_tokens", "anthropic.min_cacheable_tokens",
                             &c->anthropic.min_cacheable_tokens));
    if (const JsonValue* edit = a->Find("context_editing")) {
      ACTX_TRY(std::string rendered, RenderClearToolUsesEdit(*edit, "anthropic.context_editing"));
      c->anthropic.context_edit = std::move(rendered);
    }
  }
  ACTX_TRY(const JsonValue* openai, ObjectOrNull(raw, "openai", "openai"));
  if (openai != nullptr) {
    ACTX_TRY_VOID(ReadEnum(*openai, "cache_mode", "openai.cache_mode", &c->openai.cache_mode));
    ACTX_TRY_VOID(ReadEnum(*openai, "cache_ttl", "openai.cache_ttl", &c->openai.cache_ttl));
  }
  ACTX_TRY_VOID(ReadEnum(raw, "prewarm", "prewarm", &c->prewarm));
  ACTX_TRY(const JsonValue* prices, ObjectOrNull(raw, "cache_prices", "cache_prices"));
  if (prices != nullptr) {
    if (auto read = ReadTypedPrices(*prices, "cache_prices", &c->cache_prices); !read) {
      return Invalid(read.error().message);
    }
  }
  ACTX_TRY_VOID(ReadOptString(raw, "base_url", "base_url", &c->base_url));
  ACTX_TRY(const JsonValue* features, ObjectOrNull(raw, "provider_features", "provider_features"));
  if (features != nullptr) {
    for (std::size_t i = 0; i < kProviderFeatureCount; ++i) {
      const auto f = static_cast<ProviderFeature>(i);
      const std::string_view name = ToWire(f);
      const JsonValue* v = features->Find(name);
      if (v == nullptr || v->is_null()) continue;
      if (!v->is_bool()) {
        return Invalid("provider_features." + std::string(name) + " must be a boolean or null");
      }
      c->provider_features[f] = v->bool_value();
    }
    for (const auto& m : features->members()) {
      if (!FromWire<ProviderFeature>(m.key)) {
        return Invalid("provider_features." + m.key + " is not a provider feature (" +
                       "cache_breakpoints, cache_diagnostics, tool_changes, system_messages, " +
                       "inband_compaction, prewarm, prompt_cache_key)");
      }
    }
  }
  ACTX_TRY(const JsonValue* chat, ObjectOrNull(raw, "chat", "chat"));
  if (chat != nullptr) {
    ACTX_TRY_VOID(
        ReadEnum(*chat, "developer_role", "chat.developer_role", &c->chat.developer_role));
  }
  if (c->provider != Provider::kResponses &&
      c->compaction.strategy == CompactionStrategy::kRemote) {
    return Invalid("compaction.strategy remote needs provider responses (responses/compact)");
  }
  return {};
}

}  // namespace

Result<SessionConfig> ParseSessionConfig(const JsonValue& raw, std::vector<Warning>* warnings) {
  if (!raw.is_object()) return Invalid("config must be a JSON object");
  SessionConfig c;
  ACTX_TRY_VOID(ReadString(raw, "session_id", "session_id", &c.session_id));
  if (c.session_id.empty()) return Invalid("session_id is required");
  ACTX_TRY_VOID(ParseModel(raw, &c.model));
  ACTX_TRY_VOID(ReadOptString(raw, "developer_instructions", "developer_instructions",
                              &c.developer_instructions));
  ACTX_TRY_VOID(ReadEnum(raw, "approval_policy", "approval_policy", &c.approval_policy));
  ACTX_TRY_VOID(ParseSandbox(raw, &c.sandbox));
  ACTX_TRY_VOID(ParseEnvironments(raw, &c.environments));
  ACTX_TRY_VOID(ReadEnum(raw, "trust", "trust", &c.trust));
  ACTX_TRY_VOID(ParseAgentsMd(raw, &c.agents_md));
  ACTX_TRY_VOID(ParseSkills(raw, &c.skills));
  ACTX_TRY_VOID(ReadBool(raw, "builtin_tools", "builtin_tools", &c.builtin_tools));
  ACTX_TRY_VOID(ParseTools(raw, &c.tools));
  ACTX_TRY_VOID(ReadEnum(raw, "tool_policy", "tool_policy", &c.tool_policy));
  ACTX_TRY_VOID(ParseOptionalSections(raw, &c));
  ACTX_TRY_VOID(ReadOptEnum(raw, "verbosity", "verbosity", &c.verbosity));
  ACTX_TRY_VOID(ReadOptEnum(raw, "service_tier", "service_tier", &c.service_tier));
  ACTX_TRY_VOID(ReadOptString(raw, "prompt_cache_key", "prompt_cache_key", &c.prompt_cache_key));
  ACTX_TRY_VOID(ReadInt(raw, "max_steps_per_turn", "max_steps_per_turn", 1, &c.max_steps_per_turn));
  ACTX_TRY_VOID(ReadInt(raw, "max_history_bytes", "max_history_bytes", 1, &c.max_history_bytes));
  ACTX_TRY_VOID(ParseProviderKeys(raw, &c));
  // Unset model.instructions → the base instructions (ours; "" explicitly sends none).
  const JsonValue* instructions = raw.Find("model")->Find("instructions");
  c.model.base_instructions = instructions == nullptr || instructions->is_null();
  if (c.model.base_instructions) c.model.instructions = BaseInstructions(c.builtin_tools);
  if (warnings != nullptr) {
    for (const auto& m : raw.members()) {
      bool known = false;
      for (auto k : kConfigKeys) known = known || m.key == k;
      if (!known) {
        warnings->push_back(
            {WarningCode::kUnknownConfigKey, "unknown config key ignored: " + m.key});
      }
    }
  }
  c.raw = raw;
  return c;
}

DialectOptions SessionConfig::DialectSettings() const {
  DialectOptions options;
  if (anthropic.min_cacheable_tokens) {
    options.min_cacheable_tokens = static_cast<std::uint64_t>(*anthropic.min_cacheable_tokens);
  }
  options.stable_ttl = anthropic.cache_ttl;
  return options;
}

}  // namespace agentctx
