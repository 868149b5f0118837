// SPDX-License-Identifier: MIT
// Built-in tool `read_file` (docs/tools.md); see read_file.h.
#include "tools/read_file.h"

#include <vector>

#include "support/paths.h"
#include "support/utf8.h"
#include "tools/tool_args.h"

namespace agentctx {

namespace {

constexpr std::string_view kSpec =
    R"({"type":"function","name":"read_file","description":"Reads a text file and returns numbered lines.","strict":false,"parameters":{"additionalProperties":false,"properties":{"limit":{"description":"Maximum number of lines (default 2000).","minimum":1,"type":"integer"},"offset":{"description":"1-based first line (default 1).","minimum":1,"type":"integer"},"path":{"description":"Absolute path, or a path relative to the working directory.","type":"string"}},"required":["path"],"type":"object"}})";

std::string Failed(const Error& error, std::string_view path) {
  return "read_file failed: " + std::string(ErrorCodeName(error.code)) + ": " + std::string(path);
}

}  // namespace

std::string_view ReadFileSpecJson() { return kSpec; }

std::string RunReadFile(const ToolContext& ctx, std::string_view arguments) {
  Result<JsonValue> args = ParseToolArguments(arguments);
  if (!args.has_value()) return ArgumentErrorOutput(args.error());
  Result<std::string> path_arg = RequiredStringArg(*args, "path");
  if (!path_arg.has_value()) return ArgumentErrorOutput(path_arg.error());
  Result<std::optional<std::int64_t>> offset_arg = OptionalIntArg(*args, "offset", 1, INT64_MAX);
  if (!offset_arg.has_value()) return ArgumentErrorOutput(offset_arg.error());
  Result<std::optional<std::int64_t>> limit_arg = OptionalIntArg(*args, "limit", 1, INT64_MAX);
  if (!limit_arg.has_value()) return ArgumentErrorOutput(limit_arg.error());
  const std::uint64_t offset = static_cast<std::uint64_t>(offset_arg->value_or(1));
  const std::uint64_t limit =
      static_cast<std::uint64_t>(limit_arg->value_or(kReadFileDefaultLimit));

  Result<std::string> path = ResolvePath(ctx.primary_cwd, *path_arg);
  if (!path.has_value()) return Failed(path.error(), LossyUtf8(*path_arg));
  Result<std::string> raw = ctx.fs->Read(*path, kReadFileMaxBytes);
  if (!raw.has_value()) return Failed(raw.error(), *path);
  if (raw->empty()) return "(empty file)";
  const std::string text = LossyUtf8(*raw);

  // Line starts: a final empty segment after the last `\n` is not a line.
  std::vector<std::size_t> starts;
  for (std::size_t pos = 0; pos < text.size();) {
    starts.push_back(pos);
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) break;
    pos = nl + 1;
  }
  const std::uint64_t line_count = starts.size();
  if (offset > line_count) {
    return "read_file failed: offset " + std::to_string(offset) + " exceeds file length (" +
           std::to_string(line_count) + " lines)";
  }
  std::string out;
  const std::uint64_t last = offset - 1 + limit < line_count ? offset - 1 + limit : line_count;
  for (std::uint64_t i = offset - 1; i < last; ++i) {
    std::size_t start = starts[static_cast<std::size_t>(i)];
    std::size_t end = text.find('\n', start);
    bool has_newline = end != std::string::npos;
    if (!has_newline) end = text.size();
    std::string_view line(text.data() + start, end - start);
    if (has_newline && !line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.size() > kReadFileMaxLineBytes) {
      line = line.substr(0, FloorCharBoundary(line, kReadFileMaxLineBytes));
    }
    if (i + 1 != offset) out.push_back('\n');
    out += "L" + std::to_string(i + 1) + ": ";
    out.append(line);
  }
  return out;
}

}  // namespace agentctx
