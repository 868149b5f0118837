// SPDX-License-Identifier: MIT
// Plain data of the AGENTS.md engine (discovery and cache): the `agents_md` config, the
// per-environment selection the cache is keyed on, the loaded result with provenance, and
// warnings.
// Invariants: everything here is a value (copyable, comparable); FileSystem pointers are
// borrowed from the engine's registry and never owned.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "agentctx/file_system.h"
#include "agentctx/wire_enums.h"
#include "protocol/warning.h"

namespace agentctx {

// AgentsMdRefresh (agentctx/wire_enums.h): kSelection, upstream: a key hit makes no FileSystem
// call; kProbe, ours: a key hit re-stats the probe set of the last successful load.

/// Config key `agents_md` (docs/config.md), with its defaults.
struct AgentsMdConfig {
  std::optional<std::string> home_dir;
  std::uint64_t max_bytes = 32768;
  std::vector<std::string> root_markers = {".git"};
  std::vector<std::string> fallback_filenames;
  AgentsMdRefresh refresh = AgentsMdRefresh::kSelection;

  bool operator==(const AgentsMdConfig& other) const;
  bool operator!=(const AgentsMdConfig& other) const { return !(*this == other); }
};

/// One configured environment as the AGENTS.md engine sees it. The cache key uses the ready
/// ones' {id, cwd, fs_name, sandboxed, fs_epoch} (the selection); `fs` is not part of it.
struct EnvironmentSelection {
  std::string id;
  std::string cwd;  // absolute; normalised lexically before use
  std::string fs_name;
  FileSystem* fs = nullptr;  // borrowed
  bool sandboxed = false;    // true: a failure fails the load, else a warning
  std::uint64_t fs_epoch = 0;
  bool ready = true;  // status "available"

  /// Equality of the key part (fs pointer and readiness excluded).
  bool SameSelection(const EnvironmentSelection& other) const;
};

/// Everything one refresh depends on. `environments` is every configured environment in config
/// order (the first is primary, whatever its status); only ready ones are searched and keyed.
struct AgentsMdInputs {
  std::vector<EnvironmentSelection> environments;
  bool trusted = true;
  AgentsMdConfig config;
};

/// What a source file is (inspect view `kind`): the global file, a project document chosen per
/// directory (override, AGENTS.md or fallback), a directory's personal `AGENTS.local.md`
/// overlay (ours), or a file pulled in by an `@path` import line (ours).
enum class AgentsMdSourceKind { kGlobal, kProject, kLocal, kImport };

/// "global" | "project" | "local" | "import".
std::string_view AgentsMdSourceKindName(AgentsMdSourceKind kind);

/// Where one piece of the assembled text came from.
struct AgentsMdSource {
  std::string path;
  std::string environment_id;  // the global file: the primary environment's id
  std::string cwd;             // that environment's (normalised) cwd
  bool global = false;
  AgentsMdSourceKind kind = AgentsMdSourceKind::kProject;
  std::string imported_from{};  // kImport only: the file whose `@path` line pulled it in
};

/// One file read through an `@path` import line (imports.h).
struct AgentsMdImport {
  std::string path;
  std::string imported_from;
  std::uint32_t depth = 1;  // the walked document's own imports are depth 1
};

/// One project document kept by discovery: a directory's selected file
/// (kind kProject) or its AGENTS.local.md overlay (kind kLocal), each its own entry.
struct AgentsMdEntry {
  std::string contents;  // lossy UTF-8, not trimmed, never whitespace-only; imports expanded
  std::string path;
  std::string environment_id;
  std::string cwd;
  AgentsMdSourceKind kind = AgentsMdSourceKind::kProject;
  std::vector<AgentsMdImport> imports{};  // files its `@path` lines pulled in, in text order
};

/// The outcome of discovery + assembly. `text` is none when there is no
/// global text and no entry; `sources` then is empty. When `omitted_bytes` > 0, `text` ends
/// with the truncation note line (budget.h).
struct AgentsMdResult {
  std::optional<std::string> text;
  std::optional<std::string> global_text;  // trimmed
  std::vector<AgentsMdEntry> entries;
  std::vector<AgentsMdSource> sources;  // global first, then entries in order
  std::uint64_t omitted_bytes = 0;      // found project bytes the budget left out (budget.h)
  std::string primary_cwd;              // for the fragment header
};

/// A `warning` event payload: `code` is a warning code (docs/protocol.md#warning-codes).
/// AGENTS.md warnings are ordinary warnings (`agents_md_read_warning`, `agents_md_truncated`,
/// `agents_md_import_warning`).
using AgentsMdWarning = Warning;

}  // namespace agentctx
