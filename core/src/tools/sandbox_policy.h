// SPDX-License-Identifier: MIT
// The sandbox write policy the core enforces for every mutating built-in tool (`write_file`,
// `edit_file`, `apply_patch`) on every FileSystem (docs/tools.md#sandbox); reads are never
// restricted by policy (upstream modes only restrict writes).
// Rules: read-only → `<tool> refused: sandbox_mode is read-only`; workspace-write → the
// path must equal or lie under (segment boundary) a writable root, roots = sorted,
// de-duplicated {primary cwd} ∪ writable_roots, else
// `<tool> refused: <path> is outside the writable roots`; danger-full-access → allowed.
// A sandboxed FileSystem may still refuse on its own (its error is reported as a failure).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "agentctx/wire_enums.h"

namespace agentctx {

struct SandboxPolicy {
  SandboxMode mode = SandboxMode::kWorkspaceWrite;
  std::vector<std::string> writable_roots;  // absolute paths (normalised when checked)
  bool network_access = false;
};

/// Sorted (bytes), de-duplicated, normalised {primary_cwd} ∪ writable_roots;
/// roots that are not absolute paths are skipped.
std::vector<std::string> EffectiveWritableRoots(const SandboxPolicy& policy,
                                                std::string_view primary_cwd);

/// The refusal text of `tool` for writing normalised `path`, or nullopt when the policy allows it.
std::optional<std::string> CheckWritePolicy(const SandboxPolicy& policy,
                                            std::string_view primary_cwd, std::string_view path,
                                            std::string_view tool = "write_file");
/// `<tool> refused: sandbox_mode is read-only` when the policy is read-only, else nullopt.
std::optional<std::string> CheckReadOnly(const SandboxPolicy& policy, std::string_view tool);

}  // namespace agentctx
