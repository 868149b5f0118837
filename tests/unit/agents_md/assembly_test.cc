// SPDX-License-Identifier: MIT
// AGENTS.md assembly and the fragment: legacy and labelled layouts, the fragment renderer.
#include "agents_md/assembly.h"

#include <gtest/gtest.h>

#include "agents_md/discovery.h"

namespace agentctx {
namespace {

AgentsMdEntry Entry(std::string contents, std::string env, std::string cwd) {
  return AgentsMdEntry{std::move(contents), "/x/AGENTS.md", std::move(env), std::move(cwd)};
}

TEST(AgentsMdAssembly, NothingIsNone) {
  EXPECT_FALSE(AssembleAgentsMdText(std::nullopt, {}).has_value());
}

TEST(AgentsMdAssembly, GlobalOnly) { EXPECT_EQ(AssembleAgentsMdText(std::string("G"), {}), "G"); }

TEST(AgentsMdAssembly, LegacyGlobalThenEntries) {
  EXPECT_EQ(AssembleAgentsMdText(std::string("base instructions"),
                                 {Entry("proj doc", "primary", "/repo")}),
            "base instructions\n\n--- project-doc ---\n\nproj doc");
  EXPECT_EQ(AssembleAgentsMdText(std::string("g"),
                                 {Entry("a", "primary", "/repo"), Entry("b", "primary", "/repo")}),
            "g\n\n--- project-doc ---\n\na\n\nb");
}

TEST(AgentsMdAssembly, LegacyEntriesOnly) {
  EXPECT_EQ(AssembleAgentsMdText(std::nullopt, {Entry("root doc", "primary", "/repo"),
                                                Entry("crate doc", "primary", "/repo")}),
            "root doc\n\ncrate doc");
}

TEST(AgentsMdAssembly, LegacyWhenOnlyTheSecondaryHasEntries) {
  EXPECT_EQ(AssembleAgentsMdText(std::string("global instructions"),
                                 {Entry("secondary doc", "secondary", "/srv")}),
            "global instructions\n\n--- project-doc ---\n\nsecondary doc");
}

TEST(AgentsMdAssembly, LabelledForTwoEnvironments) {
  EXPECT_EQ(AssembleAgentsMdText(std::nullopt,
                                 {Entry("ABCDE", "primary", "P"), Entry("VW", "secondary", "S")}),
            "for `primary` with root P\n\nABCDE\n\nfor `secondary` with root S\n\nVW");
}

TEST(AgentsMdAssembly, LabelledHeaderPerConsecutiveRun) {
  std::string expected =
      "global instructions\n\nfor `primary` with root /repo/nested\n\nprimary root doc\n\n"
      "primary nested doc\n\nfor `secondary` with root /srv\n\nsecondary doc";
  EXPECT_EQ(AssembleAgentsMdText(std::string("global instructions"),
                                 {Entry("primary root doc", "primary", "/repo/nested"),
                                  Entry("primary nested doc", "primary", "/repo/nested"),
                                  Entry("secondary doc", "secondary", "/srv")}),
            expected);
}

TEST(AgentsMdAssembly, FragmentShape) {
  EXPECT_EQ(RenderAgentsMdFragment("/repo", "hello world"),
            "# AGENTS.md instructions for /repo\n\n<INSTRUCTIONS>\nhello world\n</INSTRUCTIONS>");
  EXPECT_EQ(RenderAgentsMdFragment("/repo", kAgentsMdRemovalNotice),
            "# AGENTS.md instructions for /repo\n\n<INSTRUCTIONS>\nThe previously provided "
            "AGENTS.md instructions no longer apply.\n</INSTRUCTIONS>");
}

TEST(AgentsMdAssembly, CandidateNamesSkipBadAndDuplicateFallbacks) {
  EXPECT_EQ(CandidateNames({}), (std::vector<std::string>{"AGENTS.override.md", "AGENTS.md"}));
  EXPECT_EQ(
      CandidateNames({"", "AGENTS.md", "a/b", "EXAMPLE.md", "EXAMPLE.md", ".", "..",
                      std::string("x\0y", 3), "NOTES.md"}),
      (std::vector<std::string>{"AGENTS.override.md", "AGENTS.md", "EXAMPLE.md", "NOTES.md"}));
}

}  // namespace
}  // namespace agentctx
