// SPDX-License-Identifier: MIT
// RolloutFile: the guest glue's rollout writer (the glue writes `persist` lines to /state before
// the host sees the other effects; docs/boundary.md).
// Invariants:
//  - Opened in append mode; existing bytes are never rewritten.
//  - Append writes a call's persist lines (Engine::PersistLines), each + LF, in order, then
//    flushes; no lines write nothing.
//  - A failed write or flush is reported (kIo, "<op> <path>"); the caller decides what the
//    session does next. The envelope itself is never changed here.
#pragma once

#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "agentctx/result.h"

namespace agentctx {

class RolloutFile {
 public:
  /// Opens (creating) `path` for appending.
  static Result<std::unique_ptr<RolloutFile>> Open(std::string path);
  ~RolloutFile();
  RolloutFile(const RolloutFile&) = delete;
  RolloutFile& operator=(const RolloutFile&) = delete;

  /// Appends `lines`, each + LF (see the header comment).
  Result<void> Append(const std::vector<std::string_view>& lines);

  const std::string& path() const { return path_; }

 private:
  RolloutFile(std::string path, std::FILE* file) : path_(std::move(path)), file_(file) {}

  std::string path_;
  std::FILE* file_;
};

}  // namespace agentctx
