// SPDX-License-Identifier: MIT
#include "world_state/sections/agents_md_section.h"

#include <gtest/gtest.h>

#include "protocol/json_codec.h"
#include "unit/world_state/test_inputs.h"

namespace agentctx {
namespace {

using testing::BaseInputs;

// F(x): the AGENTS.md fragment around x (cwd /repo).
std::string F(std::string_view x) {
  return "# AGENTS.md instructions for /repo\n\n<INSTRUCTIONS>\n" + std::string(x) +
         "\n</INSTRUCTIONS>";
}

const std::string kReplacement(kAgentsMdReplacementNotice);
const std::string kRemoval(kAgentsMdRemovalNotice);

PreviousState Known(std::string_view json) { return PreviousState::Known(*ParseJson(json)); }

WorldInputs WithText(std::optional<std::string> text, std::string cwd = "/repo") {
  WorldInputs in = BaseInputs();
  in.environments[0].cwd = cwd;
  in.agents_md.directory = cwd;
  in.agents_md.text = std::move(text);
  return in;
}

std::optional<std::string> Render(const PreviousState& prev, const WorldInputs& in) {
  auto f = AgentsMdSection().RenderDiff(prev, in);
  if (!f) return std::nullopt;
  EXPECT_EQ(f->role, Role::kUser);
  return f->text;
}

TEST(AgentsMdSection, FragmentShape) {
  EXPECT_EQ(RenderAgentsMdFragment("/repo", "hello world"),
            "# AGENTS.md instructions for /repo\n\n<INSTRUCTIONS>\nhello world\n</INSTRUCTIONS>");
}

TEST(AgentsMdSection, SnapshotValues) {
  AgentsMdSection section;
  EXPECT_EQ(ToSortedJson(section.Snapshot(WithText(std::nullopt))), "{}");
  EXPECT_EQ(ToSortedJson(section.Snapshot(WithText(""))), "{}");
  EXPECT_EQ(ToSortedJson(section.Snapshot(WithText("x"))),
            "{\"directory\":\"/repo\",\"text\":\"x\"}");
}

TEST(AgentsMdSection, NoChangeRowsRenderNothing) {
  // Absent → {}; Known X → X; Known {} → {}.
  EXPECT_FALSE(Render(PreviousState::Absent(), WithText(std::nullopt)));
  EXPECT_FALSE(Render(Known(R"({"directory":"/repo","text":"x"})"), WithText("x")));
  EXPECT_FALSE(Render(Known("{}"), WithText(std::nullopt)));
}

TEST(AgentsMdSection, AbsentToTextIsPlain) {
  EXPECT_EQ(Render(PreviousState::Absent(), WithText("use the project formatter")),
            F("use the project formatter"));
}

TEST(AgentsMdSection, DirectoryOnlyChangeRendersNothing) {
  EXPECT_FALSE(Render(Known(R"({"directory":"/repo","text":"x"})"), WithText("x", "/repo/sub")));
}

TEST(AgentsMdSection, KnownTextChangeIsReplacement) {
  EXPECT_EQ(Render(Known(R"({"directory":"/repo","text":"old instructions"})"),
                   WithText("new instructions")),
            F(kReplacement + "\n\nnew instructions"));
}

TEST(AgentsMdSection, KnownTextToNoneIsRemoval) {
  EXPECT_EQ(
      Render(Known(R"({"directory":"/repo","text":"new instructions"})"), WithText(std::nullopt)),
      F(kRemoval));
}

TEST(AgentsMdSection, KnownEmptyToTextIsPlain) {
  EXPECT_EQ(Render(Known("{}"), WithText("x")), F("x"));
}

TEST(AgentsMdSection, UnknownRowsUseReplacementAndRemoval) {
  EXPECT_EQ(Render(PreviousState::Unknown(), WithText("text")), F(kReplacement + "\n\ntext"));
  EXPECT_EQ(Render(PreviousState::Unknown(), WithText(std::nullopt)), F(kRemoval));
}

TEST(AgentsMdSection, HeaderUsesCurrentPrimaryCwd) {
  WorldInputs in = WithText("new", "/repo/sub");
  in.agents_md.directory = "/elsewhere";
  EXPECT_EQ(Render(Known(R"({"directory":"/repo","text":"old"})"), in),
            "# AGENTS.md instructions for /repo/sub\n\n<INSTRUCTIONS>\n" + kReplacement +
                "\n\nnew\n</INSTRUCTIONS>");
}

TEST(AgentsMdSection, RestoreShape) {
  AgentsMdSection section;
  EXPECT_TRUE(section.CanRestore(*ParseJson("{}")));
  EXPECT_TRUE(section.CanRestore(*ParseJson(R"({"directory":"/r","text":"t"})")));
  EXPECT_FALSE(section.CanRestore(*ParseJson(R"({"text":3})")));
  EXPECT_FALSE(section.CanRestore(*ParseJson(R"("text")")));
}

}  // namespace
}  // namespace agentctx
