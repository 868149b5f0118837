// SPDX-License-Identifier: MIT
// Loads one tests/fixtures/agents_md/<case>/ directory (layout in tests/fixtures/README.md):
// its input trees become MemoryFileSystems, case.json becomes AgentsMdInputs plus the setup
// ops (injected errors, symlinks, kind `other`) and the expectations.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>

#include "agents_md/types.h"
#include "protocol/json_value.h"
#include "support/memory_file_system.h"

namespace agentctx::testing {

struct AgentsMdCase {
  std::string name;
  std::map<std::string, std::unique_ptr<MemoryFileSystem>> filesystems;  // by fs name
  AgentsMdInputs inputs;                                                 // fs pointers set
  JsonValue expect;                          // case.json "expect" (object, maybe empty)
  std::optional<std::string> expected_text;  // expected.txt; none = no text expected
};

/// Loads case `name`; false with `*error` set when the case is malformed.
bool LoadAgentsMdCase(const std::string& name, AgentsMdCase* out, std::string* error);

/// Parses a case.json environment list entry set (shared with hand-written tests):
/// {"id","cwd","fs" ["main"],"sandboxed" [fs->Sandboxed()],"status" ["available"],"fs_epoch" [0]}.
bool ParseCaseEnvironment(const JsonValue& value, AgentsMdCase* c, EnvironmentSelection* out,
                          std::string* error);

}  // namespace agentctx::testing
