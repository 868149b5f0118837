// SPDX-License-Identifier: MIT
// Built-in tool `grep` (ours); see grep.h.
#include "tools/grep.h"

#include <algorithm>
#include <optional>

#include "support/byte_scan.h"
#include "support/paths.h"
#include "support/utf8.h"
#include "tools/file_walk.h"
#include "tools/glob_pattern.h"
#include "tools/regex.h"
#include "tools/tool_args.h"

namespace agentctx {

namespace {

constexpr std::string_view kSpec =
    R"({"type":"function","name":"grep","description":"Searches file contents for lines matching a regular expression; returns `path:line: text` per match, files in name order (binary files are skipped, at most 200 matches). Syntax as in ripgrep: . [abc] [^a-z] ^ $ * + ? {n,m} | ( ) (?i) \\d \\w \\s \\b; no backreferences or look-around. Escape ( ) [ ] { } . * + ? | ^ $ \\ with a backslash to match them literally.","strict":false,"parameters":{"additionalProperties":false,"properties":{"include":{"description":"Only search files matching this glob: a file name pattern such as *.rs, or a path pattern such as src/**/*.ts.","type":"string"},"path":{"description":"A file or directory to search (default: the working directory).","type":"string"},"pattern":{"description":"The regular expression.","type":"string"}},"required":["pattern"],"type":"object"}})";

std::string Failed(std::string_view why) { return "grep failed: " + std::string(why); }

// "150 million" or "1234".
std::string StepCount(std::uint64_t n) {
  if (n >= 1000000 && n % 1000000 == 0) return std::to_string(n / 1000000) + " million";
  return std::to_string(n);
}

struct Search {
  FileSystem* fs = nullptr;
  std::uint64_t max_steps = 0;
  RegexSearcher* searcher = nullptr;
  std::string out;
  std::size_t matches = 0;
  std::uint64_t scanned = 0;
  std::size_t files = 0;
  std::size_t binary = 0;
  std::size_t unreadable = 0;
  std::string stop;  // why the search stopped early, if it did

  // Searches one file; false when the search must stop.
  bool File(const std::string& path) {
    if (scanned >= kGrepMaxScanBytes) {
      stop = "[stopped after reading " + std::to_string(kGrepMaxScanBytes / (1024 * 1024)) +
             " MiB in " + std::to_string(files) + " files; narrow the path or include]";
      return false;
    }
    Result<std::string> raw = fs->Read(path, kGrepMaxFileBytes);
    if (!raw.has_value()) {
      ++unreadable;
      return true;
    }
    ++files;
    scanned += raw->size();
    std::string_view head = std::string_view(*raw).substr(0, kGrepBinaryProbeBytes);
    if (FindByte(head, 0, '\0') != std::string_view::npos) {
      ++binary;
      return true;
    }
    const std::string text = IsValidUtf8(*raw) ? std::move(raw).value() : LossyUtf8(*raw);
    std::size_t number = 0;   // LFs before `counted`
    std::size_t counted = 0;  // a line start
    RegexSearcher::Line found;
    for (std::size_t from = 0;;) {
      const RegexOutcome outcome = searcher->NextLine(text, from, &found);
      if (outcome == RegexOutcome::kNoMatch) break;
      if (outcome == RegexOutcome::kOutOfBudget) {
        stop = "[stopped after " + StepCount(max_steps) + " regex steps in " +
               std::to_string(files) +
               " files (the work budget of one search); narrow the pattern, path or include]";
        return false;
      }
      number += static_cast<std::size_t>(
          std::count(text.begin() + static_cast<std::ptrdiff_t>(counted),
                     text.begin() + static_cast<std::ptrdiff_t>(found.start), '\n'));
      counted = found.start;
      const std::size_t lf = FindByte(text, found.end, '\n');
      from = lf == std::string::npos ? text.size() : lf + 1;
      std::string_view line(text.data() + found.start, found.end - found.start);
      if (matches == kGrepMaxMatches || out.size() >= kGrepMaxOutputBytes) {
        stop = "[stopped after " + std::to_string(matches) +
               " matches; narrow the pattern, path or include to see the rest]";
        return false;
      }
      ++matches;
      if (line.size() > kGrepMaxLineBytes) {
        line = line.substr(0, FloorCharBoundary(line, kGrepMaxLineBytes));
      }
      if (!out.empty()) out.push_back('\n');
      out += path;
      out.push_back(':');
      out += std::to_string(number + 1);
      out += ": ";
      out.append(line);
    }
    return true;
  }
};

}  // namespace

std::string_view GrepSpecJson() { return kSpec; }

std::string RunGrep(const ToolContext& ctx, std::string_view arguments) {
  return RunGrepWithBudget(ctx, arguments, kGrepMaxSteps);
}

std::string RunGrepWithBudget(const ToolContext& ctx, std::string_view arguments,
                              std::uint64_t max_steps) {
  Result<JsonValue> args = ParseToolArguments(arguments);
  if (!args.has_value()) return ArgumentErrorOutput(args.error());
  Result<std::string> pattern = RequiredStringArg(*args, "pattern");
  if (!pattern.has_value()) return ArgumentErrorOutput(pattern.error());
  Result<std::optional<std::string>> path_arg = OptionalStringArg(*args, "path");
  if (!path_arg.has_value()) return ArgumentErrorOutput(path_arg.error());
  Result<std::optional<std::string>> include_arg = OptionalStringArg(*args, "include");
  if (!include_arg.has_value()) return ArgumentErrorOutput(include_arg.error());

  Result<Regex> regex = Regex::Compile(*pattern);
  if (!regex.has_value()) return Failed("invalid regular expression: " + regex.error().message);
  std::optional<GlobPattern> include;
  if (include_arg->has_value() && !(*include_arg)->empty()) {
    Result<GlobPattern> glob = GlobPattern::Compile(**include_arg);
    if (!glob.has_value()) return Failed("invalid include pattern: " + glob.error().message);
    include = std::move(glob).value();
  }
  const std::string raw_path = path_arg->value_or(".");
  Result<std::string> root = ResolvePath(ctx.primary_cwd, raw_path.empty() ? "." : raw_path);
  if (!root.has_value()) {
    return Failed(std::string(ErrorCodeName(root.error().code)) + ": " + LossyUtf8(raw_path));
  }
  Result<FileStat> stat = ctx.fs->Stat(*root);
  if (!stat.has_value()) {
    return Failed(std::string(ErrorCodeName(stat.error().code)) + ": " + *root);
  }

  RegexSearchOptions options;
  options.budget = max_steps;
  RegexSearcher searcher(*regex, options);
  Search search;
  search.max_steps = max_steps;
  search.fs = ctx.fs;
  search.searcher = &searcher;
  if (stat->kind == FileKind::kFile) {
    search.File(*root);
  } else if (stat->kind == FileKind::kDir) {
    Result<WalkOutcome> walk = WalkFiles(
        ctx.fs, *root, kGrepMaxEntries, [&](const std::string& path, std::string_view relative) {
          if (include.has_value()) {
            std::string_view subject = include->single_segment() ? BaseName(path) : relative;
            if (!include->Matches(subject)) return true;
          }
          return search.File(path);
        });
    if (!walk.has_value()) {
      return Failed(std::string(ErrorCodeName(walk.error().code)) + ": " + *root);
    }
    search.unreadable += walk->unlistable;
    if (walk->stopped_at_limit) {
      search.stop = "[stopped after " + std::to_string(kGrepMaxEntries) +
                    " directory entries; narrow the path or include]";
    }
  } else {
    return Failed(*root + " is neither a file nor a directory");
  }

  std::string out =
      search.matches == 0 ? "No matches for " + *pattern + " in " + *root : std::move(search.out);
  if (!search.stop.empty()) out += "\n" + search.stop;
  if (search.binary > 0 || search.unreadable > 0) {
    std::string skipped;
    if (search.binary > 0) skipped = std::to_string(search.binary) + " binary";
    if (search.unreadable > 0) {
      skipped += (skipped.empty() ? "" : ", ") + std::to_string(search.unreadable) + " unreadable";
    }
    out +=
        "\n(skipped " + skipped + (search.binary + search.unreadable == 1 ? " file)" : " files)");
  }
  return out;
}

}  // namespace agentctx
