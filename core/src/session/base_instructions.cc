// SPDX-License-Identifier: MIT
// The base instructions (ours); see base_instructions.h.
#include "session/base_instructions.h"

#include <string_view>

namespace agentctx {
namespace {
#include "agentctx/prompts.inc"
}  // namespace

std::string BaseInstructions(bool builtin_tools) {
  std::string text(kBASE_INSTRUCTIONS);
  if (builtin_tools) text.append(kBASE_INSTRUCTIONS_TOOLS);
  return text;
}

}  // namespace agentctx
