// SPDX-License-Identifier: MIT
// Built-in tool `list_dir` (docs/tools.md); see list_dir.h.
#include "tools/list_dir.h"

#include <algorithm>
#include <vector>

#include "support/paths.h"
#include "support/utf8.h"
#include "tools/tool_args.h"

namespace agentctx {

namespace {

constexpr std::string_view kSpec =
    R"({"type":"function","name":"list_dir","description":"Lists a directory.","strict":false,"parameters":{"additionalProperties":false,"properties":{"depth":{"description":"Directory levels to list (default 1).","maximum":3,"minimum":1,"type":"integer"},"path":{"description":"Absolute path, or a path relative to the working directory.","type":"string"}},"required":["path"],"type":"object"}})";

struct Walk {
  FileSystem* fs = nullptr;
  std::int64_t depth = 1;
  std::size_t emitted = 0;
  bool truncated = false;
  std::string out;
};

std::vector<DirEntry> Sorted(std::vector<DirEntry> entries) {
  std::sort(entries.begin(), entries.end(),
            [](const DirEntry& a, const DirEntry& b) { return a.name < b.name; });
  return entries;
}

// Lists `dir`'s `entries` at `level` (1 = the requested directory's children).
void Emit(Walk* walk, const std::string& dir, const std::vector<DirEntry>& entries,
          std::int64_t level) {
  for (const DirEntry& entry : entries) {
    if (walk->truncated) return;
    if (walk->emitted == kListDirMaxEntries) {
      walk->truncated = true;
      return;
    }
    ++walk->emitted;
    walk->out.push_back('\n');
    walk->out.append(static_cast<std::size_t>(2 * (level - 1)), ' ');
    walk->out += LossyUtf8(entry.name);
    if (entry.kind != FileKind::kDir) continue;
    walk->out.push_back('/');
    if (level >= walk->depth) continue;
    std::string child = Join(dir, entry.name);
    Result<std::vector<DirEntry>> children = walk->fs->List(child);
    if (children.has_value()) Emit(walk, child, Sorted(std::move(children).value()), level + 1);
  }
}

}  // namespace

std::string_view ListDirSpecJson() { return kSpec; }

std::string RunListDir(const ToolContext& ctx, std::string_view arguments) {
  Result<JsonValue> args = ParseToolArguments(arguments);
  if (!args.has_value()) return ArgumentErrorOutput(args.error());
  Result<std::string> path_arg = RequiredStringArg(*args, "path");
  if (!path_arg.has_value()) return ArgumentErrorOutput(path_arg.error());
  Result<std::optional<std::int64_t>> depth_arg =
      OptionalIntArg(*args, "depth", 1, kListDirMaxDepth);
  if (!depth_arg.has_value()) return ArgumentErrorOutput(depth_arg.error());

  Result<std::string> path = ResolvePath(ctx.primary_cwd, *path_arg);
  if (!path.has_value()) {
    return "list_dir failed: " + std::string(ErrorCodeName(path.error().code)) + ": " +
           LossyUtf8(*path_arg);
  }
  Result<std::vector<DirEntry>> entries = ctx.fs->List(*path);
  if (!entries.has_value()) {
    return "list_dir failed: " + std::string(ErrorCodeName(entries.error().code)) + ": " + *path;
  }
  Walk walk;
  walk.fs = ctx.fs;
  walk.depth = depth_arg->value_or(1);
  walk.out = "Absolute path: " + *path;
  Emit(&walk, *path, Sorted(std::move(entries).value()), 1);
  if (walk.truncated) walk.out += "\n[more entries omitted]";
  return std::move(walk.out);
}

}  // namespace agentctx
