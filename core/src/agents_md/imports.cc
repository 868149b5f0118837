// SPDX-License-Identifier: MIT
// `@path` imports (ours). See imports.h for the numbered algorithm.
#include "agents_md/imports.h"

#include <algorithm>
#include <utility>

#include "support/paths.h"
#include "support/utf8.h"

namespace agentctx {

namespace {

constexpr std::string_view kSpaceTab = " \t";

// Step 1: a fence opener/closer: up to 3 spaces, then 3+ backticks or tildes.
bool FenceRun(std::string_view line, char* fence_char, std::size_t* run, std::string_view* rest) {
  std::size_t i = 0;
  while (i < line.size() && i < 3 && line[i] == ' ') ++i;
  if (i >= line.size() || (line[i] != '`' && line[i] != '~')) return false;
  char c = line[i];
  std::size_t n = 0;
  while (i + n < line.size() && line[i + n] == c) ++n;
  if (n < 3) return false;
  *fence_char = c;
  *run = n;
  *rest = line.substr(i + n);
  return true;
}

std::string_view TrimTrailing(std::string_view s, std::string_view chars) {
  std::size_t end = s.find_last_not_of(chars);
  return end == std::string_view::npos ? std::string_view() : s.substr(0, end + 1);
}

}  // namespace

std::string_view ImportTarget(std::string_view line) {
  line = TrimTrailing(line, " \t\r");
  if (line.size() < 2 || line[0] != '@') return {};
  std::string_view target = line.substr(1);
  if (target.find_first_of(kSpaceTab) != std::string_view::npos) return {};
  return target;
}

ImportExpander::ImportExpander(const EnvironmentSelection& env, std::string scope,
                               bool scope_is_root, ProbeSet* probes,
                               std::set<std::string>* included,
                               std::vector<AgentsMdWarning>* warnings)
    : env_(env),
      scope_(std::move(scope)),
      scope_is_root_(scope_is_root),
      probes_(probes),
      included_(included),
      warnings_(warnings) {}

std::string ImportExpander::Expand(std::string_view text, const std::string& path, bool cut,
                                   ByteBudget* budget, std::vector<AgentsMdImport>* imported) {
  budget_ = budget;
  imported_ = imported;
  std::vector<std::string> chain = {path};
  return ExpandAt(text, path, 0, cut, &chain);
}

void ImportExpander::Warn(std::string_view line, const std::string& from,
                          const std::string& reason) {
  std::string message = "AGENTS.md import `";
  message.append(line.data(), line.size());
  message += "` in `" + from + "` " + reason;
  warnings_->push_back({WarningCode::kAgentsMdImportWarning, std::move(message)});
}

std::string ImportExpander::ExpandAt(std::string_view text, const std::string& path,
                                     std::uint32_t depth, bool cut,
                                     std::vector<std::string>* chain) {
  std::string out;
  out.reserve(text.size());
  bool in_fence = false;
  char open_char = 0;
  std::size_t open_run = 0;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t lf = text.find('\n', start);
    bool has_lf = lf != std::string_view::npos;
    std::size_t end = has_lf ? lf : text.size();
    std::string_view line = text.substr(start, end - start);
    std::string_view whole = text.substr(start, (has_lf ? end + 1 : end) - start);
    start = has_lf ? end + 1 : text.size();

    char fence_char = 0;
    std::size_t run = 0;
    std::string_view rest;
    if (FenceRun(line, &fence_char, &run, &rest)) {
      if (!in_fence) {
        in_fence = true;
        open_char = fence_char;
        open_run = run;
      } else if (fence_char == open_char && run >= open_run &&
                 TrimTrailing(rest, " \t\r").empty()) {
        in_fence = false;
      }
      out.append(whole.data(), whole.size());
      continue;
    }
    std::string_view target =
        in_fence || (cut && !has_lf) ? std::string_view() : ImportTarget(line);
    std::string expanded;
    if (target.empty() ||
        !Import(TrimTrailing(line, " \t\r"), target, path, depth, chain, &expanded)) {
      out.append(whole.data(), whole.size());
      continue;
    }
    out += expanded;
    if (has_lf && (expanded.empty() || expanded.back() != '\n')) out += '\n';
  }
  return out;
}

bool ImportExpander::Import(std::string_view line, std::string_view target, const std::string& from,
                            std::uint32_t depth, std::vector<std::string>* chain,
                            std::string* out) {
  const std::string where = scope_is_root_ ? "the project root `" + scope_ + "`"
                                           : "the working directory `" + scope_ + "`";
  // Step 2.
  if (target[0] == '/') {
    Warn(line, from, "refused: absolute paths are not imported");
    return false;
  }
  Result<std::string> resolved = ResolvePath(Parent(from), target);
  if (!resolved.has_value()) {
    Warn(line, from, "refused: it leaves " + where + " (" + resolved.error().Display() + ")");
    return false;
  }
  const std::string& path = *resolved;
  if (!IsUnder(path, scope_)) {
    Warn(line, from, "refused: `" + path + "` is outside " + where);
    return false;
  }
  // Step 3.
  if (depth + 1 > kMaxImportDepth) {
    Warn(line, from,
         "not read: imports nest at most " + std::to_string(kMaxImportDepth) + " levels deep");
    return false;
  }
  if (std::find(chain->begin(), chain->end(), path) != chain->end()) {
    Warn(line, from, "not read again: `" + path + "` is already included (import cycle)");
    return false;
  }
  std::string key = IncludedKey(env_.fs_name, path);
  if (included_->count(key) != 0) {
    Warn(line, from, "not read again: `" + path + "` is already included");
    return false;
  }
  // Step 4.
  Result<FileStat> st = env_.fs->Stat(path);
  probes_->Record(env_.fs_name, path, ProbeRole::kImport, st);
  if (!st.has_value()) {
    if (st.error().code == ErrorCode::kNotFound) {
      Warn(line, from, "not found: `" + path + "`");
    } else {
      Warn(line, from, "not read: " + st.error().Display());
    }
    return false;
  }
  if (st->kind != FileKind::kFile) {
    Warn(line, from, "not read: `" + path + "` is not a file");
    return false;
  }
  if (budget_->remaining == 0) {
    SkipForBudget(budget_, path, st->size, warnings_);
    return false;
  }
  // Step 5.
  Result<std::string> data = env_.fs->Read(path, budget_->remaining);
  if (!data.has_value()) {
    Warn(line, from, "not read: " + data.error().Display());
    return false;
  }
  std::string raw = std::move(data).value();
  bool cut = CutToBudget(budget_, path, st->size, &raw, warnings_);
  budget_->remaining -= raw.size();
  included_->insert(std::move(key));
  imported_->push_back(AgentsMdImport{path, from, depth + 1});
  // Step 6.
  chain->push_back(path);
  *out = ExpandAt(LossyUtf8(raw), path, depth + 1, cut, chain);
  chain->pop_back();
  return true;
}

std::string IncludedKey(std::string_view fs_name, std::string_view path) {
  std::string key(fs_name);
  key.push_back('\0');
  key.append(path.data(), path.size());
  return key;
}

}  // namespace agentctx
