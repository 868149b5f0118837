// SPDX-License-Identifier: MIT
// RolloutFile (see the header for the contract). stdio only (no <fstream> in WASI libc++).
#include "rollout_file.h"

#include <cerrno>
#include <utility>

#include "posix_file_system.h"

namespace agentctx {
namespace {

Unexpected<Error> FileError(ErrorCode code, std::string_view op, const std::string& path) {
  Error error{code, std::string(op) + " " + path, {}};
  error.details.emplace_back("path", path);
  return Fail(std::move(error));
}

}  // namespace

Result<std::unique_ptr<RolloutFile>> RolloutFile::Open(std::string path) {
  if (path.empty() || path[0] != '/') {
    return FileError(ErrorCode::kInvalidPath, "rollout.open", path);
  }
  errno = 0;
  std::FILE* file = std::fopen(path.c_str(), "ab");
  if (file == nullptr) return FileError(ErrnoToErrorCode(errno), "rollout.open", path);
  return std::unique_ptr<RolloutFile>(new RolloutFile(std::move(path), file));
}

RolloutFile::~RolloutFile() { std::fclose(file_); }

Result<void> RolloutFile::Append(const std::vector<std::string_view>& lines) {
  if (lines.empty()) return {};
  std::string out;
  std::size_t size = 0;
  for (std::string_view line : lines) size += line.size() + 1;
  out.reserve(size);
  for (std::string_view line : lines) {
    out.append(line.data(), line.size());
    out.push_back('\n');
  }
  if (std::fwrite(out.data(), 1, out.size(), file_) != out.size()) {
    return FileError(ErrorCode::kIo, "rollout.append", path_);
  }
  if (std::fflush(file_) != 0) return FileError(ErrorCode::kIo, "rollout.flush", path_);
  return {};
}

}  // namespace agentctx
