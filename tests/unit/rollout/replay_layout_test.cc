// SPDX-License-Identifier: MIT
// Tests for the request layouts replay reconstructs per Codex version (rollout/replay_layout.h)
// and for the request dump of RolloutInspect (`replay --dump-requests`): base instructions as
// the `instructions` field before 0.169, as the first developer message from 0.169 on, context
// fragments bundled per role there, and items sent as recorded.
#include "rollout/replay_layout.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "protocol/json_codec.h"
#include "rollout/replay.h"
#include "support/fixtures.h"

namespace agentctx {
namespace {

std::string Meta(const std::string& version) {
  return R"({"type":"session_meta","payload":{"id":"s","cli_version":")" + version +
         R"(","base_instructions":{"text":"You are Codex."}}})"
         "\n";
}

std::string Message(const std::string& role, const std::string& text) {
  return R"({"type":"response_item","payload":{"type":"message","role":")" + role +
         R"(","content":[{"type":"input_text","text":")" + text +
         R"("}]}})"
         "\n";
}

const std::string kTurn =
    Message("developer", "<permissions instructions>P</permissions instructions>") +
    Message("developer", "<collaboration_mode>C</collaboration_mode>") +
    Message("user", "# AGENTS.md instructions for /r\\n\\nA") +
    Message("user", "<environment_context>E</environment_context>") + Message("user", "hi") +
    R"({"type":"response_item","payload":{"type":"reasoning","summary":[]}})"
    "\n"
    R"({"type":"response_item","payload":{"type":"function_call","name":"f","arguments":"{}","call_id":"c"}})"
    "\n"
    R"({"type":"response_item","payload":{"type":"function_call_output","call_id":"c","output":"x"}})"
    "\n" +
    Message("developer", "<permissions instructions>Q</permissions instructions>") +
    R"({"type":"response_item","payload":{"type":"reasoning","summary":[]}})"
    "\n";

JsonValue Inspect(const std::string& text) {
  ReplayOptions options;
  options.dump_requests = true;
  auto v = RolloutInspect(text, options);
  EXPECT_TRUE(v.has_value()) << (v ? "" : v.error().message);
  return v ? std::move(v).value() : JsonValue::Object();
}

// The input items of dumped request `n`, as their JSON text.
std::vector<std::string> DumpedInput(const JsonValue& inspect, std::size_t n) {
  const JsonValue& dump = *inspect.Find("dump");
  const std::vector<JsonValue>& items = dump.Find("items")->items();
  std::vector<std::string> out;
  for (const JsonValue& range : dump.Find("requests")->items()[n].Find("input")->items()) {
    for (std::int64_t i = *range.items()[0].int_value(); i < *range.items()[1].int_value(); ++i) {
      out.push_back(items[static_cast<std::size_t>(i)].string_value());
    }
  }
  return out;
}

TEST(ReplayLayout, BeforeCodex169BaseInstructionsAreTheInstructionsField) {
  JsonValue v = Inspect(Meta("0.126.0-alpha.8") + kTurn);
  const JsonValue& request = v.Find("dump")->Find("requests")->items()[0];
  EXPECT_EQ(request.GetString("instructions"), "You are Codex.");
  std::vector<std::string> input = DumpedInput(v, 0);
  // Items as recorded: one message per fragment, nothing bundled.
  ASSERT_EQ(input.size(), 5u);
  EXPECT_EQ(input[0], R"({"type":"message","role":"developer","content":[{"type":"input_text",)"
                      R"("text":"<permissions instructions>P</permissions instructions>"}]})");
  // The instructions are part of the prompt: J("You are Codex.") = 16 bytes before the items.
  const JsonValue& r = v.Find("report")->Find("requests")->items()[0];
  std::uint64_t items = 0;
  for (const std::string& s : input) items += s.size();
  EXPECT_EQ(static_cast<std::uint64_t>(*r.GetInt("prompt_bytes")), 16 + items);
}

TEST(ReplayLayout, FromCodex169BaseInstructionsLeadAndFragmentsAreBundledPerRole) {
  JsonValue v = Inspect(Meta("0.169.0") + kTurn);
  const JsonValue& requests = *v.Find("dump")->Find("requests");
  ASSERT_EQ(requests.items().size(), 2u);
  EXPECT_EQ(requests.items()[0].Find("instructions"), nullptr);
  std::vector<std::string> first = DumpedInput(v, 0);
  ASSERT_EQ(first.size(), 4u);
  EXPECT_EQ(first[0], R"({"type":"message","role":"developer","content":[{"type":"input_text",)"
                      R"("text":"You are Codex."}]})");
  EXPECT_EQ(first[1],
            R"({"type":"message","role":"developer","content":[{"type":"input_text",)"
            R"("text":"<permissions instructions>P</permissions instructions>"},)"
            R"({"type":"input_text","text":"<collaboration_mode>C</collaboration_mode>"}]})");
  EXPECT_EQ(first[2], R"({"type":"message","role":"user","content":[{"type":"input_text",)"
                      R"("text":"# AGENTS.md instructions for /r\n\nA"},{"type":"input_text",)"
                      R"("text":"<environment_context>E</environment_context>"}]})");
  EXPECT_EQ(first[3],
            R"({"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]})");
  // The second request repeats the first input and appends; the developer message after the
  // tool output is its own (a request came in between).
  std::vector<std::string> second = DumpedInput(v, 1);
  ASSERT_EQ(second.size(), 8u);
  EXPECT_EQ(std::vector<std::string>(second.begin(), second.begin() + 4), first);
  EXPECT_EQ(second[7], R"({"type":"message","role":"developer","content":[{"type":"input_text",)"
                       R"("text":"<permissions instructions>Q</permissions instructions>"}]})");
  // One range per request: the dump stores each item once.
  EXPECT_EQ(ToJson(*requests.items()[1].Find("input")), "[[0,8]]");
  EXPECT_EQ(v.Find("dump")->Find("items")->items().size(), 8u);
  EXPECT_EQ(ToJson(*v.Find("report")->Find("requests")->items()[1].Find("break")), "null");
}

TEST(ReplayLayout, OlderLayoutsHaveNoInstructions) {
  std::string text =
      R"({"type":"session_meta","payload":{"id":"s","cli_version":"0.58.0","instructions":"AGENTS text"}})"
      "\n" +
      Message("user", "hi") +
      R"({"type":"response_item","payload":{"type":"reasoning","summary":[]}})"
      "\n";
  JsonValue v = Inspect(text);
  EXPECT_EQ(v.Find("dump")->Find("requests")->items()[0].Find("instructions"), nullptr);
  EXPECT_EQ(DumpedInput(v, 0).size(), 1u);
}

TEST(ReplayLayout, NoDumpUnlessAsked) {
  auto v = RolloutInspect(Meta("0.169.0") + kTurn, ReplayOptions());
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->Find("dump"), nullptr);
  EXPECT_FALSE(v->GetString("table").value_or("").empty());
}

TEST(ReplayLayout, CliVersions) {
  EXPECT_EQ(ParseCliVersion("0.126.0-alpha.8"), (std::array<std::uint64_t, 3>{0, 126, 0}));
  EXPECT_EQ(ParseCliVersion("1.2.3"), (std::array<std::uint64_t, 3>{1, 2, 3}));
  EXPECT_FALSE(ParseCliVersion("0.126").has_value());
  EXPECT_FALSE(ParseCliVersion("v0.1.2").has_value());
  EXPECT_FALSE(ParseCliVersion("0.1.2x").has_value());
  EXPECT_FALSE(SendsBaseInstructionsAsDeveloperMessage("0.168.9"));
  EXPECT_TRUE(SendsBaseInstructionsAsDeveloperMessage("0.169.0"));
  EXPECT_TRUE(SendsBaseInstructionsAsDeveloperMessage("1.0.0"));
  EXPECT_FALSE(SendsBaseInstructionsAsDeveloperMessage(""));
}

TEST(ReplayLayout, ContextFragments) {
  auto msg = [](const std::string& role, const std::string& text) {
    return *ParseJson(R"({"type":"message","role":")" + role +
                      R"(","content":[{"type":"input_text","text":")" + text + R"("}]})");
  };
  EXPECT_TRUE(IsContextFragment(msg("developer", "anything")));
  EXPECT_TRUE(IsContextFragment(msg("user", "<environment_context>x")));
  EXPECT_TRUE(IsContextFragment(msg("user", "# AGENTS.md instructions for /r")));
  EXPECT_FALSE(IsContextFragment(msg("user", "please fix <environment_context>")));
  EXPECT_FALSE(IsContextFragment(msg("assistant", "<environment_context>")));
}

}  // namespace
}  // namespace agentctx

namespace agentctx {
namespace {

// A real Codex CLI 0.171 `exec` session, run against `agentctx serve-mock` in a network
// namespace with the request body captured on the way (codex_0171_exec.sent.json). Every item
// after the first is rebuilt exactly as the CLI sent it (its `internal_…` fields, recorded but
// never sent, are dropped). The first, the base-instructions developer message, is not: the CLI
// sends a shorter text than session_meta.base_instructions (without the update_plan section for
// this model) under a derived id, which the rollout does not record.
TEST(ReplayLayout, RealCodex171SessionRebuildsTheSentItems) {
  std::optional<std::string> rollout = testing::ReadFixture("rollouts/codex_0171_exec.jsonl");
  std::optional<std::string> sent = testing::ReadFixture("rollouts/codex_0171_exec.sent.json");
  ASSERT_TRUE(rollout && sent);
  JsonValue v = Inspect(*rollout);
  std::vector<std::string> input = DumpedInput(v, 0);
  auto body = ParseJson(*sent);
  ASSERT_TRUE(body.has_value());
  const std::vector<JsonValue>& items = body->Find("input")->items();
  ASSERT_EQ(input.size(), items.size());
  for (std::size_t i = 1; i < items.size(); ++i) EXPECT_EQ(input[i], ToJson(items[i])) << i;
  EXPECT_EQ(input[0].find("\"id\""), std::string::npos);  // the known difference (see above)
}

}  // namespace
}  // namespace agentctx
