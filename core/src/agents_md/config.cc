// SPDX-License-Identifier: MIT
// `agents_md` config parsing and equality (keys and defaults: docs/config.md).
#include "agents_md/config.h"

#include "support/paths.h"

namespace agentctx {

namespace {

Unexpected<Error> Invalid(std::string_view key, std::string_view what) {
  std::string message = "agents_md.";
  message.append(key.data(), key.size());
  message += " ";
  message.append(what.data(), what.size());
  return Fail(ErrorCode::kInvalidConfig, message);
}

Result<std::vector<std::string>> StringArray(const JsonValue& v, std::string_view key) {
  if (!v.is_array()) return Invalid(key, "must be an array of strings");
  std::vector<std::string> out;
  for (const JsonValue& item : v.items()) {
    if (!item.is_string()) return Invalid(key, "must be an array of strings");
    out.push_back(item.string_value());
  }
  return out;
}

}  // namespace

bool AgentsMdConfig::operator==(const AgentsMdConfig& other) const {
  return home_dir == other.home_dir && max_bytes == other.max_bytes &&
         root_markers == other.root_markers && fallback_filenames == other.fallback_filenames &&
         refresh == other.refresh;
}

bool EnvironmentSelection::SameSelection(const EnvironmentSelection& other) const {
  return id == other.id && cwd == other.cwd && fs_name == other.fs_name &&
         sandboxed == other.sandboxed && fs_epoch == other.fs_epoch;
}

Result<AgentsMdConfig> AgentsMdConfigFromJson(const JsonValue& value,
                                              std::vector<std::string>* unknown_keys) {
  AgentsMdConfig config;
  if (value.is_null()) return config;
  if (!value.is_object()) return Fail(ErrorCode::kInvalidConfig, "agents_md must be an object");
  for (const JsonMember& m : value.members()) {
    const JsonValue& v = m.value;
    if (v.is_null()) {
      if (m.key == "home_dir" || m.key == "max_bytes" || m.key == "root_markers" ||
          m.key == "fallback_filenames" || m.key == "refresh") {
        continue;  // defaults
      }
    }
    if (m.key == "home_dir") {
      if (!v.is_string()) return Invalid(m.key, "must be a string or null");
      auto normalized = NormalizeAbsolute(v.string_value());
      if (!normalized.has_value()) return Invalid(m.key, "must be an absolute path");
      config.home_dir = std::move(normalized).value();
    } else if (m.key == "max_bytes") {
      auto n = v.is_number() ? v.int_value() : std::nullopt;
      if (!n.has_value() || *n < 0) return Invalid(m.key, "must be a non-negative integer");
      config.max_bytes = static_cast<std::uint64_t>(*n);
    } else if (m.key == "root_markers") {
      ACTX_TRY(config.root_markers, StringArray(v, m.key));
    } else if (m.key == "fallback_filenames") {
      ACTX_TRY(config.fallback_filenames, StringArray(v, m.key));
    } else if (m.key == "refresh") {
      auto refresh = v.is_string() ? FromWire<AgentsMdRefresh>(v.string_value()) : std::nullopt;
      if (!refresh) return Invalid(m.key, "must be " + WireChoices<AgentsMdRefresh>());
      config.refresh = *refresh;
    } else if (unknown_keys != nullptr) {
      unknown_keys->push_back("agents_md." + m.key);
    }
  }
  return config;
}

JsonValue AgentsMdConfigToJson(const AgentsMdConfig& config) {
  JsonValue out = JsonValue::Object();
  out.Set("home_dir", config.home_dir ? JsonValue::String(*config.home_dir) : JsonValue());
  out.Set("max_bytes", JsonValue::RawNumber(std::to_string(config.max_bytes)));
  JsonValue markers = JsonValue::Array();
  for (const std::string& m : config.root_markers) markers.Push(JsonValue::String(m));
  out.Set("root_markers", std::move(markers));
  JsonValue fallbacks = JsonValue::Array();
  for (const std::string& f : config.fallback_filenames) fallbacks.Push(JsonValue::String(f));
  out.Set("fallback_filenames", std::move(fallbacks));
  out.Set("refresh", JsonValue::String(std::string(ToWire(config.refresh))));
  return out;
}

}  // namespace agentctx
