// SPDX-License-Identifier: MIT
// Built-in tool set and dispatch (docs/tools.md); see builtin_tools.h.
#include "tools/builtin_tools.h"

#include "tools/apply_patch.h"
#include "tools/edit_file.h"
#include "tools/glob.h"
#include "tools/grep.h"
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

std::array<std::string_view, kBuiltinToolCount> BuiltinToolSpecsJson() {
  return {ReadFileSpecJson(),   ListDirSpecJson(), WriteFileSpecJson(), EditFileSpecJson(),
          ApplyPatchSpecJson(), GrepSpecJson(),    GlobSpecJson()};
}

std::string RunBuiltinTool(const ToolContext& ctx, std::string_view name,
                           std::string_view arguments) {
  if (name == "read_file") return RunReadFile(ctx, arguments);
  if (name == "list_dir") return RunListDir(ctx, arguments);
  if (name == "write_file") return RunWriteFile(ctx, arguments);
  if (name == "edit_file") return RunEditFile(ctx, arguments);
  if (name == "apply_patch") return RunApplyPatch(ctx, arguments);
  if (name == "grep") return RunGrep(ctx, arguments);
  if (name == "glob") return RunGlob(ctx, arguments);
  return UnsupportedCallOutput(name);
}

std::string UnsupportedCallOutput(std::string_view name) {
  return "unsupported call: " + std::string(name);
}

}  // namespace agentctx
