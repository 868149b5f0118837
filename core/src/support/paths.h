// SPDX-License-Identifier: MIT
// Lexical POSIX path handling. The core passes only absolute normalised paths
// to a FileSystem: a leading `/`, no empty, `.` or `..` segments, no trailing `/` except the
// root, no NUL. Everything here is purely lexical: symlinks are never resolved (logical paths),
// so `..` pops one segment and can never escape a root by traversal.
// Invariants: every returned path is normalised; bad input is kInvalidPath, never an abort.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "agentctx/result.h"

namespace agentctx {

/// True when `path` is already absolute and normalised (the form described above).
bool IsNormalizedAbsolute(std::string_view path);

/// Normalises an absolute path: `//` and `.` collapse, `..` pops one segment, a trailing `/`
/// is dropped. kInvalidPath when `path` is empty, relative, contains NUL, or `..` would pop
/// past `/`.
Result<std::string> NormalizeAbsolute(std::string_view path);

/// Resolves a tool path against `cwd`: a relative `path` is joined to `cwd`, then the
/// result is normalised lexically. kInvalidPath for an empty path, NUL, a relative `cwd`, or
/// `..` at `/`.
Result<std::string> ResolvePath(std::string_view cwd, std::string_view path);

/// The parent of a normalised path; the root's parent is the root.
std::string Parent(std::string_view path);

/// Joins a normalised directory and a relative name (`Join("/", "a")` = `/a`,
/// `Join("/a", "b")` = `/a/b`). The name is appended as is (no normalisation).
std::string Join(std::string_view dir, std::string_view name);

/// The last segment of a normalised path (empty for the root).
std::string_view BaseName(std::string_view path);

/// The segments of a normalised path (`/a/b` -> {"a", "b"}; `/` -> {}).
std::vector<std::string> Segments(std::string_view path);

/// True when normalised `path` equals `root` or lies below it on a segment boundary
/// (`/repo/x` is under `/repo`; `/repository` is not).
bool IsUnder(std::string_view path, std::string_view root);

}  // namespace agentctx
