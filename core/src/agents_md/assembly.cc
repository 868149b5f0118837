// SPDX-License-Identifier: MIT
// AGENTS.md assembly and fragment rendering. See assembly.h for the algorithm.
#include "agents_md/assembly.h"

namespace agentctx {

std::string_view AgentsMdSourceKindName(AgentsMdSourceKind kind) {
  switch (kind) {
    case AgentsMdSourceKind::kGlobal:
      return "global";
    case AgentsMdSourceKind::kProject:
      return "project";
    case AgentsMdSourceKind::kLocal:
      return "local";
    case AgentsMdSourceKind::kImport:
      return "import";
  }
  return "project";
}

std::optional<std::string> AssembleAgentsMdText(const std::optional<std::string>& global_text,
                                                const std::vector<AgentsMdEntry>& entries) {
  if (!global_text.has_value() && entries.empty()) return std::nullopt;
  bool labelled = false;
  for (const AgentsMdEntry& e : entries) {
    if (e.environment_id != entries.front().environment_id) labelled = true;
  }
  std::string out;
  bool have_piece = false;
  bool previous_is_global = false;
  if (global_text.has_value()) {
    out = *global_text;
    have_piece = true;
    previous_is_global = true;
  }
  const AgentsMdEntry* previous_entry = nullptr;
  for (const AgentsMdEntry& e : entries) {
    if (labelled) {
      if (previous_entry == nullptr || previous_entry->environment_id != e.environment_id) {
        if (have_piece) out += "\n\n";
        out += "for `";
        out += e.environment_id;
        out += "` with root ";
        out += e.cwd;
        have_piece = true;
      }
      if (have_piece) out += "\n\n";
    } else if (have_piece) {
      out += previous_is_global ? kProjectDocSeparator : std::string_view("\n\n");
    }
    out += e.contents;
    have_piece = true;
    previous_is_global = false;
    previous_entry = &e;
  }
  return out;
}

std::string RenderAgentsMdFragment(std::string_view cwd, std::string_view body) {
  std::string out = "# AGENTS.md instructions for ";
  out.append(cwd.data(), cwd.size());
  out += "\n\n<INSTRUCTIONS>\n";
  out.append(body.data(), body.size());
  out += "\n</INSTRUCTIONS>";
  return out;
}

}  // namespace agentctx
