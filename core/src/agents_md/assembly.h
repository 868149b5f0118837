// SPDX-License-Identifier: MIT
// AGENTS.md text assembly and the user fragment that carries it (docs/agents-md.md).
// Algorithm:
//  1. Legacy layout (entries from <= 1 environment): global text, then each entry; before an
//     entry write "\n\n--- project-doc ---\n\n" when the previous piece is the global text,
//     else "\n\n".
//  2. Labelled layout (entries from 2+ environments): pieces joined by "\n\n"; the first entry
//     of each consecutive same-environment run is preceded by
//     "for `<environment_id>` with root <cwd>" + "\n\n".
//  3. No global text and no entries -> none.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "agents_md/types.h"

namespace agentctx {

inline constexpr std::string_view kProjectDocSeparator = "\n\n--- project-doc ---\n\n";
/// Upstream notices the world-state `agents_md` section appends when the text changes or goes
/// away (docs/agents-md-refresh.md).
inline constexpr std::string_view kAgentsMdReplacementNotice =
    "These AGENTS.md instructions replace all previously provided AGENTS.md instructions.";
/// The replacement notice as a system message of its own, after the new text (world_state.h).
inline constexpr std::string_view kAgentsMdSystemReplacementNotice =
    "The latest AGENTS.md instructions replace all previously provided AGENTS.md instructions.";
inline constexpr std::string_view kAgentsMdRemovalNotice =
    "The previously provided AGENTS.md instructions no longer apply.";

/// The assembled text, or none when there is no global text and no entry.
std::optional<std::string> AssembleAgentsMdText(const std::optional<std::string>& global_text,
                                                const std::vector<AgentsMdEntry>& entries);

/// `# AGENTS.md instructions for <cwd>\n\n<INSTRUCTIONS>\n` + body + `\n</INSTRUCTIONS>`
/// (role user). `cwd` is the primary environment's cwd; `body` the text or a notice.
std::string RenderAgentsMdFragment(std::string_view cwd, std::string_view body);

}  // namespace agentctx
