// SPDX-License-Identifier: MIT
#include "world_state/sections/permissions_section.h"

#include <algorithm>
#include <vector>

#include "world_state/world_state_hash.h"

namespace agentctx {
namespace {

constexpr std::string_view kSandboxPrefix =
    "Filesystem sandboxing defines which files can be read or written. `sandbox_mode` is ";

std::string SandboxSentence(const SandboxInputs& sandbox) {
  std::string s(kSandboxPrefix);
  switch (sandbox.mode) {
    case SandboxMode::kReadOnly:
      s += "`read-only`: The sandbox only permits reading files.";
      break;
    case SandboxMode::kWorkspaceWrite:
      s += "`workspace-write`: The sandbox permits reading files, and editing files in `cwd` and "
           "`writable_roots`. Editing files in other directories requires approval.";
      break;
    case SandboxMode::kDangerFullAccess:
      s += "`danger-full-access`: No filesystem sandboxing - all commands are permitted.";
      break;
  }
  s += sandbox.network_access ? " Network access is enabled." : " Network access is restricted.";
  return s;
}

std::string_view ApprovalText(ApprovalPolicy policy) {
  switch (policy) {
    case ApprovalPolicy::kNever:
      return "Approval policy is currently never. Do not provide the `sandbox_permissions` for "
             "any reason, commands will be rejected.\n";
    case ApprovalPolicy::kUnlessTrusted:
      return " `approval_policy` is `unless-trusted`: The harness will require user approval "
             "before running commands unless an explicit exec policy rule allows them.";
    case ApprovalPolicy::kOnRequest:
      return "Approval policy is currently on-request. If a task needs access that the sandbox "
             "does not allow, stop and ask the user before continuing.\n";
    case ApprovalPolicy::kOnFailure:
      return "Approval policy is currently on-failure. If an action fails because of the "
             "sandbox, report what failed and what access it would need, and let the user "
             "decide.\n";
  }
  return "";
}

std::string WritableRootsSentence(const WorldInputs& inputs) {
  std::vector<std::string> roots = inputs.sandbox.writable_roots;
  roots.emplace_back(inputs.primary_cwd());
  std::sort(roots.begin(), roots.end());
  roots.erase(std::unique(roots.begin(), roots.end()), roots.end());
  std::string s = roots.size() == 1 ? " The writable root is " : " The writable roots are ";
  for (std::size_t i = 0; i < roots.size(); ++i) {
    if (i > 0) s += ", ";
    s += '`';
    s += roots[i];
    s += '`';
  }
  s += '.';
  return s;
}

void AppendPart(std::string* body, std::string_view part) {
  if (body->empty() || body->back() != '\n') body->push_back('\n');
  body->append(part);
}

}  // namespace

std::string RenderPermissionsBlock(const WorldInputs& inputs) {
  std::string body;
  AppendPart(&body, SandboxSentence(inputs.sandbox));
  AppendPart(&body, ApprovalText(inputs.approval_policy));
  if (inputs.sandbox.mode == SandboxMode::kWorkspaceWrite) {
    AppendPart(&body, WritableRootsSentence(inputs));
  }
  if (body.empty() || body.back() != '\n') body.push_back('\n');
  return std::string(kPermissionsMarkers.start) + body + std::string(kPermissionsMarkers.end);
}

std::optional<Markers> PermissionsSection::markers() const { return kPermissionsMarkers; }

JsonValue PermissionsSection::Snapshot(const WorldInputs& inputs) const {
  JsonValue v = JsonValue::Object();
  v.Set("instructions",
        JsonValue::String(WorldStateHash(Role::kDeveloper, RenderPermissionsBlock(inputs))));
  return v;
}

bool PermissionsSection::CanRestore(const JsonValue& stored) const {
  return stored.is_object() && stored.GetString("instructions").has_value();
}

std::optional<Fragment> PermissionsSection::RenderDiff(const PreviousState& prev,
                                                       const WorldInputs& inputs) const {
  std::string block = RenderPermissionsBlock(inputs);
  if (prev.is_known()) {
    auto stored = prev.value.GetString("instructions");
    if (stored && *stored == WorldStateHash(Role::kDeveloper, block)) return std::nullopt;
  }
  std::string notice = block;  // the harness's own policy text, all of it
  return Fragment{Role::kDeveloper, std::move(block), std::move(notice), {}};
}

}  // namespace agentctx
