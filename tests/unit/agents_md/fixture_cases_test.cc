// SPDX-License-Identifier: MIT
// Runs every tests/fixtures/agents_md/<case>/ (one TEST per case: the reference vectors plus
// our edge cases). Each case: load the input trees into MemoryFileSystems, Refresh once, then
// compare text (expected.txt), sources (and their kinds), warnings, error and fragment with
// case.json "expect", and the inspect view with the golden inspect.json (ACTX_UPDATE_GOLDENS=1
// rewrites it).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "agents_md/manager.h"
#include "support/agents_md_case.h"
#include "support/fixtures.h"

namespace agentctx {
namespace {

using testing::AgentsMdCase;

const std::vector<std::string>& KnownCases() {
  static const std::vector<std::string> kCases = {
      "agents_is_dir",
      "agents_is_other",
      "blank_override",
      "budget_full_skips_nested",
      "candidate_stat_error_sandboxed",
      "custom_marker",
      "fallback_names_filtered",
      "fallback_only",
      "fallback_with_agents",
      "git_file_workspace",
      "global_and_project",
      "global_blank_override",
      "global_invalid_utf8",
      "global_override_symlink_loop",
      "hello_world",
      "host_env_failure_restores_budget",
      "import_cycle",
      "import_depth_limit",
      "import_diamond_counted_once",
      "import_in_code_fence",
      "import_in_place",
      "import_missing",
      "import_nested",
      "import_of_walked_file",
      "import_outside_cwd_without_root",
      "import_outside_root",
      "invalid_utf8",
      "labelled_block",
      "limit_zero",
      "local_overlay_after_override",
      "local_overlay_follows_team_file",
      "local_overlay_in_budget",
      "local_overlay_only",
      "marker_stat_io",
      "nothing",
      "override_is_dir",
      "override_wins",
      "primary_fills_limit",
      "read_denied_host",
      "read_denied_sandboxed",
      "read_not_found",
      "root_and_cwd",
      "root_nested_budget",
      "secondary_only_doc",
      "starting_env_skipped",
      "truncated",
      "truncated_40k",
      "two_env_budget",
      "untrusted",
      "whitespace_doc_consumes_nothing",
  };
  return kCases;
}

std::vector<std::string> Strings(const JsonValue& array) {
  std::vector<std::string> out;
  for (const JsonValue& v : array.items()) out.push_back(v.string_value());
  return out;
}

void RunCase(const std::string& name) {
  SCOPED_TRACE("fixture agents_md/" + name);
  AgentsMdCase c;
  std::string error;
  ASSERT_TRUE(testing::LoadAgentsMdCase(name, &c, &error)) << error;
  AgentsMdManager manager;
  Result<RefreshOutcome> outcome = manager.Refresh(c.inputs);

  if (const JsonValue* expected_error = c.expect.Find("error")) {
    ASSERT_FALSE(outcome.has_value()) << "expected the load to fail";
    EXPECT_EQ(ErrorCodeName(outcome.error().code), expected_error->GetString("code").value());
    EXPECT_EQ(outcome.error().message, expected_error->GetString("message").value());
    EXPECT_FALSE(manager.has_loaded());
    EXPECT_TRUE(manager.instruction_sources().empty());
    EXPECT_FALSE(c.expected_text.has_value()) << "a failing case has no expected.txt";
  } else {
    ASSERT_TRUE(outcome.has_value()) << outcome.error().Display();
    EXPECT_TRUE(outcome->reloaded);
    EXPECT_EQ(outcome->generation, 1u);
    EXPECT_TRUE(manager.has_loaded());
    EXPECT_EQ(manager.loaded().text, c.expected_text);
    if (!c.expected_text.has_value()) {
      EXPECT_TRUE(manager.instruction_sources().empty());
    }
    if (const JsonValue* sources = c.expect.Find("sources")) {
      EXPECT_EQ(manager.instruction_sources(), Strings(*sources));
    }
    if (const JsonValue* kinds = c.expect.Find("source_kinds")) {
      std::vector<std::string> actual;
      for (const AgentsMdSource& s : manager.loaded().sources) {
        actual.push_back(std::string(AgentsMdSourceKindName(s.kind)));
      }
      EXPECT_EQ(actual, Strings(*kinds));
    }
    if (const JsonValue* warnings = c.expect.Find("warnings")) {
      std::vector<std::pair<std::string, std::string>> want;
      for (const JsonValue& w : warnings->items()) {
        want.emplace_back(std::string(w.GetString("code").value_or("")),
                          std::string(w.GetString("message").value_or("")));
      }
      EXPECT_EQ(outcome->warnings.size(), want.size());
      for (std::size_t i = 0; i < std::min(want.size(), outcome->warnings.size()); ++i) {
        EXPECT_EQ(ToWire(outcome->warnings[i].code), want[i].first);
        EXPECT_EQ(outcome->warnings[i].message, want[i].second);
      }
    }
    if (auto fragment = c.expect.GetString("fragment")) {
      ASSERT_TRUE(manager.Fragment().has_value());
      EXPECT_EQ(*manager.Fragment(), *fragment);
    }
  }

  const std::string golden_path = "agents_md/" + name + "/inspect.json";
  const std::string actual = ToJson(manager.Inspect()) + "\n";
  if (testing::UpdateGoldens()) {
    ASSERT_TRUE(testing::WriteFixture(golden_path, actual));
  } else {
    std::optional<std::string> golden = testing::ReadFixture(golden_path);
    ASSERT_TRUE(golden.has_value())
        << "missing golden " << golden_path << " (run natively with ACTX_UPDATE_GOLDENS=1)";
    EXPECT_EQ(actual, *golden);
  }
}

TEST(AgentsMdFixtures, EveryCaseDirectoryIsRun) {
  std::vector<std::string> dirs = testing::ListFixtureDir("agents_md");
  ASSERT_FALSE(dirs.empty());
  EXPECT_EQ(dirs, KnownCases()) << "add a TEST below for each new fixture case";
}

#define ACTX_AGENTS_MD_CASE(TestName, dir) \
  TEST(AgentsMdFixtures, TestName) { RunCase(dir); }

ACTX_AGENTS_MD_CASE(AgentsIsDir, "agents_is_dir")
ACTX_AGENTS_MD_CASE(AgentsIsOther, "agents_is_other")
ACTX_AGENTS_MD_CASE(BlankOverride, "blank_override")
ACTX_AGENTS_MD_CASE(BudgetFullSkipsNested, "budget_full_skips_nested")
ACTX_AGENTS_MD_CASE(CandidateStatErrorSandboxed, "candidate_stat_error_sandboxed")
ACTX_AGENTS_MD_CASE(CustomMarker, "custom_marker")
ACTX_AGENTS_MD_CASE(FallbackNamesFiltered, "fallback_names_filtered")
ACTX_AGENTS_MD_CASE(FallbackOnly, "fallback_only")
ACTX_AGENTS_MD_CASE(FallbackWithAgents, "fallback_with_agents")
ACTX_AGENTS_MD_CASE(GitFileWorkspace, "git_file_workspace")
ACTX_AGENTS_MD_CASE(GlobalAndProject, "global_and_project")
ACTX_AGENTS_MD_CASE(GlobalBlankOverride, "global_blank_override")
ACTX_AGENTS_MD_CASE(GlobalInvalidUtf8, "global_invalid_utf8")
ACTX_AGENTS_MD_CASE(GlobalOverrideSymlinkLoop, "global_override_symlink_loop")
ACTX_AGENTS_MD_CASE(HelloWorld, "hello_world")
ACTX_AGENTS_MD_CASE(HostEnvFailureRestoresBudget, "host_env_failure_restores_budget")
ACTX_AGENTS_MD_CASE(ImportCycle, "import_cycle")
ACTX_AGENTS_MD_CASE(ImportDepthLimit, "import_depth_limit")
ACTX_AGENTS_MD_CASE(ImportDiamondCountedOnce, "import_diamond_counted_once")
ACTX_AGENTS_MD_CASE(ImportInCodeFence, "import_in_code_fence")
ACTX_AGENTS_MD_CASE(ImportInPlace, "import_in_place")
ACTX_AGENTS_MD_CASE(ImportMissing, "import_missing")
ACTX_AGENTS_MD_CASE(ImportNested, "import_nested")
ACTX_AGENTS_MD_CASE(ImportOfWalkedFile, "import_of_walked_file")
ACTX_AGENTS_MD_CASE(ImportOutsideCwdWithoutRoot, "import_outside_cwd_without_root")
ACTX_AGENTS_MD_CASE(ImportOutsideRoot, "import_outside_root")
ACTX_AGENTS_MD_CASE(InvalidUtf8, "invalid_utf8")
ACTX_AGENTS_MD_CASE(LabelledBlock, "labelled_block")
ACTX_AGENTS_MD_CASE(LimitZero, "limit_zero")
ACTX_AGENTS_MD_CASE(LocalOverlayAfterOverride, "local_overlay_after_override")
ACTX_AGENTS_MD_CASE(LocalOverlayFollowsTeamFile, "local_overlay_follows_team_file")
ACTX_AGENTS_MD_CASE(LocalOverlayInBudget, "local_overlay_in_budget")
ACTX_AGENTS_MD_CASE(LocalOverlayOnly, "local_overlay_only")
ACTX_AGENTS_MD_CASE(MarkerStatIo, "marker_stat_io")
ACTX_AGENTS_MD_CASE(Nothing, "nothing")
ACTX_AGENTS_MD_CASE(OverrideIsDir, "override_is_dir")
ACTX_AGENTS_MD_CASE(OverrideWins, "override_wins")
ACTX_AGENTS_MD_CASE(PrimaryFillsLimit, "primary_fills_limit")
ACTX_AGENTS_MD_CASE(ReadDeniedHost, "read_denied_host")
ACTX_AGENTS_MD_CASE(ReadDeniedSandboxed, "read_denied_sandboxed")
ACTX_AGENTS_MD_CASE(ReadNotFound, "read_not_found")
ACTX_AGENTS_MD_CASE(RootAndCwd, "root_and_cwd")
ACTX_AGENTS_MD_CASE(RootNestedBudget, "root_nested_budget")
ACTX_AGENTS_MD_CASE(SecondaryOnlyDoc, "secondary_only_doc")
ACTX_AGENTS_MD_CASE(StartingEnvSkipped, "starting_env_skipped")
ACTX_AGENTS_MD_CASE(Truncated, "truncated")
ACTX_AGENTS_MD_CASE(Truncated40k, "truncated_40k")
ACTX_AGENTS_MD_CASE(TwoEnvBudget, "two_env_budget")
ACTX_AGENTS_MD_CASE(Untrusted, "untrusted")
ACTX_AGENTS_MD_CASE(WhitespaceDocConsumesNothing, "whitespace_doc_consumes_nothing")

}  // namespace
}  // namespace agentctx
