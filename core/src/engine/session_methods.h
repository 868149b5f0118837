// SPDX-License-Identifier: MIT
// Session-handle methods of the facade (docs/protocol.md): `session.start`, `submit`, `deliver`,
// `update`, `tick`, `interrupt`, `retry` (mutating: value `{"effects":[…]}`) and the queries
// `history`, `world_state`, `instruction_sources`, `prompt_preview`, `cache_summary`, `stats`,
// `inspect`. Every input is a JSON object; `now_ms` (integer, default 0) is the clock input.
// Large bytes cross as attachments (agentctx/engine.h): model_request and prompt_preview
// bodies go out by reference; `session.resume`'s `rollout` and any string inside a `deliver`
// input may come in by reference.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "agentctx/file_system.h"
#include "engine/attachments.h"
#include "session/session.h"

namespace agentctx {

struct SessionSlot {
  std::map<std::string, std::shared_ptr<FileSystem>> file_systems;
  std::unique_ptr<Session> session;
  OutputAttachments attachments;           // of the last call on this handle
  std::vector<std::string> persist_lines;  // the last call's persist effect (Engine::PersistLines)
};

/// Dispatches one session method; returns the envelope. `inputs` are the call's input
/// attachments; output attachments replace slot->attachments.
std::string CallSession(SessionSlot* slot, std::string_view method, std::string_view input_json,
                        const std::vector<std::string_view>& inputs);

}  // namespace agentctx
