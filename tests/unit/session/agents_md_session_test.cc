// SPDX-License-Identifier: MIT
// AGENTS.md features (docs/agents-md.md) end to end through the Engine facade and the mock model:
// the request the model gets holds the local overlay after the team file, imported text in place,
// and the truncation note; the host gets the warnings as events; probe mode sees an edit of an
// imported file and appends a replacement without breaking the prefix.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "protocol/json_codec.h"
#include "support/effect_filters.h"
#include "support/session_driver.h"

namespace agentctx {
namespace {

using testing::EventsOfType;

using testing::SessionDriver;

std::string Config(const std::string& agents_md = "{}") {
  return R"({"session_id":"s-16","model":{"slug":"mock-1","instructions":"You are a helpful coding agent."},)"
         R"("approval_policy":"never","sandbox":{"mode":"read-only"},)"
         R"("environments":[{"id":"local","cwd":"/repo","shell":"bash","fs":"workspace"}],)"
         R"("agents_md":)" +
         agents_md + "}";
}

std::vector<JsonValue> StartEffects(const std::string& envelope) {
  auto parsed = ParseJson(envelope);
  EXPECT_TRUE(parsed.has_value());
  if (!parsed.has_value() || !parsed->GetBool("ok").value_or(false)) return {};
  return parsed->Find("value")->Find("effects")->items();
}

TEST(AgentsMdSession, RequestHoldsOverlayAfterTeamFileAndImportsInPlace) {
  SessionDriver d;
  ASSERT_TRUE(d.fs()->AddDir("/repo/.git").has_value());
  ASSERT_TRUE(d.fs()
                  ->AddFile("/repo/AGENTS.md", "Team rules.\n@docs/style.md\nEnd of team rules.")
                  .has_value());
  ASSERT_TRUE(d.fs()->AddFile("/repo/docs/style.md", "Style: tabs.").has_value());
  ASSERT_TRUE(d.fs()->AddFile("/repo/AGENTS.local.md", "My rules.").has_value());
  std::vector<JsonValue> start = StartEffects(d.Start(Config()));
  std::vector<JsonValue> loaded = EventsOfType(start, "instructions_loaded");
  ASSERT_EQ(loaded.size(), 1u);
  EXPECT_EQ(ToJson(*loaded[0].Find("sources")),
            R"(["/repo/AGENTS.md","/repo/docs/style.md","/repo/AGENTS.local.md"])");
  d.Submit("hi", 0);
  ASSERT_GE(d.request_bodies().size(), 1u);
  EXPECT_NE(d.request_bodies()[0].find(
                "# AGENTS.md instructions for /repo\\n\\n<INSTRUCTIONS>\\nTeam rules.\\nStyle: "
                "tabs.\\nEnd of team rules.\\n\\nMy rules.\\n</INSTRUCTIONS>"),
            std::string::npos)
      << d.request_bodies()[0];
}

TEST(AgentsMdSession, TruncationIsSaidToTheModelAndTheHost) {
  SessionDriver d;
  ASSERT_TRUE(d.fs()->AddFile("/repo/AGENTS.md", std::string(40 * 1024, 'x')).has_value());
  std::vector<JsonValue> start = StartEffects(d.Start(Config()));
  std::vector<JsonValue> warnings = EventsOfType(start, "warning");
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].GetString("code"), "agents_md_truncated");
  EXPECT_EQ(warnings[0].GetString("message"),
            "AGENTS.md instructions truncated: `/repo/AGENTS.md` exceeds the remaining budget of "
            "32768 bytes");
  d.Submit("hi", 0);
  ASSERT_GE(d.request_bodies().size(), 1u);
  EXPECT_NE(d.request_bodies()[0].find(
                "xxxx\\n\\n[AGENTS.md instructions truncated: 8192 bytes omitted to fit the "
                "32768-byte limit]\\n</INSTRUCTIONS>"),
            std::string::npos);
}

TEST(AgentsMdSession, ImportWarningsReachTheHost) {
  SessionDriver d;
  ASSERT_TRUE(d.fs()->AddDir("/repo/.git").has_value());
  ASSERT_TRUE(d.fs()->AddFile("/repo/AGENTS.md", "@../outside.md\n@missing.md").has_value());
  std::vector<JsonValue> warnings = EventsOfType(StartEffects(d.Start(Config())), "warning");
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_EQ(warnings[0].GetString("code"), "agents_md_import_warning");
  EXPECT_EQ(warnings[0].GetString("message"),
            "AGENTS.md import `@../outside.md` in `/repo/AGENTS.md` refused: `/outside.md` is "
            "outside the project root `/repo`");
  EXPECT_EQ(warnings[1].GetString("message"),
            "AGENTS.md import `@missing.md` in `/repo/AGENTS.md` not found: `/repo/missing.md`");
}

TEST(AgentsMdSession, ProbeModeSeesAnImportedFileEditWithoutBreakingThePrefix) {
  SessionDriver d;
  ASSERT_TRUE(d.fs()->AddDir("/repo/.git").has_value());
  ASSERT_TRUE(d.fs()->AddFile("/repo/AGENTS.md", "@docs/prefix.md").has_value());
  ASSERT_TRUE(d.fs()->AddFile("/repo/docs/prefix.md", "reply prefix: [a]").has_value());
  d.Start(Config(R"({"refresh":"probe"})"));
  d.Submit("hello", 0);
  d.fs()->SetClock(5000);
  ASSERT_TRUE(d.fs()->Write("/repo/docs/prefix.md", "reply prefix: [b]", false).has_value());
  std::vector<JsonValue> effects = d.Submit("hello again", 1000);
  EXPECT_EQ(EventsOfType(effects, "instructions_loaded").size(), 1u);
  ASSERT_EQ(d.request_bodies().size(), 2u);
  const std::string& first = d.request_bodies()[0];
  const std::string& second = d.request_bodies()[1];
  // The first request's input is a prefix of the second one's (nothing is edited).
  std::size_t cut = first.find("],\"tools\"");
  ASSERT_NE(cut, std::string::npos);
  EXPECT_EQ(second.substr(0, cut), first.substr(0, cut));
  EXPECT_NE(second.find("These AGENTS.md instructions replace all previously provided AGENTS.md "
                        "instructions.\\n\\nreply prefix: [b]"),
            std::string::npos);
}

}  // namespace
}  // namespace agentctx
