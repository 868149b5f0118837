// SPDX-License-Identifier: MIT
// Sandbox write policy (docs/tools.md#sandbox); see sandbox_policy.h.
#include "tools/sandbox_policy.h"

#include <algorithm>

#include "support/paths.h"

namespace agentctx {

std::vector<std::string> EffectiveWritableRoots(const SandboxPolicy& policy,
                                                std::string_view primary_cwd) {
  std::vector<std::string> roots;
  auto add = [&roots](std::string_view root) {
    Result<std::string> normal = NormalizeAbsolute(root);
    if (normal.has_value()) roots.push_back(std::move(normal).value());
  };
  add(primary_cwd);
  for (const std::string& root : policy.writable_roots) add(root);
  std::sort(roots.begin(), roots.end());
  roots.erase(std::unique(roots.begin(), roots.end()), roots.end());
  return roots;
}

std::optional<std::string> CheckReadOnly(const SandboxPolicy& policy, std::string_view tool) {
  if (policy.mode != SandboxMode::kReadOnly) return std::nullopt;
  return std::string(tool) + " refused: sandbox_mode is read-only";
}

std::optional<std::string> CheckWritePolicy(const SandboxPolicy& policy,
                                            std::string_view primary_cwd, std::string_view path,
                                            std::string_view tool) {
  switch (policy.mode) {
    case SandboxMode::kDangerFullAccess:
      return std::nullopt;
    case SandboxMode::kReadOnly:
      return CheckReadOnly(policy, tool);
    case SandboxMode::kWorkspaceWrite:
      break;
  }
  for (const std::string& root : EffectiveWritableRoots(policy, primary_cwd)) {
    if (IsUnder(path, root)) return std::nullopt;
  }
  return std::string(tool) + " refused: " + std::string(path) + " is outside the writable roots";
}

}  // namespace agentctx
