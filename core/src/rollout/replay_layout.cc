// SPDX-License-Identifier: MIT
// Codex request layouts for replay; see replay_layout.h.
#include "rollout/replay_layout.h"

#include <utility>

namespace agentctx {

std::optional<std::array<std::uint64_t, 3>> ParseCliVersion(std::string_view version) {
  std::array<std::uint64_t, 3> out{};
  std::size_t pos = 0;
  for (std::size_t part = 0; part < 3; ++part) {
    std::size_t start = pos;
    std::uint64_t v = 0;
    while (pos < version.size() && version[pos] >= '0' && version[pos] <= '9' && pos - start < 9) {
      v = v * 10 + static_cast<std::uint64_t>(version[pos] - '0');
      ++pos;
    }
    if (pos == start) return std::nullopt;
    out[part] = v;
    if (part < 2) {
      if (pos >= version.size() || version[pos] != '.') return std::nullopt;
      ++pos;
    }
  }
  if (pos < version.size() && version[pos] != '-' && version[pos] != '+') return std::nullopt;
  return out;
}

bool SendsBaseInstructionsAsDeveloperMessage(std::string_view cli_version) {
  std::optional<std::array<std::uint64_t, 3>> v = ParseCliVersion(cli_version);
  return v && ((*v)[0] > 0 || (*v)[1] >= 169);
}

std::optional<std::string> BaseInstructionsText(const JsonValue& session_meta) {
  const JsonValue* base = session_meta.Find("base_instructions");
  if (base == nullptr) return std::nullopt;
  std::optional<std::string_view> text = base->is_string()
                                             ? std::optional<std::string_view>(base->string_value())
                                             : base->GetString("text");
  if (!text || text->empty()) return std::nullopt;
  return std::string(*text);
}

bool IsContextFragment(const JsonValue& item) {
  if (item.GetString("type").value_or("") != "message") return false;
  std::string_view role = item.GetString("role").value_or("");
  if (role == "developer") return true;
  if (role != "user") return false;
  const JsonValue* content = item.Find("content");
  if (content == nullptr || !content->is_array() || content->items().empty()) return false;
  std::string_view text = content->items()[0].GetString("text").value_or("");
  for (std::string_view marker :
       {"# AGENTS.md instructions", "<environment_context>", "<user_instructions>", "<skill>",
        "<user_shell_command>", "<turn_aborted>", "<subagent_notification>"}) {
    if (text.substr(0, marker.size()) == marker) return true;
  }
  return false;
}

JsonValue BundleMessages(const JsonValue& first, const JsonValue& second) {
  JsonValue out = first;
  JsonValue* content = out.Find("content");
  const JsonValue* more = second.Find("content");
  if (content == nullptr || !content->is_array() || more == nullptr || !more->is_array()) {
    return out;
  }
  for (const JsonValue& part : more->items()) content->Push(part);
  return out;
}

JsonValue BaseInstructionsMessage(std::string_view text) {
  JsonValue part = JsonValue::Object();
  part.Set("type", JsonValue::String("input_text"));
  part.Set("text", JsonValue::String(std::string(text)));
  JsonValue content = JsonValue::Array();
  content.Push(std::move(part));
  JsonValue message = JsonValue::Object();
  message.Set("type", JsonValue::String("message"));
  message.Set("role", JsonValue::String("developer"));
  message.Set("content", std::move(content));
  return message;
}

}  // namespace agentctx
