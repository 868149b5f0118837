// SPDX-License-Identifier: MIT
// AGENTS.local.md overlays (ours, docs/agents-md.md): per directory of the walk, after that
// directory's selected file, as its own document with kind `local`; under the same stat/read
// failure policy as the team file, inside the shared budget, and watched by `probe` refresh.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "agents_md/discovery.h"
#include "agents_md/manager.h"
#include "support/counting_file_system.h"
#include "support/memory_file_system.h"

namespace agentctx {
namespace {

using testing::CountingFileSystem;

class AgentsMdLocalOverlay : public ::testing::Test {
 protected:
  void Add(const std::string& path, const std::string& bytes) {
    ASSERT_TRUE(fs_.AddFile(path, bytes, 1).has_value()) << path;
  }
  AgentsMdInputs Inputs(const std::string& cwd, bool sandboxed = true,
                        AgentsMdRefresh mode = AgentsMdRefresh::kSelection) {
    AgentsMdInputs in;
    in.config.max_bytes = 4096;
    in.config.refresh = mode;
    in.environments.push_back(EnvironmentSelection{"primary", cwd, "main", &counting_, sandboxed});
    return in;
  }
  AgentsMdLoad LoadOk(const AgentsMdInputs& in) {
    Result<AgentsMdLoad> r = LoadAgentsMd(in, nullptr);
    EXPECT_TRUE(r.has_value()) << r.error().Display();
    return r.has_value() ? std::move(r).value() : AgentsMdLoad{};
  }
  static std::vector<std::string> Kinds(const AgentsMdResult& result) {
    std::vector<std::string> out;
    for (const AgentsMdSource& s : result.sources) {
      out.push_back(std::string(AgentsMdSourceKindName(s.kind)));
    }
    return out;
  }

  MemoryFileSystem fs_;
  CountingFileSystem counting_{&fs_};
};

TEST_F(AgentsMdLocalOverlay, IsStattedAfterEachDirectorysWinnerAndReadAfterIt) {
  Add("/repo/.git/HEAD", "x");
  Add("/repo/AGENTS.override.md", "o");
  Add("/repo/AGENTS.local.md", "l");
  Add("/repo/sub/AGENTS.md", "s");
  AgentsMdLoad load = LoadOk(Inputs("/repo/sub"));
  EXPECT_EQ(load.result.text, "o\n\nl\n\ns");
  EXPECT_EQ(counting_.log(), (std::vector<std::string>{
                                 "stat /repo/sub/.git",
                                 "stat /repo/.git",
                                 "stat /repo/AGENTS.override.md",
                                 "stat /repo/AGENTS.local.md",
                                 "stat /repo/sub/AGENTS.override.md",
                                 "stat /repo/sub/AGENTS.md",
                                 "stat /repo/sub/AGENTS.local.md",
                                 "read /repo/AGENTS.override.md 4096",
                                 "read /repo/AGENTS.local.md 4095",
                                 "read /repo/sub/AGENTS.md 4094",
                             }));
}

TEST_F(AgentsMdLocalOverlay, IsItsOwnEntryAndSourceWithKindLocal) {
  Add("/repo/AGENTS.md", "team");
  Add("/repo/AGENTS.local.md", "mine");
  AgentsMdLoad load = LoadOk(Inputs("/repo"));
  ASSERT_EQ(load.result.entries.size(), 2u);
  EXPECT_EQ(load.result.entries[0].kind, AgentsMdSourceKind::kProject);
  EXPECT_EQ(load.result.entries[1].kind, AgentsMdSourceKind::kLocal);
  EXPECT_EQ(load.result.entries[1].contents, "mine");
  EXPECT_EQ(Kinds(load.result), (std::vector<std::string>{"project", "local"}));
}

TEST_F(AgentsMdLocalOverlay, FollowsTheGlobalSeparatorRulesLikeAnyEntry) {
  Add("/home/AGENTS.md", "global");
  Add("/repo/AGENTS.local.md", "mine");
  AgentsMdInputs in = Inputs("/repo");
  in.config.home_dir = "/home";
  AgentsMdLoad load = LoadOk(in);
  EXPECT_EQ(load.result.text, "global\n\n--- project-doc ---\n\nmine");
  EXPECT_EQ(Kinds(load.result), (std::vector<std::string>{"global", "local"}));
}

TEST_F(AgentsMdLocalOverlay, IsNeverAFallbackName) {
  Add("/repo/AGENTS.local.md", "mine");
  AgentsMdInputs in = Inputs("/repo");
  in.config.fallback_filenames = {"AGENTS.local.md"};
  AgentsMdLoad load = LoadOk(in);
  EXPECT_EQ(load.result.text, "mine");  // read once, as the overlay
  EXPECT_EQ(Kinds(load.result), (std::vector<std::string>{"local"}));
  EXPECT_EQ(CandidateNames({"AGENTS.local.md", "X.md"}),
            (std::vector<std::string>{"AGENTS.override.md", "AGENTS.md", "X.md"}));
}

TEST_F(AgentsMdLocalOverlay, DirectoryOrWhitespaceOverlayContributesNothing) {
  Add("/repo/AGENTS.md", "team");
  ASSERT_TRUE(fs_.AddDir("/repo/AGENTS.local.md").has_value());
  EXPECT_EQ(LoadOk(Inputs("/repo")).result.sources.size(), 1u);
  ASSERT_TRUE(fs_.Remove("/repo/AGENTS.local.md").has_value());
  Add("/repo/AGENTS.local.md", " \n\t");
  AgentsMdLoad load = LoadOk(Inputs("/repo"));
  EXPECT_EQ(load.result.text, "team");
  EXPECT_EQ(load.result.sources.size(), 1u);
}

TEST_F(AgentsMdLocalOverlay, UntrustedSkipsIt) {
  Add("/repo/AGENTS.local.md", "mine");
  AgentsMdInputs in = Inputs("/repo");
  in.trusted = false;
  EXPECT_FALSE(LoadOk(in).result.text.has_value());
}

TEST_F(AgentsMdLocalOverlay, StatErrorFollowsTheEnvironmentFailurePolicy) {
  Add("/repo/AGENTS.md", "team");
  fs_.InjectError("/repo/AGENTS.local.md", MemoryFileSystem::Op::kStat,
                  ErrorCode::kPermissionDenied);
  Result<AgentsMdLoad> sandboxed = LoadAgentsMd(Inputs("/repo", true), nullptr);
  ASSERT_FALSE(sandboxed.has_value());
  EXPECT_EQ(sandboxed.error().message,
            "failed to load AGENTS.md instructions for environment `primary`: permission_denied: "
            "/repo/AGENTS.local.md");
  AgentsMdLoad host = LoadOk(Inputs("/repo", false));
  EXPECT_FALSE(host.result.text.has_value());  // the environment contributes nothing
  ASSERT_EQ(host.warnings.size(), 1u);
  EXPECT_EQ(host.warnings[0].message,
            "error trying to find AGENTS.md docs: permission_denied: /repo/AGENTS.local.md");
}

TEST_F(AgentsMdLocalOverlay, ProbeModeSeesItCreatedEditedAndDeleted) {
  Add("/repo/AGENTS.md", "team");
  AgentsMdManager manager;
  AgentsMdInputs in = Inputs("/repo", true, AgentsMdRefresh::kProbe);
  ASSERT_TRUE(manager.Refresh(in).has_value());
  EXPECT_EQ(manager.loaded().text, "team");
  EXPECT_FALSE(manager.Refresh(in)->reloaded);

  fs_.SetClock(10);
  ASSERT_TRUE(fs_.Write("/repo/AGENTS.local.md", "mine", false).has_value());
  Result<RefreshOutcome> created = manager.Refresh(in);
  ASSERT_TRUE(created.has_value());
  EXPECT_TRUE(created->reloaded);
  EXPECT_EQ(manager.loaded().text, "team\n\nmine");
  EXPECT_EQ(manager.instruction_sources(),
            (std::vector<std::string>{"/repo/AGENTS.md", "/repo/AGENTS.local.md"}));

  ASSERT_TRUE(fs_.Write("/repo/AGENTS.local.md", "mine, edited", false).has_value());
  EXPECT_TRUE(manager.Refresh(in)->reloaded);
  EXPECT_EQ(manager.loaded().text, "team\n\nmine, edited");

  ASSERT_TRUE(fs_.Remove("/repo/AGENTS.local.md").has_value());
  EXPECT_TRUE(manager.Refresh(in)->reloaded);
  EXPECT_EQ(manager.loaded().text, "team");
}

TEST_F(AgentsMdLocalOverlay, SelectionModeDoesNotSeeANewOverlay) {
  Add("/repo/AGENTS.md", "team");
  AgentsMdManager manager;
  AgentsMdInputs in = Inputs("/repo");
  ASSERT_TRUE(manager.Refresh(in).has_value());
  Add("/repo/AGENTS.local.md", "mine");
  EXPECT_FALSE(manager.Refresh(in)->reloaded);
  EXPECT_EQ(manager.loaded().text, "team");
}

}  // namespace
}  // namespace agentctx
