// SPDX-License-Identifier: MIT
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

}  // namespace agentctx
