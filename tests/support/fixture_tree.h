// SPDX-License-Identifier: MIT
// Loads a fixture directory tree into a MemoryFileSystem (tests only). Reads with the POSIX
// fopen/opendir of fixtures.h, so it works on the native, Emscripten (NODERAWFS) and WASI
// runners. Git refuses paths named `.git`, so every segment named `dot-git` is renamed to
// `.git`; files named `.gitkeep` only keep empty directories in git and are skipped.
#pragma once

#include <cstdint>
#include <string>

#include "support/memory_file_system.h"

namespace agentctx::testing {

/// Copies fixture directory `relative` (e.g. "agents_md/hello/input") to `mount` in `fs`: dirs
/// and files keep their names (bar the renames above), every node gets `mtime_ms`. False when
/// the directory is missing or a node cannot be read/added; `*error` (if given) says which.
bool LoadFixtureTree(const std::string& relative, MemoryFileSystem* fs,
                     const std::string& mount = "/", std::int64_t mtime_ms = 0,
                     std::string* error = nullptr);

/// The fixture-tree spelling of a name: `dot-git` -> `.git`, everything else unchanged.
std::string FixtureNodeName(const std::string& name);

}  // namespace agentctx::testing
