// SPDX-License-Identifier: MIT
#include "world_state/sections/tools_section.h"

#include <gtest/gtest.h>

#include "protocol/json_codec.h"
#include "unit/world_state/test_inputs.h"

namespace agentctx {
namespace {

using testing::BaseInputs;

constexpr std::string_view kPendingHeader =
    "The following tools were added or changed and will become callable after the next context "
    "compaction:\n";
constexpr std::string_view kWithdrawnHeader =
    "The following tools are no longer available. Do not call them:\n";

WorldInputs Deferred() {
  WorldInputs in = BaseInputs();
  in.tools.policy = ToolPolicy::kDefer;
  return in;
}

TEST(ToolsSection, DeferFmtAdded) {
  ToolsSection section;
  WorldInputs before = Deferred();
  WorldInputs after = Deferred();
  after.tools.pending = {{"fmt", "Formats code"}};
  auto f = section.RenderDiff(PreviousState::Known(section.Snapshot(before)), after);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->role, Role::kDeveloper);
  EXPECT_EQ(f->text,
            "<tools>\nThe following tools were added or changed and will become callable after "
            "the next context compaction:\n- fmt: Formats code\n</tools>");
  // The advertised hash (frozen array) is unchanged.
  EXPECT_EQ(section.Snapshot(after).GetString("advertised"),
            section.Snapshot(before).GetString("advertised"));
}

TEST(ToolsSection, SnapshotOmitsEmptyArrays) {
  ToolsSection section;
  WorldInputs in = Deferred();
  EXPECT_EQ(ToSortedJson(section.Snapshot(in)), "{\"advertised\":\"" + in.tools.advertised + "\"}");
  in.tools.pending = {{"fmt", "x"}};
  in.tools.withdrawn = {"old"};
  EXPECT_EQ(ToSortedJson(section.Snapshot(in)), "{\"advertised\":\"" + in.tools.advertised +
                                                    "\",\"pending\":[\"fmt\"],\"withdrawn\":["
                                                    "\"old\"]}");
}

TEST(ToolsSection, PendingAndWithdrawn) {
  EXPECT_EQ(RenderToolsNotice({{"a", "first line\nsecond line"}, {"b", "  padded  "}}, {"gone"}),
            "<tools>\n" + std::string(kPendingHeader) + "- a: first line\n- b: padded\n" +
                std::string(kWithdrawnHeader) + "- gone\n</tools>");
  EXPECT_EQ(RenderToolsNotice({}, {"x", "y"}),
            "<tools>\n" + std::string(kWithdrawnHeader) + "- x\n- y\n</tools>");
}

TEST(ToolsSection, EmptyDescriptionListsNameOnly) {
  EXPECT_EQ(RenderToolsNotice({{"bare", " \n more"}}, {}),
            "<tools>\n" + std::string(kPendingHeader) + "- bare\n</tools>");
}

TEST(ToolsSection, DescriptionCutTo250Characters) {
  std::string desc;
  for (int i = 0; i < 300; ++i) desc += "ü";
  std::string cut;
  for (int i = 0; i < 250; ++i) cut += "ü";
  EXPECT_EQ(RenderToolsNotice({{"t", desc}}, {}),
            "<tools>\n" + std::string(kPendingHeader) + "- t: " + cut + "\n</tools>");
}

TEST(ToolsSection, BothEmptyAfterPendingIsNoChangesNotice) {
  ToolsSection section;
  WorldInputs before = Deferred();
  before.tools.pending = {{"fmt", "Formats code"}};
  auto f = section.RenderDiff(PreviousState::Known(section.Snapshot(before)), Deferred());
  ASSERT_TRUE(f);
  EXPECT_EQ(f->text, "<tools>\nNo tool changes are pending.\n</tools>");
}

TEST(ToolsSection, RenderRules) {
  ToolsSection section;
  WorldInputs in = Deferred();
  // Absent/Unknown = empty: nothing pending → nothing.
  EXPECT_FALSE(section.RenderDiff(PreviousState::Absent(), in));
  EXPECT_FALSE(section.RenderDiff(PreviousState::Unknown(), in));
  in.tools.pending = {{"fmt", "Formats code"}};
  EXPECT_TRUE(section.RenderDiff(PreviousState::Absent(), in));
  EXPECT_TRUE(section.RenderDiff(PreviousState::Unknown(), in));
  // Same pending set → nothing, even if the advertised hash changed.
  JsonValue before = section.Snapshot(in);
  in.tools.advertised = "different";
  EXPECT_FALSE(section.RenderDiff(PreviousState::Known(before), in));
  // Under apply nothing is ever rendered.
  in.tools.policy = ToolPolicy::kApply;
  EXPECT_FALSE(section.RenderDiff(PreviousState::Absent(), in));
  EXPECT_FALSE(section.RenderDiff(PreviousState::Known(*ParseJson(R"({"advertised":"x"})")), in));
}

TEST(ToolsSection, CapAt4096Bytes) {
  std::vector<PendingTool> pending;
  for (int i = 0; i < 100; ++i) {
    pending.push_back({"tool_" + std::to_string(i), std::string(100, 'd')});
  }
  std::vector<std::string> withdrawn = {"w1", "w2"};
  std::string text = RenderToolsNotice(pending, withdrawn);
  EXPECT_LE(text.size(), kToolsNoticeCapBytes);
  std::size_t kept = 0;
  for (std::size_t p = text.find("\n- tool_"); p != std::string::npos;
       p = text.find("\n- tool_", p + 1)) {
    ++kept;
  }
  ASSERT_GT(kept, 0u);
  ASSERT_LT(kept, 100u);
  EXPECT_EQ(text.find(kWithdrawnHeader), std::string::npos);
  const std::string tail =
      "... " + std::to_string(102 - kept) + " additional tools omitted.\n</tools>";
  ASSERT_GE(text.size(), tail.size());
  EXPECT_EQ(text.substr(text.size() - tail.size()), tail);
  // One more line would not have fitted.
  EXPECT_GT(text.size() + std::string("- tool_10: " + std::string(100, 'd') + "\n").size(),
            kToolsNoticeCapBytes);
}

TEST(ToolsSection, RestoreShape) {
  ToolsSection section;
  EXPECT_TRUE(section.CanRestore(*ParseJson(R"({"advertised":"x","pending":["a"]})")));
  EXPECT_FALSE(section.CanRestore(*ParseJson(R"({"pending":["a"]})")));
  EXPECT_FALSE(section.CanRestore(*ParseJson(R"({"advertised":"x","withdrawn":[1]})")));
}

}  // namespace
}  // namespace agentctx
