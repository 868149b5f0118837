// SPDX-License-Identifier: MIT
// GuestFileSystem (see the header for the contract).
#include "guest_file_system.h"

#include <utility>

namespace agentctx {

GuestFileSystem::GuestFileSystem(std::string workspace_root, std::string home_dir)
    : workspace_(std::move(workspace_root)),
      home_(home_dir.empty() ? std::string("/") : home_dir),
      home_dir_(std::move(home_dir)) {}

bool GuestFileSystem::IsHomeInstructions(std::string_view path) const {
  if (home_dir_.empty()) return false;
  for (std::string_view name :
       {std::string_view("AGENTS.override.md"), std::string_view("AGENTS.md")}) {
    std::string candidate = home_dir_;
    if (candidate != "/") candidate.push_back('/');
    candidate.append(name);
    if (path == candidate) return true;
  }
  return false;
}

Result<FileStat> GuestFileSystem::Stat(std::string_view path) {
  return IsHomeInstructions(path) ? home_.Stat(path) : workspace_.Stat(path);
}

Result<std::string> GuestFileSystem::Read(std::string_view path, std::uint64_t max_bytes) {
  return IsHomeInstructions(path) ? home_.Read(path, max_bytes) : workspace_.Read(path, max_bytes);
}

Result<std::vector<DirEntry>> GuestFileSystem::List(std::string_view path) {
  return workspace_.List(path);
}

Result<void> GuestFileSystem::Write(std::string_view path, std::string_view bytes,
                                    bool create_parents) {
  return workspace_.Write(path, bytes, create_parents);
}

Result<void> GuestFileSystem::RemoveFile(std::string_view path) {
  return workspace_.RemoveFile(path);
}

bool GuestFileSystem::Sandboxed() const { return workspace_.Sandboxed(); }

}  // namespace agentctx
