// SPDX-License-Identifier: MIT
// Shared set-up for built-in tool tests: a MemoryFileSystem with /repo, and a FileSystem
// wrapper whose List returns entries in reverse order (real FileSystems do not sort).
#pragma once

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "support/memory_file_system.h"
#include "tools/tool_context.h"

namespace agentctx {
namespace testing {

class ReversedListFileSystem : public FileSystem {
 public:
  explicit ReversedListFileSystem(FileSystem* inner) : inner_(inner) {}
  Result<FileStat> Stat(std::string_view path) override { return inner_->Stat(path); }
  Result<std::string> Read(std::string_view path, std::uint64_t max_bytes) override {
    return inner_->Read(path, max_bytes);
  }
  Result<std::vector<DirEntry>> List(std::string_view path) override {
    ACTX_TRY(std::vector<DirEntry> entries, inner_->List(path));
    std::reverse(entries.begin(), entries.end());
    return entries;
  }
  Result<void> Write(std::string_view path, std::string_view bytes, bool create_parents) override {
    return inner_->Write(path, bytes, create_parents);
  }
  bool Sandboxed() const override { return inner_->Sandboxed(); }

 private:
  FileSystem* inner_;
};

inline ToolContext RepoContext(FileSystem* fs, SandboxMode mode = SandboxMode::kWorkspaceWrite,
                               std::vector<std::string> roots = {}) {
  ToolContext ctx;
  ctx.fs = fs;
  ctx.primary_cwd = "/repo";
  ctx.sandbox.mode = mode;
  ctx.sandbox.writable_roots = std::move(roots);
  return ctx;
}

}  // namespace testing
}  // namespace agentctx
