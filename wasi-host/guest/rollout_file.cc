// SPDX-License-Identifier: MIT
// RolloutFile (see the header for the contract). stdio only (no <fstream> in WASI libc++).
#include "rollout_file.h"

#include <cerrno>
#include <utility>

#include "posix_file_system.h"
#include "protocol/json_codec.h"

namespace agentctx {
namespace {

// Effects envelopes that carry a persist effect start with exactly these bytes (engine
// envelope + EffectSink::ToJson, SPEC §2.6: persist comes first).
constexpr std::string_view kPersistPrefix =
    R"({"v":1,"ok":true,"value":{"effects":[{"type":"persist","lines":[)";

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

Result<void> RolloutFile::AppendFromEnvelope(std::string_view envelope) {
  if (envelope.substr(0, kPersistPrefix.size()) != kPersistPrefix) return {};
  auto parsed = ParseJson(envelope);
  if (!parsed) return Fail(ErrorCode::kInternal, "unreadable effects envelope");
  const JsonValue* value = parsed->Find("value");
  const JsonValue* effects = value == nullptr ? nullptr : value->Find("effects");
  if (effects == nullptr || !effects->is_array() || effects->items().empty()) return {};
  const JsonValue* lines = effects->items()[0].Find("lines");
  if (lines == nullptr || !lines->is_array()) return {};
  std::string out;
  for (const JsonValue& line : lines->items()) {
    out += line.string_value();
    out.push_back('\n');
  }
  if (std::fwrite(out.data(), 1, out.size(), file_) != out.size()) {
    return FileError(ErrorCode::kIo, "rollout.append", path_);
  }
  if (std::fflush(file_) != 0) return FileError(ErrorCode::kIo, "rollout.flush", path_);
  return {};
}

}  // namespace agentctx
