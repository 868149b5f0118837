// SPDX-License-Identifier: MIT
#include "world_state/sections/permissions_section.h"

#include <gtest/gtest.h>

#include "unit/world_state/test_inputs.h"
#include "world_state/world_state_hash.h"

namespace agentctx {
namespace {

using testing::BaseInputs;

constexpr std::string_view kReadOnlyNever =
    "<permissions instructions>\nFilesystem sandboxing defines which files can be read or "
    "written. `sandbox_mode` is `read-only`: The sandbox only permits reading files. Network "
    "access is restricted.\nApproval policy is currently never. Do not provide the "
    "`sandbox_permissions` for any reason, commands will be rejected.\n"
    "</permissions instructions>";

TEST(PermissionsText, ReadOnlyNeverNoNetwork) {
  WorldInputs in = BaseInputs();
  EXPECT_EQ(RenderPermissionsBlock(in), kReadOnlyNever);
}

TEST(PermissionsText, WorkspaceWriteUnlessTrusted) {
  WorldInputs in = BaseInputs();
  in.sandbox.mode = SandboxMode::kWorkspaceWrite;
  in.approval_policy = ApprovalPolicy::kUnlessTrusted;
  EXPECT_EQ(RenderPermissionsBlock(in),
            "<permissions instructions>\nFilesystem sandboxing defines which files can be read or "
            "written. `sandbox_mode` is `workspace-write`: The sandbox permits reading files, and "
            "editing files in `cwd` and `writable_roots`. Editing files in other directories "
            "requires approval. Network access is restricted.\n `approval_policy` is "
            "`unless-trusted`: The harness will require user approval before running commands "
            "unless an explicit exec policy rule allows them.\n The writable root is `/repo`.\n"
            "</permissions instructions>");
}

TEST(PermissionsText, WorkspaceWriteOnRequestNetworkRoots) {
  WorldInputs in = BaseInputs();
  in.sandbox.mode = SandboxMode::kWorkspaceWrite;
  in.sandbox.network_access = true;
  in.sandbox.writable_roots = {"/scratch"};
  in.approval_policy = ApprovalPolicy::kOnRequest;
  EXPECT_EQ(RenderPermissionsBlock(in),
            "<permissions instructions>\nFilesystem sandboxing defines which files can be read or "
            "written. `sandbox_mode` is `workspace-write`: The sandbox permits reading files, and "
            "editing files in `cwd` and `writable_roots`. Editing files in other directories "
            "requires approval. Network access is enabled.\nApproval policy is currently "
            "on-request. If a task needs access that the sandbox does not allow, stop and ask the "
            "user before continuing.\n The writable roots are `/repo`, `/scratch`.\n"
            "</permissions instructions>");
}

TEST(PermissionsText, DangerFullAccessOnFailure) {
  WorldInputs in = BaseInputs();
  in.sandbox.mode = SandboxMode::kDangerFullAccess;
  in.sandbox.writable_roots = {"/ignored"};
  in.approval_policy = ApprovalPolicy::kOnFailure;
  EXPECT_EQ(RenderPermissionsBlock(in),
            "<permissions instructions>\nFilesystem sandboxing defines which files can be read or "
            "written. `sandbox_mode` is `danger-full-access`: No filesystem sandboxing - all "
            "commands are permitted. Network access is restricted.\nApproval policy is currently "
            "on-failure. If an action fails because of the sandbox, report what failed and what "
            "access it would need, and let the user decide.\n</permissions instructions>");
}

TEST(PermissionsText, WritableRootsSortedAndDeduplicated) {
  WorldInputs in = BaseInputs();
  in.sandbox.mode = SandboxMode::kWorkspaceWrite;
  in.sandbox.writable_roots = {"/z", "/repo", "/a", "/z"};
  std::string block = RenderPermissionsBlock(in);
  EXPECT_NE(block.find("\n The writable roots are `/a`, `/repo`, `/z`.\n</permissions"),
            std::string::npos)
      << block;
}

TEST(PermissionsSection, SnapshotValueForReadOnlyNever) {
  PermissionsSection section;
  EXPECT_EQ(ToSortedJson(section.Snapshot(BaseInputs())),
            "{\"instructions\":\"fed2f53df24dd05a217b734cf7ad9abefa7cc6a2\"}");
  EXPECT_EQ(WorldStateHash(Role::kDeveloper, kReadOnlyNever),
            "fed2f53df24dd05a217b734cf7ad9abefa7cc6a2");
}

TEST(PermissionsSection, KnownEqualHashRendersNothing) {
  PermissionsSection section;
  WorldInputs in = BaseInputs();
  EXPECT_FALSE(section.RenderDiff(PreviousState::Known(section.Snapshot(in)), in));
}

TEST(PermissionsSection, ChangedOrUnknownRendersFullBlock) {
  PermissionsSection section;
  WorldInputs in = BaseInputs();
  JsonValue before = section.Snapshot(in);
  in.sandbox.network_access = true;
  auto changed = section.RenderDiff(PreviousState::Known(before), in);
  ASSERT_TRUE(changed);
  EXPECT_EQ(changed->role, Role::kDeveloper);
  EXPECT_EQ(changed->text, RenderPermissionsBlock(in));
  EXPECT_TRUE(section.RenderDiff(PreviousState::Absent(), in));
  EXPECT_TRUE(section.RenderDiff(PreviousState::Unknown(), in));
}

TEST(PermissionsSection, RestoreNeedsInstructionsString) {
  PermissionsSection section;
  JsonValue ok = JsonValue::Object();
  ok.Set("instructions", JsonValue::String("abc"));
  EXPECT_TRUE(section.CanRestore(ok));
  EXPECT_FALSE(section.CanRestore(JsonValue::String("abc")));
  EXPECT_FALSE(section.CanRestore(JsonValue::Object()));
}

}  // namespace
}  // namespace agentctx
