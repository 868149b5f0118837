// SPDX-License-Identifier: MIT
#include "world_state/world_state.h"

#include <gtest/gtest.h>

#include "protocol/json_codec.h"
#include "protocol/merge_patch.h"
#include "unit/world_state/test_inputs.h"
#include "world_state/sections/agents_md_section.h"
#include "world_state/sections/environment_section.h"
#include "world_state/sections/model_section.h"
#include "world_state/sections/permissions_section.h"
#include "world_state/sections/skills_section.h"

namespace agentctx {
namespace {

using testing::BaseInputs;
using testing::Summaries;

/// A test section with a fixed value and text.
class FixedSection : public WorldStateSection {
 public:
  FixedSection(std::string id, JsonValue value) : id_(std::move(id)), value_(std::move(value)) {}
  std::string_view id() const override { return id_; }
  Role role() const override { return Role::kUser; }
  std::optional<Markers> markers() const override { return Markers{"<fixed>", "</fixed>"}; }
  JsonValue Snapshot(const WorldInputs&) const override { return value_; }
  bool CanRestore(const JsonValue&) const override { return true; }
  std::optional<Fragment> RenderDiff(const PreviousState& prev, const WorldInputs&) const override {
    if (prev.is_known()) return std::nullopt;
    return Fragment{Role::kUser, "<fixed>" + id_ + "</fixed>"};
  }

 private:
  std::string id_;
  JsonValue value_;
};

std::vector<std::string> Ids(const WorldStateRegistry& registry) {
  std::vector<std::string> ids;
  for (const auto& s : registry.sections()) ids.emplace_back(s->id());
  return ids;
}

std::vector<std::string> Origins(const std::vector<ContextMessage>& messages) {
  std::vector<std::string> out;
  for (const ContextMessage& m : messages) out.push_back(m.origin);
  return out;
}

TEST(WorldStateRegistry, BuiltinsInSpecOrder) {
  EXPECT_EQ(Ids(WorldStateRegistry::WithBuiltins()),
            (std::vector<std::string>{"model", "permissions", "developer_instructions", "agents_md",
                                      "skills", "environment", "tools", "task_frontier",
                                      "context_budget"}));
}

TEST(WorldStateRegistry, SectionMarkersAndRoles) {
  WorldStateRegistry registry = WorldStateRegistry::WithBuiltins();
  auto markers = [&](std::string_view id) {
    auto m = registry.Find(id)->markers();
    return m ? std::string(m->start) + "|" + std::string(m->end) : std::string("none");
  };
  EXPECT_EQ(markers("model"), "<model_switch>|</model_switch>");
  EXPECT_EQ(markers("permissions"), "<permissions instructions>|</permissions instructions>");
  EXPECT_EQ(markers("developer_instructions"), "none");
  EXPECT_EQ(markers("agents_md"), "# AGENTS.md instructions|</INSTRUCTIONS>");
  EXPECT_EQ(markers("skills"), "<skills_instructions>|</skills_instructions>");
  EXPECT_EQ(markers("environment"), "<environment_context>|</environment_context>");
  EXPECT_EQ(markers("tools"), "<tools>|</tools>");
  EXPECT_EQ(markers("task_frontier"), "<task_frontier>|</task_frontier>");
  EXPECT_EQ(registry.Find("task_frontier")->role(), Role::kDeveloper);
  EXPECT_EQ(markers("context_budget"), "<context_budget>|</context_budget>");
  EXPECT_EQ(registry.Find("context_budget")->role(), Role::kDeveloper);
  EXPECT_EQ(registry.Find("agents_md")->role(), Role::kUser);
  EXPECT_EQ(registry.Find("tools")->role(), Role::kDeveloper);
  EXPECT_EQ(registry.Find("nope"), nullptr);
}

TEST(WorldStateRegistry, DuplicateIdIsInvalidConfig) {
  WorldStateRegistry registry = WorldStateRegistry::WithBuiltins();
  auto r = registry.Register(std::make_shared<FixedSection>("skills", JsonValue()));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidConfig);
  EXPECT_EQ(r.error().message, "duplicate world-state section ID: skills");
  EXPECT_EQ(registry.sections().size(), 9u);
}

TEST(WorldStateRegistry, IdValidation) {
  EXPECT_TRUE(IsValidSectionId("a"));
  EXPECT_TRUE(IsValidSectionId("custom_2"));
  EXPECT_FALSE(IsValidSectionId(""));
  EXPECT_FALSE(IsValidSectionId("2a"));
  EXPECT_FALSE(IsValidSectionId("_a"));
  EXPECT_FALSE(IsValidSectionId("Abc"));
  EXPECT_FALSE(IsValidSectionId("a-b"));
  WorldStateRegistry registry;
  auto r = registry.Register(std::make_shared<FixedSection>("Bad-Id", JsonValue()));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidConfig);
  EXPECT_EQ(r.error().message, "invalid world-state section ID: Bad-Id");
  EXPECT_TRUE(registry.sections().empty());
}

TEST(WorldStateRegistry, CustomSectionsRenderAfterTools) {
  WorldStateRegistry registry = WorldStateRegistry::WithBuiltins();
  ASSERT_TRUE(registry.Register(std::make_shared<FixedSection>("zeta", JsonValue::Int(1))));
  ASSERT_TRUE(registry.Register(std::make_shared<FixedSection>("alpha", JsonValue::Int(2))));
  EXPECT_EQ(Ids(registry).back(), "alpha");
  RenderResult full = registry.RenderFull(BaseInputs());
  ASSERT_GE(full.messages.size(), 2u);
  EXPECT_EQ(full.messages[full.messages.size() - 2].origin, "zeta");
  EXPECT_EQ(full.messages.back().origin, "alpha");
}

TEST(WorldStateSnapshot, NullsStrippedAndNullSectionsOmitted) {
  WorldStateRegistry registry;
  ASSERT_TRUE(registry.Register(
      std::make_shared<FixedSection>("a", *ParseJson(R"({"b":null,"c":[null,1]})"))));
  ASSERT_TRUE(registry.Register(std::make_shared<FixedSection>("z", JsonValue())));
  EXPECT_EQ(ToSortedJson(registry.BuildSnapshot(BaseInputs())), R"({"a":{"c":[null,1]}})");
}

TEST(WorldStateSnapshot, BuiltinSnapshot) {
  WorldInputs in = BaseInputs();
  EXPECT_EQ(ToSortedJson(WorldStateRegistry::WithBuiltins().BuildSnapshot(in)),
            R"({"agents_md":{},"environment":{"environments":{"local":{"cwd":"/repo",)"
            R"("shell":"bash","status":"available"}}},"model":"mock-1","permissions":)"
            R"({"instructions":"fed2f53df24dd05a217b734cf7ad9abefa7cc6a2"},"skills":[],)"
            R"("tools":{"advertised":")" +
                in.tools.advertised + R"("}})");
}

TEST(WorldStateSnapshot, NextBaselineKeepsUnregisteredIds) {
  WorldStateRegistry registry = WorldStateRegistry::WithBuiltins();
  JsonValue old_baseline = *ParseJson(R"({"model":"old","custom_x":{"v":1}})");
  JsonValue snapshot = registry.BuildSnapshot(BaseInputs());
  JsonValue next = registry.NextBaseline(&old_baseline, snapshot);
  EXPECT_EQ(*next.Find("model"), JsonValue::String("mock-1"));
  ASSERT_NE(next.Find("custom_x"), nullptr);
  EXPECT_EQ(ToSortedJson(*next.Find("custom_x")), R"({"v":1})");
  EXPECT_EQ(registry.NextBaseline(nullptr, snapshot), snapshot);
}

TEST(WorldStateRender, SpecBody916Context) {
  // The 916-byte example body's context: read-only, never, env /repo bash → dev[permissions],
  // user[env].
  RenderResult r = WorldStateRegistry::WithBuiltins().RenderFull(BaseInputs());
  EXPECT_EQ(Summaries(r.messages),
            (std::vector<std::string>{
                "developer[" + RenderPermissionsBlock(BaseInputs()) + "]",
                "user[<environment_context>\n  <cwd>/repo</cwd>\n  <shell>bash</shell>\n"
                "</environment_context>]"}));
  EXPECT_TRUE(r.warnings.empty());
}

WorldInputs FirstTurnInputs() {
  WorldInputs in = BaseInputs();
  in.developer_instructions = "Be terse.";
  in.agents_md.text = "x";
  in.skills = {{"lint", std::string("Runs the linter"), "/skills/lint/SKILL.md"}};
  return in;
}

TEST(WorldStateRender, FirstTurnBundle) {
  WorldInputs in = FirstTurnInputs();
  RenderResult r = WorldStateRegistry::WithBuiltins().RenderTurnStart(nullptr, {}, in);
  ASSERT_EQ(r.messages.size(), 4u);
  EXPECT_EQ(Summaries(r.messages), (std::vector<std::string>{
                                       "developer[" + RenderPermissionsBlock(in) + "]",
                                       "developer[Be terse.]",
                                       "user[" + RenderAgentsMdFragment("/repo", "x") + "|" +
                                           RenderSkillsBlock(in.skills) + "]",
                                       "user[" + RenderEnvironmentContext(in) + "]",
                                   }));
  EXPECT_EQ(Origins(r.messages), (std::vector<std::string>{"permissions", "developer_instructions",
                                                           "agents_md", "environment"}));
  EXPECT_EQ(r.messages[2].parts.size(), 2u);
}

TEST(WorldStateRender, SkillsAloneWithoutAgentsMd) {
  WorldInputs in = FirstTurnInputs();
  in.agents_md.text.reset();
  RenderResult r = WorldStateRegistry::WithBuiltins().RenderFull(in);
  ASSERT_EQ(r.messages.size(), 4u);
  EXPECT_EQ(r.messages[2].origin, "skills");
  EXPECT_EQ(r.messages[2].parts, (std::vector<std::string>{RenderSkillsBlock(in.skills)}));
}

TEST(WorldStateRender, NextTurnModelApprovalCwd) {
  WorldStateRegistry registry = WorldStateRegistry::WithBuiltins();
  WorldInputs first = FirstTurnInputs();
  JsonValue baseline = registry.BuildSnapshot(first);

  WorldInputs next = first;
  next.previous_turn_model = first.model.slug;
  next.model = {"mock-2", "You are mock two."};
  next.approval_policy = ApprovalPolicy::kOnRequest;
  next.environments[0].cwd = "/repo/sub";
  next.agents_md.directory = "/repo/sub";
  next.agents_md.text = "y";
  // The retained history holds the first turn's context messages.
  RenderResult first_render = registry.RenderFull(first);
  std::vector<HistoryMessageView> history;
  for (const ContextMessage& m : first_render.messages) {
    HistoryMessageView v{RoleName(m.role), {}};
    for (const std::string& p : m.parts) v.input_texts.push_back(p);
    history.push_back(v);
  }
  RenderResult r = registry.RenderTurnStart(&baseline, history, next);
  EXPECT_EQ(Summaries(r.messages),
            (std::vector<std::string>{
                "developer[" + RenderModelSwitch("You are mock two.") + "]",
                "developer[" + RenderPermissionsBlock(next) + "]",
                "user[" +
                    RenderAgentsMdFragment("/repo/sub",
                                           std::string(kAgentsMdReplacementNotice) + "\n\ny") +
                    "]",
                "user[<environment_context>\n  <cwd>/repo/sub</cwd>\n  <shell>bash</shell>\n"
                "</environment_context>]",
            }));
  EXPECT_EQ(Origins(r.messages),
            (std::vector<std::string>{"model", "permissions", "agents_md", "environment"}));
  // Rendering again against the new baseline changes nothing.
  JsonValue next_baseline = registry.BuildSnapshot(next);
  EXPECT_TRUE(registry.RenderStep(next_baseline, next).messages.empty());
  EXPECT_TRUE(registry.RenderTurnStart(&next_baseline, history, next).messages.empty());
}

TEST(WorldStateRender, StepWithCwdChange) {
  // A step with cwd /a→/b, env local, no AGENTS.md text (read-only sandbox, so the
  // permissions block does not mention the cwd): only the environment fragment, patch = cwd.
  WorldStateRegistry registry = WorldStateRegistry::WithBuiltins();
  WorldInputs a = BaseInputs();
  a.environments[0].cwd = "/a";
  a.environments[0].shell.reset();
  a.agents_md.directory = "/a";
  WorldInputs b = a;
  b.environments[0].cwd = "/b";
  b.agents_md.directory = "/b";
  JsonValue baseline = registry.BuildSnapshot(a);
  RenderResult r = registry.RenderStep(baseline, b);
  EXPECT_EQ(Summaries(r.messages),
            (std::vector<std::string>{
                "user[<environment_context>\n  <cwd>/b</cwd>\n</environment_context>]"}));
  EXPECT_EQ(Origins(r.messages), (std::vector<std::string>{"environment"}));
  JsonValue patch = MergePatchDiff(baseline, registry.BuildSnapshot(b));
  EXPECT_EQ(ToSortedJson(patch), R"({"environment":{"environments":{"local":{"cwd":"/b"}}}})");
}

TEST(WorldStateRender, StepDiffTreatsMissingIdsAsAbsent) {
  WorldStateRegistry registry = WorldStateRegistry::WithBuiltins();
  WorldInputs in = FirstTurnInputs();
  JsonValue baseline = registry.BuildSnapshot(in);
  baseline.Remove("agents_md");
  // The step diff never looks at history: Absent → the plain fragment.
  RenderResult r = registry.RenderStep(baseline, in);
  ASSERT_EQ(r.messages.size(), 1u);
  EXPECT_EQ(r.messages[0].parts, (std::vector<std::string>{RenderAgentsMdFragment("/repo", "x")}));
}

TEST(WorldStateRender, TurnStartUnknownFromHistory) {
  WorldStateRegistry registry = WorldStateRegistry::WithBuiltins();
  WorldInputs in = FirstTurnInputs();
  JsonValue baseline = registry.BuildSnapshot(in);
  baseline.Remove("agents_md");
  const std::string old_fragment = RenderAgentsMdFragment("/repo", "old");
  std::vector<HistoryMessageView> history = {{"user", {"hello", old_fragment}}};
  RenderResult r = registry.RenderTurnStart(&baseline, history, in);
  ASSERT_EQ(r.messages.size(), 1u);
  EXPECT_EQ(r.messages[0].parts, (std::vector<std::string>{RenderAgentsMdFragment(
                                     "/repo", std::string(kAgentsMdReplacementNotice) + "\n\nx")}));
}

TEST(WorldStateRender, HistoryMatchNeedsRoleAndBothMarkers) {
  WorldStateRegistry registry = WorldStateRegistry::WithBuiltins();
  WorldInputs in = FirstTurnInputs();
  JsonValue baseline = registry.BuildSnapshot(in);
  baseline.Remove("agents_md");
  const std::string plain = RenderAgentsMdFragment("/repo", "x");
  const std::string old_fragment = RenderAgentsMdFragment("/repo", "old");
  for (const std::vector<HistoryMessageView>& history :
       std::vector<std::vector<HistoryMessageView>>{
           {{"developer", {old_fragment}}},
           {{"user", {"# AGENTS.md instructions, please read them"}}},
           {{"assistant", {old_fragment}}},
       }) {
    RenderResult r = registry.RenderTurnStart(&baseline, history, in);
    ASSERT_EQ(r.messages.size(), 1u);
    EXPECT_EQ(r.messages[0].parts, (std::vector<std::string>{plain}));
  }
  // Trimmed and ASCII case-insensitive, as contextual messages (message_kind.h).
  std::vector<HistoryMessageView> history = {
      {"user", {"  # agents.md INSTRUCTIONS for /r\n\n<instructions>\nx\n</instructions>\n"}}};
  RenderResult r = registry.RenderTurnStart(&baseline, history, in);
  ASSERT_EQ(r.messages.size(), 1u);
  EXPECT_NE(r.messages[0].parts[0].find(kAgentsMdReplacementNotice), std::string::npos);
}

TEST(WorldStateRender, ResumeRemovalAppendedOnce) {
  // Resume, no agents_md snapshot, history has an AGENTS.md fragment, file
  // deleted → the removal is appended once at the first request, not repeated.
  WorldStateRegistry registry = WorldStateRegistry::WithBuiltins();
  WorldInputs in = BaseInputs();  // no AGENTS.md text any more
  JsonValue baseline = registry.BuildSnapshot(in);
  baseline.Remove("agents_md");
  const std::string old_fragment = RenderAgentsMdFragment("/repo", "deleted doc");
  std::vector<HistoryMessageView> history = {{"user", {old_fragment}}};
  RenderResult first = registry.RenderTurnStart(&baseline, history, in);
  ASSERT_EQ(first.messages.size(), 1u);
  EXPECT_EQ(first.messages[0].parts, (std::vector<std::string>{RenderAgentsMdFragment(
                                         "/repo", std::string(kAgentsMdRemovalNotice))}));
  JsonValue next = registry.NextBaseline(&baseline, registry.BuildSnapshot(in));
  EXPECT_TRUE(registry.RenderStep(next, in).messages.empty());
  EXPECT_TRUE(registry.RenderTurnStart(&next, history, in).messages.empty());
}

TEST(WorldStateRender, UnparsableStoredValueIsUnknownWithWarning) {
  WorldStateRegistry registry = WorldStateRegistry::WithBuiltins();
  WorldInputs in = FirstTurnInputs();
  JsonValue baseline = registry.BuildSnapshot(in);
  baseline.Set("agents_md", JsonValue::String("not an object"));
  baseline.Set("environment", JsonValue::Int(7));
  RenderResult r = registry.RenderStep(baseline, in);
  ASSERT_EQ(r.warnings.size(), 2u);
  for (const Warning& w : r.warnings) {
    EXPECT_EQ(w.code, WarningCode::kSnapshotRestoreFailed);
    EXPECT_EQ(w.message, "failed to restore world-state section snapshot");
  }
  // agents_md Unknown → replacement form; environment Unknown → everything.
  EXPECT_EQ(
      Summaries(r.messages),
      (std::vector<std::string>{
          "user[" +
              RenderAgentsMdFragment("/repo", std::string(kAgentsMdReplacementNotice) + "\n\nx") +
              "]",
          "user[" + RenderEnvironmentContext(in) + "]"}));
}

TEST(WorldStateRender, NoBaselineIgnoresHistory) {
  WorldStateRegistry registry = WorldStateRegistry::WithBuiltins();
  WorldInputs in = FirstTurnInputs();
  const std::string old_fragment = RenderAgentsMdFragment("/repo", "old");
  std::vector<HistoryMessageView> history = {{"user", {old_fragment}}};
  RenderResult r = registry.RenderTurnStart(nullptr, history, in);
  EXPECT_EQ(Summaries(r.messages), Summaries(registry.RenderFull(in).messages));
  EXPECT_EQ(r.messages[2].parts[0], RenderAgentsMdFragment("/repo", "x"));
}

TEST(WorldStateBundle, OnlyAgentsMdAndSkillsShareAMessage) {
  std::vector<SectionFragment> fragments = {
      {"permissions", {Role::kDeveloper, "p"}}, {"developer_instructions", {Role::kDeveloper, "d"}},
      {"agents_md", {Role::kUser, "a"}},        {"skills", {Role::kUser, "s"}},
      {"environment", {Role::kUser, "e"}},      {"tools", {Role::kDeveloper, "t"}},
  };
  std::vector<ContextMessage> messages = BundleFragments(fragments);
  EXPECT_EQ(Summaries(messages),
            (std::vector<std::string>{"developer[p]", "developer[d]", "user[a|s]", "user[e]",
                                      "developer[t]"}));
  // Skills without AGENTS.md, and AGENTS.md without skills, stand alone.
  EXPECT_EQ(Summaries(BundleFragments(
                {{"skills", {Role::kUser, "s"}}, {"environment", {Role::kUser, "e"}}})),
            (std::vector<std::string>{"user[s]", "user[e]"}));
  EXPECT_EQ(Summaries(BundleFragments(
                {{"agents_md", {Role::kUser, "a"}}, {"environment", {Role::kUser, "e"}}})),
            (std::vector<std::string>{"user[a]", "user[e]"}));
}

TEST(WorldStateBundle, DeferredToolsNoticeIsLast) {
  WorldInputs in = BaseInputs();
  in.tools.policy = ToolPolicy::kDefer;
  in.tools.pending = {{"fmt", "Formats code"}};
  RenderResult r = WorldStateRegistry::WithBuiltins().RenderFull(in);
  ASSERT_EQ(r.messages.size(), 3u);
  EXPECT_EQ(r.messages.back().origin, "tools");
  EXPECT_EQ(r.messages.back().role, Role::kDeveloper);
}

TEST(WorldStateMarkers, TextMatchesMarkers) {
  Markers m{"<environment_context>", "</environment_context>"};
  EXPECT_TRUE(TextMatchesMarkers("<environment_context>\n</environment_context>", m));
  EXPECT_TRUE(TextMatchesMarkers("\n  <ENVIRONMENT_context>x</Environment_Context>\n ", m));
  EXPECT_FALSE(TextMatchesMarkers("<environment_context>", m));
  EXPECT_FALSE(TextMatchesMarkers("x <environment_context></environment_context>", m));
}

}  // namespace
}  // namespace agentctx
