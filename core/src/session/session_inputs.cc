// SPDX-License-Identifier: MIT
#include "session/session_inputs.h"

#include "protocol/items.h"

namespace agentctx {

Result<void> CheckFileSystems(const SessionConfig& config, const FileSystemLookup& fs) {
  for (std::size_t i = 0; i < config.environments.size(); ++i) {
    const auto& env = config.environments[i];
    if (fs.find(env.fs) == fs.end()) {
      return Fail(ErrorCode::kInvalidConfig, "environments[" + std::to_string(i) +
                                                 "].fs names no registered FileSystem: " + env.fs);
    }
  }
  return {};
}

Result<SubmitInput> SubmitInputFromJson(const JsonValue& input) {
  if (!input.is_object()) return Fail(ErrorCode::kInvalidInput, "submit input must be an object");
  auto text = input.GetString("text");
  if (!text) return Fail(ErrorCode::kInvalidInput, "submit input needs a string `text`");
  if (text->size() > kMaxSubmitBytes) {
    return Fail(ErrorCode::kInvalidInput, "submit `text` is " + std::to_string(text->size()) +
                                              " bytes; the limit is " +
                                              std::to_string(kMaxSubmitBytes) + " (16 MiB)");
  }
  std::vector<std::string> images;
  if (const JsonValue* list = input.Find("images"); list != nullptr && !list->is_null()) {
    if (!list->is_array()) return Fail(ErrorCode::kInvalidInput, "`images` must be an array");
    for (const auto& image : list->items()) {
      auto url = image.GetString("image_url");
      if (!url) return Fail(ErrorCode::kInvalidInput, "each image needs a string `image_url`");
      if (url->size() > kMaxSubmitBytes) {
        return Fail(ErrorCode::kInvalidInput, "an `image_url` is over the 16 MiB limit");
      }
      images.emplace_back(*url);
    }
  }
  SubmitInput out{std::string(*text), std::move(images), std::nullopt};
  if (const JsonValue* id = input.Find("turn_id"); id != nullptr && !id->is_null()) {
    if (!id->is_string() || id->string_value().empty()) {
      return Fail(ErrorCode::kInvalidInput, "`turn_id` must be a non-empty string");
    }
    out.turn_id = id->string_value();
  }
  return out;
}

Result<std::optional<std::string>> CompactTurnIdFromJson(const JsonValue& input) {
  const JsonValue* id = input.is_object() ? input.Find("turn_id") : nullptr;
  if (id == nullptr || id->is_null()) return std::optional<std::string>();
  if (!id->is_string())
    return Fail(ErrorCode::kInvalidInput, "compact: `turn_id` must be a string");
  return std::optional<std::string>(id->string_value());
}

AgentsMdInputs AgentsInputsFrom(const SessionConfig& config, const FileSystemLookup& fs) {
  AgentsMdInputs in;
  for (const auto& env : config.environments) {
    EnvironmentSelection sel;
    sel.id = env.id;
    sel.cwd = env.cwd;
    sel.fs_name = env.fs;
    auto it = fs.find(env.fs);
    sel.fs = it == fs.end() ? nullptr : it->second.get();
    sel.sandboxed = env.sandboxed ? *env.sandboxed : (sel.fs != nullptr && sel.fs->Sandboxed());
    sel.fs_epoch = static_cast<std::uint64_t>(env.fs_epoch);
    sel.ready = env.status == EnvironmentStatus::kAvailable;
    in.environments.push_back(std::move(sel));
  }
  in.trusted = config.trust == Trust::kTrusted;
  in.config = config.agents_md;
  return in;
}

WorldInputs WorldInputsFrom(const SessionConfig& config, const AgentsMdResult& agents,
                            const std::optional<std::string>& previous_turn_model,
                            const ToolList& advertised, const ToolList& current,
                            ToolPolicy tool_policy) {
  WorldInputs w;
  w.model.slug = config.model.slug;
  w.model.instructions = config.model.instructions;
  w.previous_turn_model = previous_turn_model;
  w.sandbox.mode = config.sandbox.mode;
  w.sandbox.writable_roots = config.sandbox.writable_roots;
  w.sandbox.network_access = config.sandbox.network_access;
  w.approval_policy = config.approval_policy;
  w.developer_instructions = config.developer_instructions;
  w.agents_md.directory = config.environments[0].cwd;
  w.agents_md.text = agents.text;
  for (const auto& s : config.skills) w.skills.push_back({s.name, s.description, s.path});
  for (const auto& e : config.environments) {
    w.environments.push_back({e.id, e.cwd, e.status, e.shell});
  }
  w.environment_context.include_date = config.environment_context.include_date;
  w.environment_context.current_date = config.environment_context.current_date;
  w.environment_context.timezone = config.environment_context.timezone;
  w.tools.policy = tool_policy;  // the policy in effect (native acts as defer without a channel)
  w.tools.advertised = advertised.array_sha1;
  if (w.tools.policy == ToolPolicy::kDefer) {
    for (const auto& t : current.tools) {
      const ToolEntry* frozen = advertised.FindAdvertised(t.advertised_name);
      if (frozen == nullptr || frozen->spec_bytes != t.spec_bytes) {
        w.tools.pending.push_back({t.advertised_name, t.description});
      }
    }
    for (const auto& t : advertised.tools) {
      if (current.FindAdvertised(t.advertised_name) == nullptr) {
        w.tools.withdrawn.push_back(t.advertised_name);
      }
    }
  }
  if (const JsonValue* custom = config.raw.Find("custom"); custom != nullptr) w.custom = *custom;
  return w;
}

}  // namespace agentctx
