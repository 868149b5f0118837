// SPDX-License-Identifier: MIT
// The base instructions (ours): the `instructions` a session sends when the config leaves
// `model.instructions` unset (absent or null). An explicit string — `""` included, which sends
// none — overrides them per model. The text lives in core/prompts/base_instructions.md and, when
// `builtin_tools` is on, core/prompts/base_instructions_tools.md is appended (it describes the
// built-in tools, so a session without them does not hear about tools it cannot call).
// Invariants: pure, deterministic, identical on every target (embedded at build time).
#pragma once

#include <string>

namespace agentctx {

/// The base instructions for a session with (or without) the built-in tools.
std::string BaseInstructions(bool builtin_tools);

}  // namespace agentctx
