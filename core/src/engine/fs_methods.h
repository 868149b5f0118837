// SPDX-License-Identifier: MIT
// Inspection methods over a session's registered FileSystems (docs/boundary.md): `fs.stat`,
// `fs.read`, `fs.list`, `fs.write`, called by the host (never by the model) on a session handle.
// They exist so hosts can check what a session's FileSystem sees: the WASI host's sandbox and
// read-only tests (wasi-host/test) drive the guest's PosixFileSystem through them.
// Input {"fs":"<name>","path":"/abs/path", ...}; output:
//   fs.stat  -> {"kind":"file|dir|symlink|other","size":N,"mtime_ms":N}
//   fs.read  {max_bytes? [1048576]} -> {"text":"<lossy UTF-8>","bytes":N}
//   fs.list  -> {"entries":[{"name":"…","kind":"…"}]}  (sorted by name bytes)
//   fs.write {text, create_parents? [false]} -> {"bytes":N}
// FileSystem errors come back as their envelope (its FileSystem code, details.path); a missing or
// mistyped field is invalid_input, an unknown `fs` name invalid_input.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "agentctx/file_system.h"

namespace agentctx {

/// True for the method names handled by CallFsMethod.
bool IsFsMethod(std::string_view method);
/// Runs one fs.* method; returns the envelope JSON.
std::string CallFsMethod(const std::map<std::string, std::shared_ptr<FileSystem>>& file_systems,
                         std::string_view method, std::string_view input_json);

}  // namespace agentctx
