// SPDX-License-Identifier: MIT
// AGENTS.md discovery and reading. See discovery.h for the numbered algorithm.
#include "agents_md/discovery.h"

#include <algorithm>
#include <set>
#include <utility>

#include "agents_md/assembly.h"
#include "agents_md/budget.h"
#include "agents_md/imports.h"
#include "support/paths.h"
#include "support/utf8.h"

namespace agentctx {

namespace {

struct Candidate {
  std::string path;
  std::uint64_t size = 0;
  AgentsMdSourceKind kind = AgentsMdSourceKind::kProject;
};

struct EnvLoad {
  std::vector<AgentsMdEntry> entries;
  std::vector<AgentsMdWarning> warnings;
  std::uint64_t used = 0;
  std::uint64_t omitted = 0;  // budget.h
};

// A single path segment we can join safely (`.`/`..`/NUL would not give a normalised path).
bool IsPlainName(const std::string& name) {
  return !name.empty() && name != "." && name != ".." && name.find('/') == std::string::npos &&
         name.find('\0') == std::string::npos;
}

// Step 1 of discovery.h: the global file.
GlobalDoc ReadGlobal(const AgentsMdInputs& inputs, ProbeSet* probes,
                     std::vector<AgentsMdWarning>* warnings) {
  GlobalDoc global;
  global.home_dir = inputs.config.home_dir;
  if (inputs.environments.empty()) return global;
  const EnvironmentSelection& primary = inputs.environments.front();
  global.fs_name = primary.fs_name;
  global.fs_epoch = primary.fs_epoch;
  if (!inputs.config.home_dir.has_value() || primary.fs == nullptr) return global;
  auto home = NormalizeAbsolute(*inputs.config.home_dir);
  for (const char* name : {kAgentsOverrideFilename, kAgentsFilename}) {
    std::string path = home.has_value() ? Join(*home, name) : Join(*inputs.config.home_dir, name);
    auto warn = [&](const Error& err) {
      warnings->push_back(
          {WarningCode::kAgentsMdReadWarning,
           "Failed to read global AGENTS.md instructions from `" + path + "`: " + err.Display()});
    };
    if (!home.has_value()) {  // config validation prevents this; warn once
      warn(home.error());
      break;
    }
    Result<FileStat> st = primary.fs->Stat(path);
    probes->Record(primary.fs_name, path, ProbeRole::kGlobalFile, st);
    if (!st.has_value()) {
      ErrorCode code = st.error().code;
      if (code != ErrorCode::kNotFound && code != ErrorCode::kNotCapable) warn(st.error());
      continue;
    }
    if (st->kind != FileKind::kFile) continue;
    Result<std::string> data = primary.fs->Read(path, kGlobalAgentsMdMaxBytes);
    if (!data.has_value()) {
      ErrorCode code = data.error().code;
      if (code != ErrorCode::kNotFound && code != ErrorCode::kNotCapable) warn(data.error());
      continue;
    }
    std::string raw = std::move(data).value();
    std::vector<AgentsMdWarning> cut_warnings;  // said only for the candidate that wins
    std::uint64_t omitted = CutGlobalToLimit(path, st->size, &raw, &cut_warnings);
    std::string text = LossyUtf8(raw);
    std::string_view trimmed = TrimUnicode(text);
    if (trimmed.empty()) continue;  // a blank override falls back to AGENTS.md
    global.text = std::string(trimmed);
    if (omitted > 0) {
      AppendNoteLine(&*global.text, GlobalTruncationNote(omitted));
      for (AgentsMdWarning& w : cut_warnings) warnings->push_back(std::move(w));
    }
    global.path = path;
    break;
  }
  return global;
}

// Step 3a of discovery.h: the directories to search, root first (`*found_root`: a marker was
// found, so the first directory is the project root rather than the cwd).
std::vector<std::string> SearchDirs(const EnvironmentSelection& env, const std::string& cwd,
                                    const AgentsMdConfig& config, ProbeSet* probes,
                                    bool* found_root, std::vector<AgentsMdWarning>* warnings) {
  std::optional<std::string> root;
  bool any_marker = std::any_of(config.root_markers.begin(), config.root_markers.end(),
                                [](const std::string& m) { return IsPlainName(m); });
  if (any_marker) {
    std::string dir = cwd;
    for (std::size_t searched = 0; !root.has_value(); ++searched) {
      if (searched == kMaxAgentsMdSearchDirs) {  // cwd only (discovery.h)
        warnings->push_back(
            {WarningCode::kAgentsMdReadWarning, "AGENTS.md root search stopped after " +
                                                    std::to_string(kMaxAgentsMdSearchDirs) +
                                                    " directories: searching only `" + cwd + "`"});
        break;
      }
      for (const std::string& marker : config.root_markers) {
        if (!IsPlainName(marker)) continue;
        std::string path = Join(dir, marker);
        Result<FileStat> st = env.fs->Stat(path);
        probes->Record(env.fs_name, path, ProbeRole::kMarker, st);
        if (st.has_value()) {  // file or dir; stat errors mean absent
          root = dir;
          break;
        }
      }
      if (root.has_value() || dir == "/") break;
      dir = Parent(dir);
    }
  }
  std::vector<std::string> dirs;
  *found_root = root.has_value();
  if (!root.has_value()) {
    dirs.push_back(cwd);
    return dirs;
  }
  std::string dir = cwd;
  dirs.push_back(dir);
  while (dir != *root) {
    dir = Parent(dir);
    dirs.push_back(dir);
  }
  std::reverse(dirs.begin(), dirs.end());
  return dirs;
}

// Steps 3a-3c of discovery.h for one environment; an error is the environment's failure.
Result<EnvLoad> LoadEnvironment(const EnvironmentSelection& env, const AgentsMdConfig& config,
                                const std::vector<std::string>& names, std::uint64_t remaining,
                                ProbeSet* probes) {
  if (env.fs == nullptr) {
    return Fail(ErrorCode::kIo, "no FileSystem named `" + env.fs_name + "`");
  }
  ACTX_TRY(std::string cwd, NormalizeAbsolute(env.cwd));
  std::vector<Candidate> found;
  // A candidate stat: true when `path` is a file (appended to `found`); not_found, a directory
  // or kind `other` -> false; other errors fail the environment.
  auto probe_file = [&](std::string path, AgentsMdSourceKind kind) -> Result<bool> {
    Result<FileStat> st = env.fs->Stat(path);
    probes->Record(env.fs_name, path, ProbeRole::kProjectFile, st);
    if (!st.has_value()) {
      if (st.error().code == ErrorCode::kNotFound) return false;
      return Fail(std::move(st).error());
    }
    if (st->kind != FileKind::kFile) return false;
    found.push_back(Candidate{std::move(path), st->size, kind});
    return true;
  };
  bool found_root = false;
  std::vector<AgentsMdWarning> search_warnings;
  std::vector<std::string> dirs =
      SearchDirs(env, cwd, config, probes, &found_root, &search_warnings);
  for (const std::string& dir : dirs) {
    for (const std::string& name : names) {
      ACTX_TRY(bool is_file, probe_file(Join(dir, name), AgentsMdSourceKind::kProject));
      if (is_file) break;  // one file per directory
    }
    // Step 3b': the directory's personal overlay follows its selected file (ours).
    ACTX_TRY(bool has_local,
             probe_file(Join(dir, kAgentsLocalFilename), AgentsMdSourceKind::kLocal));
    (void)has_local;
  }
  EnvLoad load;
  load.warnings = std::move(search_warnings);
  // Files read for this environment (its documents and their imports): each is read once. Two
  // environments may share files, and then each block has them (labelled layout, assembly.h).
  std::set<std::string> included;
  ImportExpander imports(env, dirs.front(), found_root, probes, &included, &load.warnings);
  ByteBudget budget{remaining, 0};
  for (const Candidate& c : found) {
    std::string key = IncludedKey(env.fs_name, c.path);
    if (included.count(key) != 0) continue;  // already imported: each file once
    if (budget.remaining == 0) {             // found but not read: said (budget.h rule 2)
      SkipForBudget(&budget, c.path, c.size, &load.warnings);
      continue;
    }
    Result<std::string> data = env.fs->Read(c.path, budget.remaining);
    if (!data.has_value()) {
      if (data.error().code == ErrorCode::kNotFound) continue;
      return Fail(std::move(data).error());
    }
    std::string raw = std::move(data).value();
    bool truncated = CutToBudget(&budget, c.path, c.size, &raw, &load.warnings);
    std::string text = LossyUtf8(raw);
    if (TrimUnicode(text).empty()) continue;  // whitespace-only: dropped, consumes nothing
    budget.remaining -= raw.size();
    included.insert(std::move(key));
    AgentsMdEntry entry{std::string(), c.path, env.id, cwd, c.kind, {}};
    entry.contents = imports.Expand(text, c.path, truncated, &budget, &entry.imports);
    load.entries.push_back(std::move(entry));
  }
  load.used = remaining - budget.remaining;
  load.omitted = budget.omitted;
  return load;
}

std::string CwdForDisplay(const std::string& cwd) {
  auto normalized = NormalizeAbsolute(cwd);
  return normalized.has_value() ? std::move(normalized).value() : cwd;
}

}  // namespace

std::vector<std::string> CandidateNames(const std::vector<std::string>& fallbacks) {
  std::vector<std::string> names = {kAgentsOverrideFilename, kAgentsFilename};
  for (const std::string& name : fallbacks) {
    if (!IsPlainName(name) || name == kAgentsLocalFilename) continue;
    if (std::find(names.begin(), names.end(), name) != names.end()) continue;
    names.push_back(name);
  }
  return names;
}

Result<AgentsMdLoad> LoadAgentsMd(const AgentsMdInputs& inputs, const GlobalDoc* cached_global) {
  AgentsMdLoad load;
  const AgentsMdConfig& config = inputs.config;
  const EnvironmentSelection* primary =
      inputs.environments.empty() ? nullptr : &inputs.environments.front();

  // Step 1: global (reused in selection mode when read from the same place).
  if (cached_global != nullptr && primary != nullptr &&
      cached_global->home_dir == config.home_dir && cached_global->fs_name == primary->fs_name &&
      cached_global->fs_epoch == primary->fs_epoch) {
    load.global = *cached_global;
    load.global_reused = true;
  } else {
    load.global = ReadGlobal(inputs, &load.probes, &load.warnings);
  }

  // Steps 2-3: project docs.
  std::vector<AgentsMdEntry> entries;
  if (inputs.trusted && config.max_bytes > 0) {
    std::vector<std::string> names = CandidateNames(config.fallback_filenames);
    std::uint64_t remaining = config.max_bytes;
    for (const EnvironmentSelection& env : inputs.environments) {
      if (!env.ready) continue;
      if (remaining == 0) break;
      Result<EnvLoad> env_load = LoadEnvironment(env, config, names, remaining, &load.probes);
      if (!env_load.has_value()) {
        std::string err = env_load.error().Display();
        if (env.sandboxed) {
          return Fail(
              ErrorCode::kAgentsMdLoadFailed,
              "failed to load AGENTS.md instructions for environment `" + env.id + "`: " + err);
        }
        load.warnings.push_back(
            {WarningCode::kAgentsMdReadWarning, "error trying to find AGENTS.md docs: " + err});
        continue;  // contributes nothing, consumes no budget
      }
      remaining -= env_load->used;
      load.result.omitted_bytes += env_load->omitted;
      for (AgentsMdWarning& w : env_load->warnings) load.warnings.push_back(std::move(w));
      for (AgentsMdEntry& e : env_load->entries) entries.push_back(std::move(e));
    }
  }

  // Step 4: assembly and provenance.
  AgentsMdResult& result = load.result;
  result.primary_cwd = primary != nullptr ? CwdForDisplay(primary->cwd) : std::string();
  result.global_text = load.global.text;
  result.text = AssembleAgentsMdText(result.global_text, entries);
  if (result.text.has_value() && result.omitted_bytes > 0) {
    AppendTruncationNote(&*result.text, result.omitted_bytes, config.max_bytes);
  }
  if (result.global_text.has_value()) {
    AgentsMdSource global;
    global.path = load.global.path;
    global.environment_id = primary->id;
    global.cwd = result.primary_cwd;
    global.global = true;
    global.kind = AgentsMdSourceKind::kGlobal;
    result.sources.push_back(std::move(global));
  }
  for (const AgentsMdEntry& e : entries) {
    result.sources.push_back(
        AgentsMdSource{e.path, e.environment_id, e.cwd, /*global=*/false, e.kind, {}});
    for (const AgentsMdImport& i : e.imports) {
      result.sources.push_back(AgentsMdSource{i.path, e.environment_id, e.cwd, /*global=*/false,
                                              AgentsMdSourceKind::kImport, i.imported_from});
    }
  }
  result.entries = std::move(entries);
  return load;
}

}  // namespace agentctx
