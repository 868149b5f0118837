// SPDX-License-Identifier: MIT
#include "support/counting_file_system.h"

namespace agentctx::testing {

Result<FileStat> CountingFileSystem::Stat(std::string_view path) {
  ++stats_;
  ++stats_by_path_[std::string(path)];
  log_.push_back("stat " + std::string(path));
  return inner_->Stat(path);
}

Result<std::string> CountingFileSystem::Read(std::string_view path, std::uint64_t max_bytes) {
  ++reads_;
  log_.push_back("read " + std::string(path) + " " + std::to_string(max_bytes));
  return inner_->Read(path, max_bytes);
}

Result<std::vector<DirEntry>> CountingFileSystem::List(std::string_view path) {
  ++lists_;
  log_.push_back("list " + std::string(path));
  return inner_->List(path);
}

Result<void> CountingFileSystem::Write(std::string_view path, std::string_view bytes,
                                       bool create_parents) {
  ++writes_;
  log_.push_back("write " + std::string(path));
  return inner_->Write(path, bytes, create_parents);
}

std::uint64_t CountingFileSystem::StatsOf(const std::string& path) const {
  auto it = stats_by_path_.find(path);
  return it == stats_by_path_.end() ? 0 : it->second;
}

void CountingFileSystem::Reset() {
  stats_ = reads_ = lists_ = writes_ = 0;
  stats_by_path_.clear();
  log_.clear();
}

}  // namespace agentctx::testing
