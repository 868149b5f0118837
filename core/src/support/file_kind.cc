// SPDX-License-Identifier: MIT
// FileKindName and the default FileSystem::RemoveFile (see agentctx/file_system.h).
#include "agentctx/file_system.h"

namespace agentctx {

std::string_view FileKindName(FileKind kind) {
  switch (kind) {
    case FileKind::kFile:
      return "file";
    case FileKind::kDir:
      return "dir";
    case FileKind::kSymlink:
      return "symlink";
    case FileKind::kOther:
      return "other";
  }
  return "other";
}

Result<void> FileSystem::RemoveFile(std::string_view path) {
  return Fail(ErrorCode::kNotCapable, std::string(path));
}

}  // namespace agentctx
