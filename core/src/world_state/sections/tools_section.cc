// SPDX-License-Identifier: MIT
#include "world_state/sections/tools_section.h"

#include "support/utf8.h"

namespace agentctx {
namespace {

constexpr std::string_view kPendingHeader =
    "The following tools were added or changed and will become callable after the next context "
    "compaction:\n";
constexpr std::string_view kWithdrawnHeader =
    "The following tools are no longer available. Do not call them:\n";
constexpr std::size_t kDescriptionMaxChars = 250;

std::string PendingLine(const PendingTool& tool) {
  std::string_view d = tool.description;
  std::size_t nl = d.find('\n');
  if (nl != std::string_view::npos) d = d.substr(0, nl);
  d = FirstChars(TrimUnicode(d), kDescriptionMaxChars);
  std::string line = "- " + tool.name;
  if (!d.empty()) {
    line += ": ";
    line.append(d);
  }
  line += '\n';
  return line;
}

/// The notice keeping the first `keep` of `lines` (pending lines first).
std::string Assemble(const std::vector<std::string>& lines, std::size_t pending_count,
                     std::size_t keep) {
  std::string out = "<tools>\n";
  if (lines.empty()) {
    out += "No tool changes are pending.\n";
  } else {
    for (std::size_t i = 0; i < keep; ++i) {
      if (i == 0 && pending_count > 0) out.append(kPendingHeader);
      if (i == pending_count) out.append(kWithdrawnHeader);
      out += lines[i];
    }
    if (keep < lines.size()) {
      out += "... " + std::to_string(lines.size() - keep) + " additional tools omitted.\n";
    }
  }
  out += "</tools>";
  return out;
}

std::vector<std::string> NamesOf(const JsonValue& stored, std::string_view key) {
  std::vector<std::string> names;
  const JsonValue* arr = stored.Find(key);
  if (arr == nullptr || !arr->is_array()) return names;
  for (const JsonValue& v : arr->items()) {
    if (v.is_string()) names.push_back(v.string_value());
  }
  return names;
}

bool IsStringArrayOrAbsent(const JsonValue* v) {
  if (v == nullptr || v->is_null()) return true;
  if (!v->is_array()) return false;
  for (const JsonValue& item : v->items()) {
    if (!item.is_string()) return false;
  }
  return true;
}

}  // namespace

std::string RenderToolsNotice(const std::vector<PendingTool>& pending,
                              const std::vector<std::string>& withdrawn) {
  std::vector<std::string> lines;
  for (const PendingTool& tool : pending) lines.push_back(PendingLine(tool));
  for (const std::string& name : withdrawn) lines.push_back("- " + name + "\n");
  std::string full = Assemble(lines, pending.size(), lines.size());
  if (full.size() <= kToolsNoticeCapBytes) return full;
  // Larger `keep` never gives a shorter text (a line is longer than the digits it saves).
  std::size_t keep = 0;
  while (keep + 1 < lines.size() &&
         Assemble(lines, pending.size(), keep + 1).size() <= kToolsNoticeCapBytes) {
    ++keep;
  }
  return Assemble(lines, pending.size(), keep);
}

std::string RenderToolsRemovedNotice(const std::vector<std::string>& removed) {
  std::string out = "<tools>\n";
  out.append(kToolsRemovedHeader);
  out.push_back('\n');
  for (const std::string& name : removed) out += "- " + name + "\n";
  out += "</tools>";
  return out;
}

std::optional<Markers> ToolsSection::markers() const { return kToolsMarkers; }

JsonValue ToolsSection::Snapshot(const WorldInputs& inputs) const {
  JsonValue v = JsonValue::Object();
  v.Set("advertised", JsonValue::String(inputs.tools.advertised));
  if (!inputs.tools.pending.empty()) {
    JsonValue names = JsonValue::Array();
    for (const PendingTool& t : inputs.tools.pending) names.Push(JsonValue::String(t.name));
    v.Set("pending", std::move(names));
  }
  if (!inputs.tools.withdrawn.empty()) {
    JsonValue names = JsonValue::Array();
    for (const std::string& n : inputs.tools.withdrawn) names.Push(JsonValue::String(n));
    v.Set("withdrawn", std::move(names));
  }
  return v;
}

bool ToolsSection::CanRestore(const JsonValue& stored) const {
  return stored.is_object() && stored.GetString("advertised").has_value() &&
         IsStringArrayOrAbsent(stored.Find("pending")) &&
         IsStringArrayOrAbsent(stored.Find("withdrawn"));
}

std::optional<Fragment> ToolsSection::RenderDiff(const PreviousState& prev,
                                                 const WorldInputs& inputs) const {
  if (inputs.tools.policy != ToolPolicy::kDefer) return std::nullopt;
  std::vector<std::string> prev_pending;
  std::vector<std::string> prev_withdrawn;
  if (prev.is_known()) {
    prev_pending = NamesOf(prev.value, "pending");
    prev_withdrawn = NamesOf(prev.value, "withdrawn");
  }
  std::vector<std::string> pending;
  for (const PendingTool& t : inputs.tools.pending) pending.push_back(t.name);
  if (pending == prev_pending && inputs.tools.withdrawn == prev_withdrawn) return std::nullopt;
  return Fragment{Role::kDeveloper,
                  RenderToolsNotice(inputs.tools.pending, inputs.tools.withdrawn)};
}

}  // namespace agentctx
