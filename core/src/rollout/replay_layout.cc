// SPDX-License-Identifier: MIT
// Codex request layouts for replay; see replay_layout.h.
#include "rollout/replay_layout.h"

#include <utility>
#include <vector>

#include "support/uuid5.h"

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

bool BaseInstructionsFromModel(const JsonValue& session_meta) {
  const JsonValue* base = session_meta.Find("base_instructions");
  if (base == nullptr || !base->is_object()) return false;
  const JsonValue* provenance = base->Find("provenance");
  return provenance != nullptr && provenance->GetString("type").value_or("") == "model";
}

namespace {

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

std::string_view TrimEnd(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n' ||
                        s.back() == '\r' || s.back() == '\v' || s.back() == '\f')) {
    s.remove_suffix(1);
  }
  return s;
}

bool IsBlank(std::string_view s) { return TrimEnd(s).empty(); }

// The lines of `text`, each with its LF (the last one without, if the text does not end in LF).
std::vector<std::string_view> Lines(std::string_view text) {
  std::vector<std::string_view> out;
  while (!text.empty()) {
    std::size_t lf = text.find('\n');
    std::size_t n = lf == std::string_view::npos ? text.size() : lf + 1;
    out.push_back(text.substr(0, n));
    text.remove_prefix(n);
  }
  return out;
}

}  // namespace

std::string WithoutUpdatePlanInstructions(std::string_view text) {
  std::vector<std::string_view> lines = Lines(text);
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < lines.size()) {
    std::string_view line = TrimEnd(lines[i]);
    if (line == "## Planning" || line == "## `update_plan`" || line == "## Plan tool" ||
        line == "## Plan Mode vs update_plan tool") {
      std::size_t end = i + 1;
      while (end < lines.size() && !StartsWith(lines[end], "# ") &&
             !StartsWith(lines[end], "## ")) {
        ++end;
      }
      bool checklist = line != "## Planning";
      for (std::size_t j = i; j < end && !checklist; ++j) {
        checklist = StartsWith(lines[j], "You have access to an `update_plan` tool") ||
                    StartsWith(lines[j], "When `update_plan` is available, follow this section");
      }
      if (checklist) {
        i = end;
        continue;
      }
    }
    if (line == "Progress visibility:" && i + 1 < lines.size() &&
        StartsWith(lines[i + 1], "If update_plan is available")) {
      i += 2;
      if (i < lines.size() && IsBlank(lines[i])) ++i;
      continue;
    }
    if (StartsWith(line, "- Use the plan tool ") ||
        StartsWith(line, "- If you create a checklist or task list,")) {
      ++i;
      while (i < lines.size() && (StartsWith(lines[i], " ") || StartsWith(lines[i], "\t"))) ++i;
      continue;
    }
    out.append(lines[i]);
    ++i;
  }
  return out;
}

std::string BaseInstructionsItemId(std::string_view thread_id, std::string_view text) {
  if (thread_id.empty()) return {};
  UuidBytes name_space = Uuid5(UuidNamespaceOid(), thread_id);
  return "msg_" + UuidString(Uuid5(name_space, text));
}

JsonValue BaseInstructionsMessage(std::string_view text, std::string_view id) {
  JsonValue part = JsonValue::Object();
  part.Set("type", JsonValue::String("input_text"));
  part.Set("text", JsonValue::String(std::string(text)));
  JsonValue content = JsonValue::Array();
  content.Push(std::move(part));
  JsonValue message = JsonValue::Object();
  message.Set("type", JsonValue::String("message"));
  if (!id.empty()) message.Set("id", JsonValue::String(std::string(id)));
  message.Set("role", JsonValue::String("developer"));
  message.Set("content", std::move(content));
  return message;
}

}  // namespace agentctx
