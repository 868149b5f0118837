// SPDX-License-Identifier: MIT
// Built-in tool `apply_patch` (ours, in the Codex patch format, patch_parser.h): adds, deletes,
// updates and moves files, all or nothing.
// Algorithm:
//  1. parse {patch}; read-only sandbox → `apply_patch refused: sandbox_mode is read-only`;
//  2. parse the patch (`apply_patch failed: invalid patch: line <n>: …`); no hunk → failure;
//  3. resolve every path against the primary cwd and check each one (sources and Move to
//     targets) against the write policy: any refusal refuses the whole patch;
//  4. plan in memory, hunk by hunk, over the FileSystem's current files: Add needs an absent
//     file, Delete and Update an existing one, Move to an absent target; an Update's chunks are
//     applied by patch_chunks.h;
//  5. any planning failure → `apply_patch failed: <why>. No files were changed.`;
//  6. write every changed file (parents created), then remove deleted ones. If the FileSystem
//     refuses one step, the steps already done are undone in reverse order (best effort) and
//     the failure says whether that worked;
//  7. → `Applied patch:` then one line per hunk: `A <path>`, `M <path>`, `D <path>`,
//     `M <target> (moved from <path>)`.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "tools/tool_context.h"

namespace agentctx {

inline constexpr std::uint64_t kApplyPatchMaxFileBytes = 4 * 1024 * 1024;

/// The exact tool spec bytes.
std::string_view ApplyPatchSpecJson();

/// Runs `apply_patch` with the raw JSON `arguments`; returns the output text.
std::string RunApplyPatch(const ToolContext& ctx, std::string_view arguments);

}  // namespace agentctx
