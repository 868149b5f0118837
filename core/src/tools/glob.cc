// SPDX-License-Identifier: MIT
// Built-in tool `glob` (ours); see glob.h.
#include "tools/glob.h"

#include <algorithm>
#include <optional>
#include <vector>

#include "support/paths.h"
#include "support/utf8.h"
#include "tools/file_walk.h"
#include "tools/glob_pattern.h"
#include "tools/tool_args.h"

namespace agentctx {

namespace {

constexpr std::string_view kSpec =
    R"({"type":"function","name":"glob","description":"Finds files by path pattern and lists them sorted, one absolute path per line (at most 500). * and ? match within one path segment, ** matches any number of directories, [abc] one character of a set, {a,b} either alternative; e.g. **/*.rs or src/**/test_*.{ts,tsx}.","strict":false,"parameters":{"additionalProperties":false,"properties":{"path":{"description":"The directory to search from (default: the working directory).","type":"string"},"pattern":{"description":"The glob pattern, relative to path (or absolute).","type":"string"}},"required":["pattern"],"type":"object"}})";

std::string Failed(std::string_view why) { return "glob failed: " + std::string(why); }

std::string CodeWhy(const Error& error, std::string_view path) {
  return std::string(ErrorCodeName(error.code)) + ": " + std::string(path);
}

}  // namespace

std::string_view GlobSpecJson() { return kSpec; }

std::string RunGlob(const ToolContext& ctx, std::string_view arguments) {
  Result<JsonValue> args = ParseToolArguments(arguments);
  if (!args.has_value()) return ArgumentErrorOutput(args.error());
  Result<std::string> pattern = RequiredStringArg(*args, "pattern");
  if (!pattern.has_value()) return ArgumentErrorOutput(pattern.error());
  Result<std::optional<std::string>> path_arg = OptionalStringArg(*args, "path");
  if (!path_arg.has_value()) return ArgumentErrorOutput(path_arg.error());

  const std::string raw_path = path_arg->value_or(".");
  Result<std::string> base = ResolvePath(ctx.primary_cwd, raw_path.empty() ? "." : raw_path);
  if (!base.has_value()) return Failed(CodeWhy(base.error(), LossyUtf8(raw_path)));
  GlobSplit split = SplitGlobLiteralPrefix(*pattern);
  if (split.prefix.empty() || split.prefix[0] != '/') {
    // A relative pattern: its literal prefix is below the base, which must be a directory.
    Result<FileStat> stat = ctx.fs->Stat(*base);
    if (!stat.has_value()) return Failed(CodeWhy(stat.error(), *base));
    if (stat->kind != FileKind::kDir) return Failed("not_a_directory: " + *base);
  }
  Result<std::string> root = split.prefix.empty() ? base : ResolvePath(*base, split.prefix);
  if (!root.has_value()) return Failed(CodeWhy(root.error(), LossyUtf8(split.prefix)));
  Result<GlobPattern> glob = GlobPattern::Compile(split.rest);
  if (!glob.has_value()) return Failed("invalid pattern: " + glob.error().message);

  const std::string none = "No files match " + *pattern + " in " + *root;
  Result<FileStat> root_stat = ctx.fs->Stat(*root);
  if (!root_stat.has_value()) {
    if (root_stat.error().code == ErrorCode::kNotFound) return none;
    return Failed(CodeWhy(root_stat.error(), *root));
  }
  if (root_stat->kind != FileKind::kDir) return none;

  std::vector<std::string> found;
  Result<WalkOutcome> walk = WalkFiles(ctx.fs, *root, kGlobMaxEntries,
                                       [&](const std::string& path, std::string_view relative) {
                                         if (glob->Matches(relative)) found.push_back(path);
                                         return true;
                                       });
  if (!walk.has_value()) return Failed(CodeWhy(walk.error(), *root));
  std::sort(found.begin(), found.end());

  std::string out;
  for (std::size_t i = 0; i < found.size() && i < kGlobMaxResults; ++i) {
    if (i != 0) out.push_back('\n');
    out += LossyUtf8(found[i]);
  }
  if (found.empty()) out = none;
  if (found.size() > kGlobMaxResults) {
    out += "\n[" + std::to_string(found.size() - kGlobMaxResults) +
           " more files not shown; narrow the pattern]";
  }
  if (walk->stopped_at_limit) {
    out += "\n[stopped after " + std::to_string(kGlobMaxEntries) +
           " directory entries; narrow the path or pattern]";
  }
  return out;
}

}  // namespace agentctx
