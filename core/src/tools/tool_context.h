// SPDX-License-Identifier: MIT
// What a built-in tool runs against: the primary environment's FileSystem and cwd,
// and the sandbox write policy. Tools are pure apart from FileSystem calls.
#pragma once

#include <string>

#include "agentctx/file_system.h"
#include "tools/sandbox_policy.h"

namespace agentctx {

struct ToolContext {
  FileSystem* fs = nullptr;  // the primary environment's FileSystem; not owned
  std::string primary_cwd;   // absolute, normalised
  SandboxPolicy sandbox;
};

}  // namespace agentctx
