// SPDX-License-Identifier: MIT
#include "world_state/sections/developer_instructions_section.h"

#include <gtest/gtest.h>

#include "unit/world_state/test_inputs.h"
#include "world_state/world_state_hash.h"

namespace agentctx {
namespace {

using testing::BaseInputs;

TEST(DeveloperInstructionsSection, SnapshotIsHashOrAbsent) {
  DeveloperInstructionsSection section;
  WorldInputs in = BaseInputs();
  EXPECT_TRUE(section.Snapshot(in).is_null());
  in.developer_instructions = "";
  EXPECT_TRUE(section.Snapshot(in).is_null());
  in.developer_instructions = "Be terse.";
  EXPECT_EQ(ToSortedJson(section.Snapshot(in)),
            "{\"instructions\":\"" + WorldStateHash("developer", "Be terse.") + "\"}");
  EXPECT_FALSE(section.markers().has_value());
}

TEST(DeveloperInstructionsSection, AbsentPlusSetRendersText) {
  WorldInputs in = BaseInputs();
  in.developer_instructions = "Be terse.";
  auto f = DeveloperInstructionsSection().RenderDiff(PreviousState::Absent(), in);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->role, Role::kDeveloper);
  EXPECT_EQ(f->text, "Be terse.");
}

TEST(DeveloperInstructionsSection, AbsentPlusUnsetRendersNothing) {
  EXPECT_FALSE(DeveloperInstructionsSection().RenderDiff(PreviousState::Absent(), BaseInputs()));
}

TEST(DeveloperInstructionsSection, KnownSameRendersNothing) {
  DeveloperInstructionsSection section;
  WorldInputs in = BaseInputs();
  in.developer_instructions = "Be terse.";
  EXPECT_FALSE(section.RenderDiff(PreviousState::Known(section.Snapshot(in)), in));
}

TEST(DeveloperInstructionsSection, KnownChangedRendersReplacement) {
  DeveloperInstructionsSection section;
  WorldInputs in = BaseInputs();
  in.developer_instructions = "Be terse.";
  JsonValue before = section.Snapshot(in);
  in.developer_instructions = "Be verbose.";
  auto f = section.RenderDiff(PreviousState::Known(before), in);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->text,
            "These developer instructions replace all previously provided developer "
            "instructions.\n\nBe verbose.");
}

TEST(DeveloperInstructionsSection, KnownToUnsetRendersRemoval) {
  DeveloperInstructionsSection section;
  WorldInputs in = BaseInputs();
  in.developer_instructions = "Be terse.";
  JsonValue before = section.Snapshot(in);
  in.developer_instructions.reset();
  auto f = section.RenderDiff(PreviousState::Known(before), in);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->text, "The previously provided developer instructions no longer apply.");
}

}  // namespace
}  // namespace agentctx
