// SPDX-License-Identifier: MIT
// Glue-side settings behind the C ABI (agentctx_abi.h) that are not exports: the native build
// (tests/abi) sets them directly; a later engine/host method will set them in the guest.
#pragma once

#include <string>

namespace agentctx::abi {

/// The guest path the `workspace` FileSystem of each new session slot is rooted at
/// (default "/workspace", the host's preopen). Slots already open keep their root.
void SetWorkspaceRoot(std::string root);
const std::string& WorkspaceRoot();

/// The guest path of the agentctx home (default "/state", the host's state preopen): new slots
/// may read `<home>/AGENTS.override.md` and `<home>/AGENTS.md` through their `workspace`
/// FileSystem (GuestFileSystem). Empty: no home. Slots already open keep theirs.
void SetHomeDir(std::string home);
const std::string& HomeDir();

}  // namespace agentctx::abi
