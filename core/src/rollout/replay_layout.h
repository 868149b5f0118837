// SPDX-License-Identifier: MIT
// Replay: how each Codex version laid out the requests its rollouts record (docs/replay.md).
// Pure helpers for replay.cc.
// Layouts:
//  - 2025 header layout and CLI < 0.105 (`session_meta.instructions` = user instructions,
//    already recorded as items): no instructions are reconstructed.
//  - CLI 0.105–0.168 (`session_meta.base_instructions.text`): the base instructions are the
//    request's `instructions` field; items are sent as recorded (0.105 records one message per
//    fragment, 0.118+ already bundles them).
//  - CLI ≥ 0.169: the base instructions are sent as the first `input` item, a developer message
//    {"type":"message","id":"msg_<uuid>","role":"developer","content":[{"type":"input_text",
//    "text":T}]} and no `instructions` field; consecutive context fragments of one role
//    (developer messages; user messages that are context fragments, see IsContextFragment)
//    recorded with no request in between are sent as one message whose content is their parts
//    in order. T is what the CLI renders for the request, not always what session_meta records:
//    text the model catalog supplied (`provenance.type` "model") goes out without its
//    update_plan guidance while that tool is off, its default (WithoutUpdatePlanInstructions);
//    custom instructions go out unchanged. The id is derived so that it is the same on every
//    request of the thread: UUIDv5 of T's bytes in the namespace UUIDv5(OID namespace, thread
//    id), the thread id being `session_meta.id` as recorded (BaseInstructionsItemId).
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

/// True when `session_meta.base_instructions.provenance.type` is "model": the text came from
/// the model catalog, so the CLI may edit it per request (WithoutUpdatePlanInstructions).
bool BaseInstructionsFromModel(const JsonValue& session_meta);

/// `text` without the guidance for the update_plan (checklist) tool, as the CLI sends catalog
/// instructions while that tool is off. Line by line (a line keeps its LF):
///  - a heading line (trailing whitespace ignored) `## \`update_plan\``, `## Plan tool` or
///    `## Plan Mode vs update_plan tool` is dropped with everything up to the next line that
///    starts with `# ` or `## `; so is `## Planning`, but only when a line of that section
///    starts with "You have access to an `update_plan` tool" or "When `update_plan` is
///    available, follow this section" (other planning advice stays);
///  - `Progress visibility:` directly followed by a line starting "If update_plan is
///    available" is dropped with that line and one blank line after them;
///  - a line starting `- Use the plan tool ` or `- If you create a checklist or task list,` is
///    dropped with the indented (space or tab) lines that follow it.
/// Everything else is kept byte for byte.
std::string WithoutUpdatePlanInstructions(std::string_view text);

/// The id the CLI gives the base-instructions message: "msg_" + UUIDv5(text) in the namespace
/// UUIDv5(OID namespace, thread_id). Empty when `thread_id` is empty.
std::string BaseInstructionsItemId(std::string_view thread_id, std::string_view text);

/// The developer message carrying base instructions: {"type":"message","id":id (omitted when
/// empty),"role":"developer","content":[{"type":"input_text","text":text}]}.
JsonValue BaseInstructionsMessage(std::string_view text, std::string_view id = {});

}  // namespace agentctx
