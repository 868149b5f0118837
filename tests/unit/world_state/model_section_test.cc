// SPDX-License-Identifier: MIT
#include "world_state/sections/model_section.h"

#include <gtest/gtest.h>

#include "unit/world_state/test_inputs.h"

namespace agentctx {
namespace {

using testing::BaseInputs;

TEST(ModelSection, SwitchText) {
  EXPECT_EQ(RenderModelSwitch("Be brief."),
            "<model_switch>\nThe user was previously using a different model. Please continue "
            "the conversation according to the following instructions:\n\nBe brief.\n"
            "</model_switch>");
}

TEST(ModelSection, SnapshotIsSlug) {
  EXPECT_EQ(ToJson(ModelSection().Snapshot(BaseInputs())), "\"mock-1\"");
}

TEST(ModelSection, KnownSameSlugRendersNothing) {
  WorldInputs in = BaseInputs();
  EXPECT_FALSE(ModelSection().RenderDiff(PreviousState::Known(JsonValue::String("mock-1")), in));
}

TEST(ModelSection, KnownDifferentSlugRendersSwitch) {
  WorldInputs in = BaseInputs();
  auto f = ModelSection().RenderDiff(PreviousState::Known(JsonValue::String("old")), in);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->role, Role::kDeveloper);
  EXPECT_EQ(f->text, RenderModelSwitch(in.model.instructions));
}

TEST(ModelSection, EmptyInstructionsNeverRender) {
  WorldInputs in = BaseInputs();
  in.model.instructions = "";
  EXPECT_FALSE(ModelSection().RenderDiff(PreviousState::Known(JsonValue::String("old")), in));
}

TEST(ModelSection, AbsentOrUnknownUsesPreviousTurnModel) {
  WorldInputs in = BaseInputs();
  for (const PreviousState& prev : {PreviousState::Absent(), PreviousState::Unknown()}) {
    in.previous_turn_model.reset();
    EXPECT_FALSE(ModelSection().RenderDiff(prev, in));
    in.previous_turn_model = "mock-1";
    EXPECT_FALSE(ModelSection().RenderDiff(prev, in));
    in.previous_turn_model = "other";
    EXPECT_TRUE(ModelSection().RenderDiff(prev, in));
  }
}

TEST(ModelSection, KnownIgnoresPreviousTurnModel) {
  WorldInputs in = BaseInputs();
  in.previous_turn_model = "other";
  EXPECT_FALSE(ModelSection().RenderDiff(PreviousState::Known(JsonValue::String("mock-1")), in));
}

TEST(ModelSection, RestoreNeedsString) {
  EXPECT_TRUE(ModelSection().CanRestore(JsonValue::String("m")));
  EXPECT_FALSE(ModelSection().CanRestore(JsonValue::Int(3)));
}

}  // namespace
}  // namespace agentctx
