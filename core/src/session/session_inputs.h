// SPDX-License-Identifier: MIT
// Pure translations: the wire inputs of `submit` and `compact` to typed values (checked once, at
// the engine boundary; the Session takes only the typed form), and the session's config to the
// inputs of the other modules: the AGENTS.md manager's selections (docs/agents-md-refresh.md),
// the world-state inputs (world_state/world_inputs.h), and the FileSystem name check.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "agents_md/types.h"
#include "prompt/tool_list.h"
#include "protocol/json_value.h"
#include "session/config.h"
#include "world_state/world_inputs.h"

namespace agentctx {

using FileSystemLookup = std::map<std::string, std::shared_ptr<FileSystem>>;

/// Every environment's `fs` must name a registered FileSystem (else kInvalidConfig).
Result<void> CheckFileSystems(const SessionConfig& config, const FileSystemLookup& fs);
/// The largest `submit` text (and each image URL) accepted: 16 MiB. A larger one is
/// `invalid_input` and changes nothing (far beyond any context window; bounded memory).
inline constexpr std::size_t kMaxSubmitBytes = std::size_t{16} * 1024 * 1024;

/// `submit`'s input: the user message text, image URLs, the turn id (default
/// `turn-<n>`).
struct SubmitInput {
  std::string text;
  std::vector<std::string> images;
  std::optional<std::string> turn_id;
};

/// `{"text", "images"?: [{"image_url"}], "turn_id"?}` -> SubmitInput; kInvalidInput naming the
/// problem (a missing text, a text or URL over kMaxSubmitBytes, an empty turn id).
Result<SubmitInput> SubmitInputFromJson(const JsonValue& input);
/// `compact`'s `{"turn_id"?}` -> the turn id, if any; kInvalidInput when it is not a string.
Result<std::optional<std::string>> CompactTurnIdFromJson(const JsonValue& input);
/// The AGENTS.md manager inputs: ready environments in order, trust, agents_md config.
AgentsMdInputs AgentsInputsFrom(const SessionConfig& config, const FileSystemLookup& fs);
/// The world-state inputs of the current step.
WorldInputs WorldInputsFrom(const SessionConfig& config, const AgentsMdResult& agents,
                            const std::optional<std::string>& previous_turn_model,
                            const ToolList& advertised, const ToolList& current,
                            ToolPolicy tool_policy);

}  // namespace agentctx
