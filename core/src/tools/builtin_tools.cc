// SPDX-License-Identifier: MIT
// Built-in tool set and dispatch (SPEC §11); see builtin_tools.h.
#include "tools/builtin_tools.h"

#include "tools/list_dir.h"
#include "tools/read_file.h"
#include "tools/write_file.h"

namespace agentctx {

bool IsBuiltinTool(std::string_view name) {
  for (std::string_view builtin : kBuiltinToolNames) {
    if (builtin == name) return true;
  }
  return false;
}

std::array<std::string_view, 3> BuiltinToolSpecsJson() {
  return {ReadFileSpecJson(), ListDirSpecJson(), WriteFileSpecJson()};
}

std::string RunBuiltinTool(const ToolContext& ctx, std::string_view name,
                           std::string_view arguments) {
  if (name == "read_file") return RunReadFile(ctx, arguments);
  if (name == "list_dir") return RunListDir(ctx, arguments);
  if (name == "write_file") return RunWriteFile(ctx, arguments);
  return UnsupportedCallOutput(name);
}

std::string UnsupportedCallOutput(std::string_view name) {
  return "unsupported call: " + std::string(name);
}

}  // namespace agentctx
