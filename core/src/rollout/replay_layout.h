// SPDX-License-Identifier: MIT
// Replay: how each Codex version laid out the requests its rollouts record (SPEC §13.4,
// issue 13). Pure helpers for replay.cc.
// Layouts:
//  - 2025 header layout and CLI < 0.105 (`session_meta.instructions` = user instructions,
//    already recorded as items): no instructions are reconstructed.
//  - CLI 0.105–0.168 (`session_meta.base_instructions.text`): the base instructions are the
//    request's `instructions` field; items are sent as recorded (0.105 records one message per
//    fragment, 0.118+ already bundles them).
//  - CLI ≥ 0.169: the base instructions are sent as the first `input` item, a developer message
//    with one `input_text` part, and no `instructions` field; consecutive context fragments of
//    one role (developer messages; user messages that are context fragments, see
//    IsContextFragment) recorded with no request in between are sent as one message whose
//    content is their parts in order.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "protocol/json_value.h"

namespace agentctx {

/// `major.minor.patch` (a `-suffix` ignored); nullopt when not of that form.
std::optional<std::array<std::uint64_t, 3>> ParseCliVersion(std::string_view version);

/// True from Codex CLI 0.169 on: base instructions as the first developer message, fragments
/// bundled per role.
bool SendsBaseInstructionsAsDeveloperMessage(std::string_view cli_version);

/// `session_meta.base_instructions.text` (or a plain string there), if present and non-empty.
std::optional<std::string> BaseInstructionsText(const JsonValue& session_meta);

/// A message the CLI injects as context rather than a person's prompt: any developer message,
/// or a user message whose first text part opens with a context marker (`# AGENTS.md
/// instructions`, `<environment_context>`, `<user_instructions>`, `<skill>`,
/// `<user_shell_command>`, `<turn_aborted>`, `<subagent_notification>`).
bool IsContextFragment(const JsonValue& item);

/// `first` with the content parts of `second` appended (same role; keys of `first` kept).
JsonValue BundleMessages(const JsonValue& first, const JsonValue& second);

/// The developer message carrying base instructions: {"type":"message","role":"developer",
/// "content":[{"type":"input_text","text":text}]}.
JsonValue BaseInstructionsMessage(std::string_view text);

}  // namespace agentctx
