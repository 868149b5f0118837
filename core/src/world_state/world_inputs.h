// SPDX-License-Identifier: MIT
// WorldInputs: the current values the world-state sections render from.
// Plain data, built by the session from config, the environments, the AGENTS.md manager result
// and the tool sets; the world_state module only reads it.
// Invariants:
//  - environments[0] is the primary environment; config guarantees at least one, but
//    every renderer tolerates an empty list (primary cwd = "").
//  - Strings are valid UTF-8 (config and AGENTS.md text are lossy-decoded before they get here).
//  - tools.pending/withdrawn are computed by the caller from the frozen vs current tool sets
//    (`defer` policy); they are empty under `apply`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "agentctx/wire_enums.h"
#include "protocol/json_value.h"
#include "protocol/task_frontier.h"

namespace agentctx {

struct ModelInputs {
  std::string slug;
  std::string instructions;
};

struct SandboxInputs {
  SandboxMode mode = SandboxMode::kWorkspaceWrite;
  std::vector<std::string> writable_roots;
  bool network_access = false;
};

/// The AGENTS.md manager's current result. `text` unset (or empty) = no text.
struct AgentsMdSectionInputs {
  std::string directory;  // the cwd the text was loaded for (snapshot `directory`)
  std::optional<std::string> text;
};

struct SkillInput {
  std::string name;
  std::optional<std::string> description;
  std::string path;
};

struct EnvironmentInput {
  std::string id;
  std::string cwd;
  EnvironmentStatus status = EnvironmentStatus::kAvailable;
  std::optional<std::string> shell;
};

struct EnvironmentContextInputs {
  bool include_date = false;
  std::optional<std::string> current_date;  // "YYYY-MM-DD"
  std::optional<std::string> timezone;      // IANA name
};

struct PendingTool {
  std::string name;         // advertised name
  std::string description;  // full description; the notice uses its first line
};

struct ToolsInputs {
  ToolPolicy policy = ToolPolicy::kApply;
  std::string advertised;  // lowercase hex SHA-1 of the advertised tools array bytes
  std::vector<PendingTool> pending;
  std::vector<std::string> withdrawn;
};

/// The context budget at the turn start (ours; docs/context-budget.md): tokens in use, the
/// window and the auto-compaction threshold.
struct ContextBudgetInputs {
  std::uint64_t used = 0;
  std::uint64_t window = 0;  // > 0
  std::uint64_t auto_limit = 0;
};

struct WorldInputs {
  ModelInputs model;
  std::optional<std::string> previous_turn_model;  // slug of the previous turn's model, if known
  SandboxInputs sandbox;
  ApprovalPolicy approval_policy = ApprovalPolicy::kOnRequest;
  std::optional<std::string> developer_instructions;
  AgentsMdSectionInputs agents_md;
  std::vector<SkillInput> skills;
  std::vector<EnvironmentInput> environments;  // first = primary
  EnvironmentContextInputs environment_context;
  ToolsInputs tools;
  /// The task frontier (ours); none when `task_frontier.enabled` is false.
  std::optional<TaskFrontier> task_frontier;
  /// The context budget (ours); none unless `context_budget.enabled` and a window.
  std::optional<ContextBudgetInputs> context_budget;
  /// Values of embedder-registered sections by id (an object); unused by built-ins.
  JsonValue custom;

  /// The primary environment's cwd ("" when there is no environment).
  std::string_view primary_cwd() const {
    return environments.empty() ? std::string_view() : std::string_view(environments[0].cwd);
  }
};

}  // namespace agentctx
