// SPDX-License-Identifier: MIT
// Pure translations from the session's config to the inputs of the other modules: the
// AGENTS.md manager's selections (SPEC §5), the world-state inputs (SPEC §6.1), the user message
// of `submit` (SPEC §2.1), and the FileSystem name check.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>

#include "agents_md/types.h"
#include "prompt/tool_list.h"
#include "protocol/json_value.h"
#include "session/config.h"
#include "world_state/world_inputs.h"

namespace agentctx {

using FileSystemLookup = std::map<std::string, std::shared_ptr<FileSystem>>;

/// Every environment's `fs` must name a registered FileSystem (else kInvalidConfig).
Result<void> CheckFileSystems(const SessionConfig& config, const FileSystemLookup& fs);
/// `{"text", "images"?: [{"image_url"}], "turn_id"?}` -> the user message item (SPEC §2.1).
/// The largest `submit` text (and each image URL) accepted: 16 MiB. A larger one is
/// `invalid_input` and changes nothing (far beyond any context window; bounded memory).
inline constexpr std::size_t kMaxSubmitBytes = std::size_t{16} * 1024 * 1024;

Result<JsonValue> UserMessageFromInput(const JsonValue& input);
/// The AGENTS.md manager inputs: ready environments in order, trust, agents_md config.
AgentsMdInputs AgentsInputsFrom(const SessionConfig& config, const FileSystemLookup& fs);
/// The world-state inputs of the current step.
WorldInputs WorldInputsFrom(const SessionConfig& config, const AgentsMdResult& agents,
                            const std::optional<std::string>& previous_turn_model,
                            const ToolList& advertised, const ToolList& current);

}  // namespace agentctx
