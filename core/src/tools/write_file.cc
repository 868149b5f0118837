// SPDX-License-Identifier: MIT
// Built-in tool `write_file` (docs/tools.md); see write_file.h.
#include "tools/write_file.h"

#include "support/paths.h"
#include "support/utf8.h"
#include "tools/tool_args.h"

namespace agentctx {

namespace {

constexpr std::string_view kSpec =
    R"({"type":"function","name":"write_file","description":"Writes a UTF-8 text file, replacing it if it exists.","strict":false,"parameters":{"additionalProperties":false,"properties":{"content":{"description":"The complete new file content.","type":"string"},"path":{"description":"Absolute path, or a path relative to the working directory.","type":"string"}},"required":["path","content"],"type":"object"}})";

std::string Failed(const Error& error, std::string_view path) {
  return "write_file failed: " + std::string(ErrorCodeName(error.code)) + ": " + std::string(path);
}

}  // namespace

std::string_view WriteFileSpecJson() { return kSpec; }

std::string RunWriteFile(const ToolContext& ctx, std::string_view arguments) {
  Result<JsonValue> args = ParseToolArguments(arguments);
  if (!args.has_value()) return ArgumentErrorOutput(args.error());
  Result<std::string> path_arg = RequiredStringArg(*args, "path");
  if (!path_arg.has_value()) return ArgumentErrorOutput(path_arg.error());
  Result<std::string> content = RequiredStringArg(*args, "content");
  if (!content.has_value()) return ArgumentErrorOutput(content.error());

  Result<std::string> path = ResolvePath(ctx.primary_cwd, *path_arg);
  if (!path.has_value()) return Failed(path.error(), LossyUtf8(*path_arg));
  std::optional<std::string> refusal = CheckWritePolicy(ctx.sandbox, ctx.primary_cwd, *path);
  if (refusal.has_value()) return std::move(*refusal);
  Result<void> written = ctx.fs->Write(*path, *content, /*create_parents=*/true);
  if (!written.has_value()) return Failed(written.error(), *path);
  return "Wrote " + std::to_string(content->size()) + " bytes to " + *path;
}

}  // namespace agentctx
