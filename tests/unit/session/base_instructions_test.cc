// SPDX-License-Identifier: MIT
// The base instructions (session/base_instructions.h): sent when model.instructions is unset,
// overridable per model, describing the context messages and the built-in tools.
#include "session/base_instructions.h"

#include <gtest/gtest.h>

#include <string>

#include "protocol/json_codec.h"
#include "session/config.h"
#include "support/session_driver.h"
#include "tools/builtin_tools.h"

namespace agentctx {
namespace {

SessionConfig Parse(const std::string& model_json, const std::string& extra = "") {
  auto raw =
      ParseJson(R"({"session_id":"s","model":)" + model_json +
                R"(,"environments":[{"id":"e","cwd":"/repo","fs":"workspace"}])" + extra + "}");
  EXPECT_TRUE(raw.has_value());
  auto config = ParseSessionConfig(*raw, nullptr);
  EXPECT_TRUE(config.has_value()) << config.error().message;
  return config.has_value() ? *config : SessionConfig{};
}

TEST(BaseInstructions, UsedWhenModelInstructionsAreUnset) {
  SessionConfig absent = Parse(R"({"slug":"gpt-x"})");
  EXPECT_EQ(absent.model.instructions, BaseInstructions(true));
  EXPECT_TRUE(absent.model.base_instructions);
  SessionConfig null = Parse(R"({"slug":"gpt-x","instructions":null})");
  EXPECT_EQ(null.model.instructions, BaseInstructions(true));
}

TEST(BaseInstructions, AnExplicitStringOverridesThemEvenEmpty) {
  SessionConfig custom = Parse(R"({"slug":"gpt-x","instructions":"Be brief."})");
  EXPECT_EQ(custom.model.instructions, "Be brief.");
  EXPECT_FALSE(custom.model.base_instructions);
  SessionConfig none = Parse(R"({"slug":"gpt-x","instructions":""})");
  EXPECT_EQ(none.model.instructions, "");
  EXPECT_FALSE(none.model.base_instructions);
}

TEST(BaseInstructions, ToolsPartOnlyWithBuiltinTools) {
  const std::string with = BaseInstructions(true);
  const std::string without = BaseInstructions(false);
  EXPECT_TRUE(with.starts_with(without));
  EXPECT_EQ(without.find("# Built-in tools"), std::string::npos);
  EXPECT_NE(with.find("# Built-in tools"), std::string::npos);
  EXPECT_EQ(Parse(R"({"slug":"m"})", R"(,"builtin_tools":false)").model.instructions, without);
  // Every built-in tool is described (a new tool needs its line here).
  for (std::string_view name : kBuiltinToolNames) {
    EXPECT_NE(with.find("`" + std::string(name) + "`"), std::string::npos) << name;
    EXPECT_EQ(without.find("`" + std::string(name) + "`"), std::string::npos) << name;
  }
}

TEST(BaseInstructions, ExplainTheContextMessages) {
  const std::string text = BaseInstructions(false);
  for (const char* marker :
       {"You are a coding agent.", "<permissions instructions>", "`read-only`", "`workspace-write`",
        "# AGENTS.md instructions for", "<INSTRUCTIONS>", "replaces every earlier one",
        "no longer apply", "<environment_context>", "<model_switch>", "<tools>"}) {
    EXPECT_NE(text.find(marker), std::string::npos) << marker;
  }
  EXPECT_TRUE(text.ends_with("\n"));
  EXPECT_TRUE(BaseInstructions(true).ends_with("\n"));
}

TEST(BaseInstructions, UpdateKeepsOrRestoresThem) {
  SessionConfig base = Parse(R"({"slug":"gpt-x"})");
  auto delta = ParseJson(R"({"model":{"instructions":"Custom."}})");
  auto custom = ApplyConfigDelta(base, *delta, nullptr);
  ASSERT_TRUE(custom.has_value());
  EXPECT_EQ(custom->model.instructions, "Custom.");
  delta = ParseJson(R"({"model":{"instructions":null}})");  // merge patch: removes the key
  auto restored = ApplyConfigDelta(*custom, *delta, nullptr);
  ASSERT_TRUE(restored.has_value());
  EXPECT_EQ(restored->model.instructions, BaseInstructions(true));
  delta = ParseJson(R"({"builtin_tools":false})");
  auto no_tools = ApplyConfigDelta(*restored, *delta, nullptr);
  ASSERT_TRUE(no_tools.has_value());
  EXPECT_EQ(no_tools->model.instructions, BaseInstructions(false));
}

TEST(BaseInstructions, SentAsTheRequestsInstructions) {
  testing::SessionDriver d;
  d.Start(R"({"session_id":"s-b","model":{"slug":"gpt-x"},)"
          R"("environments":[{"id":"local","cwd":"/repo","fs":"workspace"}]})");
  d.Submit("hi", 0);
  ASSERT_FALSE(d.request_bodies().empty());
  auto body = ParseJson(d.request_bodies()[0]);
  ASSERT_TRUE(body.has_value());
  EXPECT_EQ(body->GetString("instructions").value_or(""), BaseInstructions(true));
  // They are never placed in `input`: they go in `instructions`.
  EXPECT_EQ(ToJson(*body->Find("input")).find("You are a coding agent."), std::string::npos);
}

}  // namespace
}  // namespace agentctx
