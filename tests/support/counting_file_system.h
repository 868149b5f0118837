// SPDX-License-Identifier: MIT
// CountingFileSystem: a FileSystem decorator that counts and logs every call before forwarding
// it, so tests can prove how many FileSystem calls the core made (e.g. zero on an AGENTS.md
// cache hit, one Stat per probe in probe mode).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "agentctx/file_system.h"

namespace agentctx::testing {

class CountingFileSystem : public FileSystem {
 public:
  /// `inner` is borrowed and must outlive this object.
  explicit CountingFileSystem(FileSystem* inner) : inner_(inner) {}

  Result<FileStat> Stat(std::string_view path) override;
  Result<std::string> Read(std::string_view path, std::uint64_t max_bytes) override;
  Result<std::vector<DirEntry>> List(std::string_view path) override;
  Result<void> Write(std::string_view path, std::string_view bytes, bool create_parents) override;
  bool Sandboxed() const override { return inner_->Sandboxed(); }

  /// Stat + Read + List + Write calls since the last Reset().
  std::uint64_t calls() const { return stats_ + reads_ + lists_ + writes_; }
  std::uint64_t stats() const { return stats_; }
  std::uint64_t reads() const { return reads_; }
  std::uint64_t lists() const { return lists_; }
  std::uint64_t writes() const { return writes_; }
  /// Stat calls for one path.
  std::uint64_t StatsOf(const std::string& path) const;
  /// "stat /p", "read /p 4096", "list /p", "write /p" in call order.
  const std::vector<std::string>& log() const { return log_; }
  void Reset();

 private:
  FileSystem* inner_;
  std::uint64_t stats_ = 0;
  std::uint64_t reads_ = 0;
  std::uint64_t lists_ = 0;
  std::uint64_t writes_ = 0;
  std::map<std::string, std::uint64_t> stats_by_path_;
  std::vector<std::string> log_;
};

}  // namespace agentctx::testing
