// SPDX-License-Identifier: MIT
#include "world_state/sections/environment_section.h"

#include <gtest/gtest.h>

#include "protocol/json_codec.h"
#include "unit/world_state/test_inputs.h"

namespace agentctx {
namespace {

using testing::BaseInputs;

std::string Block(std::string_view body) {
  return "<environment_context>" + std::string(body) + "</environment_context>";
}

EnvironmentInput Env(std::string id, std::string cwd, std::optional<std::string> shell,
                     EnvironmentStatus status = EnvironmentStatus::kAvailable) {
  return EnvironmentInput{std::move(id), std::move(cwd), status, std::move(shell)};
}

WorldInputs TwoEnvs() {
  WorldInputs in = BaseInputs();
  in.environments = {Env("local", "/repo", "bash"), Env("remote", "/srv", "zsh")};
  return in;
}

std::optional<std::string> Diff(const WorldInputs& before, const WorldInputs& after) {
  EnvironmentSection section;
  auto f = section.RenderDiff(PreviousState::Known(section.Snapshot(before)), after);
  if (!f) return std::nullopt;
  EXPECT_EQ(f->role, Role::kUser);
  return f->text;
}

TEST(EnvironmentContext, SingleEnvironment) {
  EXPECT_EQ(RenderEnvironmentContext(BaseInputs()),
            "<environment_context>\n  <cwd>/repo</cwd>\n  <shell>bash</shell>\n"
            "</environment_context>");
}

TEST(EnvironmentContext, DateAndTimezone) {
  WorldInputs in = BaseInputs();
  in.environment_context = {true, std::string("2026-02-26"), std::string("America/Los_Angeles")};
  EXPECT_EQ(RenderEnvironmentContext(in), Block("\n  <cwd>/repo</cwd>\n  <shell>bash</shell>\n"
                                                "  <current_date>2026-02-26</current_date>\n"
                                                "  <timezone>America/Los_Angeles</timezone>\n"));
}

TEST(EnvironmentContext, DateNeedsIncludeDate) {
  WorldInputs in = BaseInputs();
  in.environment_context = {false, std::string("2026-02-26"), std::string("UTC")};
  EXPECT_EQ(RenderEnvironmentContext(in), RenderEnvironmentContext(BaseInputs()));
  EXPECT_EQ(ToSortedJson(EnvironmentSection().Snapshot(in)),
            ToSortedJson(EnvironmentSection().Snapshot(BaseInputs())));
}

TEST(EnvironmentContext, MultiEnvironmentBody) {
  EXPECT_EQ(RenderEnvironmentContext(TwoEnvs()),
            Block("\n  <environments>\n    <environment id=\"local\" primary=\"true\">\n"
                  "      <cwd>/repo</cwd>\n      <shell>bash</shell>\n    </environment>\n"
                  "    <environment id=\"remote\" primary=\"false\">\n      <cwd>/srv</cwd>\n"
                  "      <shell>zsh</shell>\n    </environment>\n  </environments>\n"));
}

TEST(EnvironmentContext, MultiSortsByIdAndMarksThePrimary) {
  WorldInputs in = BaseInputs();
  in.environments = {Env("zz", "/z", std::nullopt), Env("aa", "/a", std::nullopt)};
  EXPECT_EQ(RenderEnvironmentContext(in),
            Block("\n  <environments>\n    <environment id=\"aa\" primary=\"false\">\n"
                  "      <cwd>/a</cwd>\n    </environment>\n"
                  "    <environment id=\"zz\" primary=\"true\">\n      <cwd>/z</cwd>\n"
                  "    </environment>\n  </environments>\n"));
}

TEST(EnvironmentContext, RemovedEnvironmentIsUnavailable) {
  WorldInputs after = BaseInputs();
  after.environments.clear();
  EXPECT_EQ(Diff(BaseInputs(), after),
            Block("\n  <environments>\n    <environment id=\"local\" status=\"unavailable\" />\n"
                  "  </environments>\n"));
}

TEST(EnvironmentContext, XmlEscaping) {
  WorldInputs in = BaseInputs();
  in.environments[0].cwd = "/a&b";
  in.environments[0].shell = "<\"sh'>";
  EXPECT_EQ(RenderEnvironmentContext(in),
            Block("\n  <cwd>/a&amp;b</cwd>\n  <shell>&lt;&quot;sh&apos;&gt;</shell>\n"));
  in.environments.push_back(Env("r&d", "/x", std::nullopt));
  EXPECT_NE(RenderEnvironmentContext(in).find("<environment id=\"r&amp;d\" primary=\"false\">"),
            std::string::npos);
}

TEST(EnvironmentContext, StartingEnvironmentUsesMultiLayout) {
  WorldInputs in = BaseInputs();
  in.environments[0].status = EnvironmentStatus::kStarting;
  in.environments[0].shell.reset();
  EXPECT_EQ(RenderEnvironmentContext(in),
            Block("\n  <environments>\n    <environment id=\"local\">\n      <cwd>/repo</cwd>\n"
                  "      <status>starting</status>\n    </environment>\n  </environments>\n"));
}

TEST(EnvironmentSection, SnapshotValues) {
  EXPECT_EQ(ToSortedJson(EnvironmentSection().Snapshot(BaseInputs())),
            R"({"environments":{"local":{"cwd":"/repo","shell":"bash","status":"available"}}})");
  WorldInputs in = TwoEnvs();
  in.environments[1].status = EnvironmentStatus::kStarting;
  in.environments[1].shell.reset();
  in.environment_context = {true, std::string("2026-02-26"), std::nullopt};
  EXPECT_EQ(ToSortedJson(EnvironmentSection().Snapshot(in)),
            R"({"current_date":"2026-02-26","environments":{"local":{"cwd":"/repo",)"
            R"("is_primary":true,"shell":"bash","status":"available"},"remote":{"cwd":"/srv",)"
            R"("status":"starting"}}})");
}

TEST(EnvironmentSection, UnchangedRendersNothing) {
  EXPECT_FALSE(Diff(BaseInputs(), BaseInputs()));
  EXPECT_FALSE(Diff(TwoEnvs(), TwoEnvs()));
}

TEST(EnvironmentSection, ShellUnknownToKnownIsNoChange) {
  WorldInputs before = BaseInputs();
  before.environments[0].shell.reset();
  WorldInputs after = BaseInputs();
  after.environments[0].shell = "zsh";
  EXPECT_FALSE(Diff(before, after));
  EXPECT_FALSE(Diff(after, before));  // known → unknown neither
}

TEST(EnvironmentSection, ShellChangeBetweenKnownShells) {
  WorldInputs after = BaseInputs();
  after.environments[0].shell = "zsh";
  EXPECT_EQ(Diff(BaseInputs(), after), Block("\n  <cwd>/repo</cwd>\n  <shell>zsh</shell>\n"));
}

TEST(EnvironmentSection, OnlyCurrentDateChanged) {
  WorldInputs before = BaseInputs();
  before.environment_context = {true, std::string("2026-02-26"), std::string("UTC")};
  WorldInputs after = before;
  after.environment_context.current_date = "2026-02-27";
  EXPECT_EQ(Diff(before, after), Block("\n  <current_date>2026-02-27</current_date>\n"
                                       "  <timezone>UTC</timezone>\n"));
  // Same in a multi-environment world.
  WorldInputs multi_before = TwoEnvs();
  multi_before.environment_context = before.environment_context;
  WorldInputs multi_after = TwoEnvs();
  multi_after.environment_context = after.environment_context;
  EXPECT_EQ(Diff(multi_before, multi_after), Diff(before, after));
}

TEST(EnvironmentSection, DateRemovedRendersEmptyBlock) {
  WorldInputs before = BaseInputs();
  before.environment_context = {true, std::string("2026-02-26"), std::nullopt};
  EXPECT_EQ(Diff(before, BaseInputs()), Block("\n"));
}

TEST(EnvironmentSection, CwdChangeInSingleWorld) {
  WorldInputs after = BaseInputs();
  after.environments[0].cwd = "/repo/sub";
  EXPECT_EQ(Diff(BaseInputs(), after), Block("\n  <cwd>/repo/sub</cwd>\n  <shell>bash</shell>\n"));
}

TEST(EnvironmentSection, OneOfTwoChangedListsOnlyThatOne) {
  WorldInputs after = TwoEnvs();
  after.environments[1].cwd = "/srv2";
  EXPECT_EQ(Diff(TwoEnvs(), after),
            Block("\n  <environments>\n    <environment id=\"remote\" primary=\"false\">\n"
                  "      <cwd>/srv2</cwd>\n      <shell>zsh</shell>\n    </environment>\n"
                  "  </environments>\n"));
}

TEST(EnvironmentSection, PrimarySwapChangesBoth) {
  WorldInputs after = TwoEnvs();
  std::swap(after.environments[0], after.environments[1]);
  EXPECT_EQ(Diff(TwoEnvs(), after),
            Block("\n  <environments>\n    <environment id=\"local\" primary=\"false\">\n"
                  "      <cwd>/repo</cwd>\n      <shell>bash</shell>\n    </environment>\n"
                  "    <environment id=\"remote\" primary=\"true\">\n      <cwd>/srv</cwd>\n"
                  "      <shell>zsh</shell>\n    </environment>\n  </environments>\n"));
}

TEST(EnvironmentSection, CountCrossingOneToTwo) {
  // local is unchanged but the count crossed 1 → 2: both are listed.
  EXPECT_EQ(Diff(BaseInputs(), TwoEnvs()), RenderEnvironmentContext(TwoEnvs()));
}

TEST(EnvironmentSection, CountCrossingTwoToOne) {
  // remote removed: local changed (count crossed, is_primary gone) + remote unavailable;
  // `primary=` still appears because there were 2+ environments.
  EXPECT_EQ(Diff(TwoEnvs(), BaseInputs()),
            Block("\n  <environments>\n    <environment id=\"local\" primary=\"true\">\n"
                  "      <cwd>/repo</cwd>\n      <shell>bash</shell>\n    </environment>\n"
                  "    <environment id=\"remote\" status=\"unavailable\" />\n"
                  "  </environments>\n"));
}

TEST(EnvironmentSection, ReplacedSingleEnvironment) {
  WorldInputs after = BaseInputs();
  after.environments[0].id = "other";
  EXPECT_EQ(Diff(BaseInputs(), after),
            Block("\n  <environments>\n    <environment id=\"local\" status=\"unavailable\" />\n"
                  "    <environment id=\"other\">\n      <cwd>/repo</cwd>\n"
                  "      <shell>bash</shell>\n    </environment>\n  </environments>\n"));
}

TEST(EnvironmentSection, StatusChangeIsAChange) {
  WorldInputs before = BaseInputs();
  before.environments[0].status = EnvironmentStatus::kStarting;
  EXPECT_EQ(Diff(before, BaseInputs()), RenderEnvironmentContext(BaseInputs()));
}

TEST(EnvironmentSection, AbsentAndUnknownRenderEverything) {
  EnvironmentSection section;
  for (const WorldInputs& in : {BaseInputs(), TwoEnvs()}) {
    for (const PreviousState& prev : {PreviousState::Absent(), PreviousState::Unknown()}) {
      auto f = section.RenderDiff(prev, in);
      ASSERT_TRUE(f);
      EXPECT_EQ(f->text, RenderEnvironmentContext(in));
    }
  }
}

TEST(EnvironmentSection, RestoreShape) {
  EnvironmentSection section;
  EXPECT_TRUE(section.CanRestore(section.Snapshot(TwoEnvs())));
  EXPECT_TRUE(section.CanRestore(*ParseJson(R"({"environments":{}})")));
  EXPECT_FALSE(section.CanRestore(*ParseJson(R"({})")));
  EXPECT_FALSE(section.CanRestore(*ParseJson(R"({"environments":{"a":{"cwd":"/"}}})")));
  EXPECT_FALSE(section.CanRestore(
      *ParseJson(R"({"environments":{"a":{"cwd":"/","status":"available","shell":1}}})")));
  EXPECT_FALSE(section.CanRestore(*ParseJson(R"({"environments":{},"timezone":5})")));
}

}  // namespace
}  // namespace agentctx
