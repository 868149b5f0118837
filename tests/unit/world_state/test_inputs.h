// SPDX-License-Identifier: MIT
// Shared WorldInputs builders for the world-state unit and property tests.
#pragma once

#include <string>
#include <vector>

#include "support/sha1.h"
#include "world_state/section.h"
#include "world_state/world_inputs.h"
#include "world_state/world_state.h"

namespace agentctx {
namespace testing {

/// One available environment `local` at /repo with bash, read-only + never, model mock-1.
inline WorldInputs BaseInputs() {
  WorldInputs in;
  in.model.slug = "mock-1";
  in.model.instructions = "You are a helpful coding agent.";
  in.sandbox.mode = SandboxMode::kReadOnly;
  in.approval_policy = ApprovalPolicy::kNever;
  in.environments.push_back(
      EnvironmentInput{"local", "/repo", EnvironmentStatus::kAvailable, std::string("bash")});
  in.agents_md.directory = "/repo";
  in.tools.advertised = Sha1Hex("[]");
  return in;
}

/// The fragment a single section renders against `prev`.
inline std::optional<Fragment> RenderSection(const WorldStateSection& section,
                                             const PreviousState& prev, const WorldInputs& in) {
  return section.RenderDiff(prev, in);
}

/// `role[part|part]` summaries of messages, for compact bundle assertions.
inline std::vector<std::string> Summaries(const std::vector<ContextMessage>& messages) {
  std::vector<std::string> out;
  for (const ContextMessage& m : messages) {
    std::string s(RoleName(m.role));
    s += "[";
    for (std::size_t i = 0; i < m.parts.size(); ++i) {
      if (i > 0) s += "|";
      s += m.parts[i];
    }
    s += "]";
    out.push_back(s);
  }
  return out;
}

}  // namespace testing
}  // namespace agentctx
