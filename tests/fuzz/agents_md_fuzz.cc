// SPDX-License-Identifier: MIT
// Fuzz target: the AGENTS.md loader and its cache over a MemoryFileSystem built from the input.
// Input: a tree script, one command per line (unknown lines are ignored; tokens are separated
// by single spaces, so paths hold no spaces):
//   env <id> <cwd> [host] [starting]   an environment (the first is primary); none -> /repo
//   home <dir>  |  max <bytes>  |  marker <name>  |  fallback <name>  |  untrusted  |  probe
//   file <path> <content>              content is the rest of the line; \n \r \\ \xHH escapes
//   dir <path>  |  other <path>  |  link <path> <target>
//   error <stat|read|list|write> <path> <wire error code>
// The first `marker` line replaces the default [".git"]. Then the manager refreshes, renders
// the fragment, the event and the inspect view. Properties: nothing crashes; a second refresh
// with unchanged inputs and tree is a cache hit; in probe mode, rewriting a loaded source file
// makes the next refresh reload.
#include <string>
#include <vector>

#include "agents_md/manager.h"
#include "agents_md/types.h"
#include "fuzz_check.h"
#include "protocol/json_value.h"
#include "support/memory_file_system.h"

namespace agentctx {
namespace {

std::vector<std::string_view> Split(std::string_view line, std::size_t max_parts) {
  std::vector<std::string_view> parts;
  while (parts.size() + 1 < max_parts) {
    std::size_t sp = line.find(' ');
    if (sp == std::string_view::npos) break;
    parts.push_back(line.substr(0, sp));
    line.remove_prefix(sp + 1);
  }
  parts.push_back(line);
  return parts;
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string Unescape(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 == s.size()) {
      out.push_back(s[i]);
      continue;
    }
    char e = s[++i];
    if (e == 'n') {
      out.push_back('\n');
    } else if (e == 'r') {
      out.push_back('\r');
    } else if (e == 'x' && i + 2 < s.size() && HexDigit(s[i + 1]) >= 0 && HexDigit(s[i + 2]) >= 0) {
      out.push_back(static_cast<char>(HexDigit(s[i + 1]) * 16 + HexDigit(s[i + 2])));
      i += 2;
    } else {
      out.push_back(e);
    }
  }
  return out;
}

bool ParseOp(std::string_view name, MemoryFileSystem::Op* op) {
  if (name == "stat")
    *op = MemoryFileSystem::Op::kStat;
  else if (name == "read")
    *op = MemoryFileSystem::Op::kRead;
  else if (name == "list")
    *op = MemoryFileSystem::Op::kList;
  else if (name == "write")
    *op = MemoryFileSystem::Op::kWrite;
  else
    return false;
  return true;
}

void Run(std::string_view text) {
  MemoryFileSystem fs;
  AgentsMdInputs inputs;
  bool markers_set = false;
  while (!text.empty()) {
    std::size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    std::vector<std::string_view> p = Split(line, 3);
    std::string_view cmd = p[0];
    if (cmd == "env" && p.size() >= 3) {
      std::vector<std::string_view> rest = Split(p[2], 8);
      EnvironmentSelection env;
      env.id = std::string(p[1]);
      env.cwd = std::string(rest[0]);
      env.fs_name = "main";
      env.fs = &fs;
      env.sandboxed = true;
      for (std::size_t i = 1; i < rest.size(); ++i) {
        if (rest[i] == "host") env.sandboxed = false;
        if (rest[i] == "starting") env.ready = false;
      }
      if (inputs.environments.size() < 4) inputs.environments.push_back(env);
    } else if (cmd == "home" && p.size() >= 2) {
      inputs.config.home_dir = std::string(line.substr(5));
    } else if (cmd == "max" && p.size() >= 2) {
      std::uint64_t n = 0;
      for (char c : p[1]) {
        if (c < '0' || c > '9' || n > (1ull << 40)) break;
        n = n * 10 + static_cast<std::uint64_t>(c - '0');
      }
      inputs.config.max_bytes = n;
    } else if (cmd == "marker" && p.size() >= 2) {
      if (!markers_set) inputs.config.root_markers.clear();
      markers_set = true;
      if (inputs.config.root_markers.size() < 4) {
        inputs.config.root_markers.push_back(std::string(line.substr(7)));
      }
    } else if (cmd == "fallback" && p.size() >= 2) {
      if (inputs.config.fallback_filenames.size() < 4) {
        inputs.config.fallback_filenames.push_back(std::string(line.substr(9)));
      }
    } else if (cmd == "untrusted") {
      inputs.trusted = false;
    } else if (cmd == "probe") {
      inputs.config.refresh = AgentsMdRefresh::kProbe;
    } else if (cmd == "file" && p.size() >= 2) {
      (void)fs.AddFile(p[1], p.size() >= 3 ? Unescape(p[2]) : std::string());
    } else if (cmd == "dir" && p.size() >= 2) {
      (void)fs.AddDir(p[1]);
    } else if (cmd == "other" && p.size() >= 2) {
      (void)fs.AddOther(p[1]);
    } else if (cmd == "link" && p.size() >= 3) {
      (void)fs.AddSymlink(p[1], p[2]);
    } else if (cmd == "error" && p.size() >= 3) {
      std::vector<std::string_view> rest = Split(p[2], 2);
      MemoryFileSystem::Op op;
      ErrorCode code;
      if (rest.size() == 2 && ParseOp(p[1], &op) && ErrorCodeFromName(rest[1], &code)) {
        fs.InjectError(rest[0], op, code);
      }
    }
  }
  if (inputs.environments.empty()) {
    inputs.environments.push_back(EnvironmentSelection{"primary", "/repo", "main", &fs, true});
  }

  AgentsMdManager manager;
  Result<RefreshOutcome> first = manager.Refresh(inputs);
  (void)ToJson(manager.Inspect());
  if (!first.has_value()) {
    ACTX_FUZZ_CHECK(first.error().code == ErrorCode::kAgentsMdLoadFailed);
    ACTX_FUZZ_CHECK(manager.instruction_sources().empty());
    return;
  }
  ACTX_FUZZ_CHECK(first->reloaded);
  (void)manager.Fragment();
  (void)ToJson(manager.InstructionsLoadedEvent());
  const std::vector<std::string> sources = manager.instruction_sources();

  Result<RefreshOutcome> second = manager.Refresh(inputs);
  ACTX_FUZZ_CHECK(second.has_value());
  ACTX_FUZZ_CHECK(!second->reloaded);
  ACTX_FUZZ_CHECK(manager.instruction_sources() == sources);

  if (inputs.config.refresh != AgentsMdRefresh::kProbe) return;
  for (const AgentsMdEntry& entry : manager.loaded().entries) {
    if (!fs.Write(entry.path, "rewritten by the fuzzer", false).has_value()) continue;
    Result<RefreshOutcome> third = manager.Refresh(inputs);
    ACTX_FUZZ_CHECK(!third.has_value() || third->reloaded);
    (void)ToJson(manager.Inspect());
    break;
  }
}

}  // namespace
}  // namespace agentctx

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  agentctx::Run(agentctx::fuzz::AsText(data, size));
  return 0;
}
