// SPDX-License-Identifier: MIT
// The sandbox modes of SPEC §2.2, shared by the tools' write policy and the world-state
// permissions section (one definition; both modules depend on protocol).
#pragma once

namespace agentctx {

enum class SandboxMode { kReadOnly, kWorkspaceWrite, kDangerFullAccess };

}  // namespace agentctx
