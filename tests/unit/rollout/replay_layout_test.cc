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
  EXPECT_EQ(first[0], R"({"type":"message","id":")" +
                          BaseInstructionsItemId("s", "You are Codex.") +
                          R"(","role":"developer","content":[{"type":"input_text",)"
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

TEST(ReplayLayout, UpdatePlanGuidanceIsDropped) {
  // Checklist sections go up to the next `#`/`##` heading; other planning advice stays.
  EXPECT_EQ(WithoutUpdatePlanInstructions("Intro.\n\n## Planning\nYou have access to an "
                                          "`update_plan` tool.\n\n### Examples\n1. a\n\n"
                                          "## Task execution\nDo it.\n"),
            "Intro.\n\n## Task execution\nDo it.\n");
  EXPECT_EQ(WithoutUpdatePlanInstructions("## Planning\nThink before you edit.\n# Next\n"),
            "## Planning\nThink before you edit.\n# Next\n");
  EXPECT_EQ(WithoutUpdatePlanInstructions("A\n## `update_plan`\nUse it.\n"), "A\n");
  EXPECT_EQ(WithoutUpdatePlanInstructions("## Plan tool  \nx\n## Plan Mode vs update_plan tool"
                                          "\ny\n## Keep\n"),
            "## Keep\n");
  EXPECT_EQ(WithoutUpdatePlanInstructions(
                "a\nProgress visibility:\nIf update_plan is available, use it.\n\nb\n"),
            "a\nb\n");
  EXPECT_EQ(WithoutUpdatePlanInstructions("Progress visibility:\nSay what you do.\n"),
            "Progress visibility:\nSay what you do.\n");
  EXPECT_EQ(WithoutUpdatePlanInstructions("- Use the plan tool to track.\n  more\n\tmore\n"
                                          "- If you create a checklist or task list, keep it.\n"
                                          "- other\n"),
            "- other\n");
  // A heading needs its whole line: a longer one is kept.
  EXPECT_EQ(WithoutUpdatePlanInstructions("## Plan tools\nx\n"), "## Plan tools\nx\n");
  EXPECT_EQ(WithoutUpdatePlanInstructions(""), "");
  EXPECT_EQ(WithoutUpdatePlanInstructions("no newline"), "no newline");
}

TEST(ReplayLayout, BaseInstructionsItemIdIsAUuid5InTheThreadsNamespace) {
  // Values from an independent UUIDv5 implementation (Python's uuid.uuid5).
  EXPECT_EQ(BaseInstructionsItemId("01a23389-4010-7ff1-a3d2-8afad7ea01d4", "You are Codex."),
            "msg_0ee6a95d-faeb-54cf-ba95-d3a123a441c2");
  EXPECT_EQ(BaseInstructionsItemId("", "You are Codex."), "");
}

std::string ModelMeta(const std::string& provenance) {
  return R"({"type":"session_meta","payload":{"id":"s1","cli_version":"0.171.0",)"
         R"("base_instructions":{"text":"Hi.\n## `update_plan`\nPlan.\n","provenance":)" +
         provenance + "}}}\n";
}

TEST(ReplayLayout, CatalogInstructionsLoseUpdatePlanUnlessTheToolWasUsed) {
  const std::string turn = Message("user", "hi") +
                           R"({"type":"response_item","payload":{"type":"reasoning","summary":[]}})"
                           "\n";
  auto first_text = [&](const std::string& text) {
    std::vector<std::string> input = DumpedInput(Inspect(text), 0);
    return input.empty() ? std::string() : input[0];
  };
  // Catalog text, tool off: the section is gone, and the id is derived from what is sent.
  EXPECT_EQ(first_text(ModelMeta(R"({"type":"model","model":"m"})") + turn),
            R"({"type":"message","id":")" + BaseInstructionsItemId("s1", "Hi.\n") +
                R"(","role":"developer","content":[{"type":"input_text","text":"Hi.\n"}]})");
  // Custom instructions are sent as written.
  EXPECT_NE(first_text(ModelMeta(R"({"type":"user"})") + turn).find("update_plan"),
            std::string::npos);
  // A recorded update_plan call shows the tool was on: the text is sent whole.
  std::string with_call =
      ModelMeta(R"({"type":"model","model":"m"})") + Message("user", "hi") +
      R"({"type":"response_item","payload":{"type":"function_call","name":"update_plan",)"
      R"("arguments":"{}","call_id":"c"}})"
      "\n";
  EXPECT_EQ(first_text(with_call),
            R"({"type":"message","id":")" +
                BaseInstructionsItemId("s1", "Hi.\n## `update_plan`\nPlan.\n") +
                R"(","role":"developer","content":[{"type":"input_text","text":)"
                R"("Hi.\n## `update_plan`\nPlan.\n"}]})");
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

// A real Codex CLI `exec` session, run against `agentctx serve-mock` in a network namespace with
// every request body captured on the way (`<name>.sent.json`: the array of bodies, in order):
// every reconstructed request has exactly the `input` the CLI sent, item for item and byte for
// byte — the base-instructions message included (its text without the update_plan guidance,
// its derived id), and the recorded-only `internal_…` fields dropped.
void ExpectSentInputs(const std::string& name) {
  std::optional<std::string> rollout = testing::ReadFixture("rollouts/" + name + ".jsonl");
  std::optional<std::string> sent = testing::ReadFixture("rollouts/" + name + ".sent.json");
  ASSERT_TRUE(rollout && sent);
  JsonValue v = Inspect(*rollout);
  auto bodies = ParseJson(*sent);
  ASSERT_TRUE(bodies.has_value() && bodies->is_array());
  const JsonValue& requests = *v.Find("dump")->Find("requests");
  ASSERT_EQ(requests.items().size(), bodies->items().size());
  for (std::size_t n = 0; n < bodies->items().size(); ++n) {
    const JsonValue& body = bodies->items()[n];
    EXPECT_EQ(requests.items()[n].Find("instructions"), nullptr) << n;
    EXPECT_EQ(requests.items()[n].GetString("model"), body.GetString("model")) << n;
    std::vector<std::string> input = DumpedInput(v, n);
    const std::vector<JsonValue>& items = body.Find("input")->items();
    ASSERT_EQ(input.size(), items.size()) << "request " << n;
    for (std::size_t i = 0; i < items.size(); ++i) {
      EXPECT_EQ(input[i], ToJson(items[i])) << "request " << n << ", item " << i;
    }
  }
}

// Codex 0.169, two `exec` turns (the second by `exec resume --last`) and one exec_command call:
// three requests, each rebuilt as sent.
TEST(ReplayLayout, RealCodex169SessionRebuildsTheSentInput) { ExpectSentInputs("codex_0169_exec"); }

TEST(ReplayLayout, RealCodex171SessionRebuildsTheSentInput) {
  ExpectSentInputs("codex_0171_exec");
  // The first item is not the recorded text: the update_plan sections are gone.
  std::optional<std::string> sent = testing::ReadFixture("rollouts/codex_0171_exec.sent.json");
  ASSERT_TRUE(sent.has_value());
  EXPECT_EQ(sent->find("## `update_plan`"), std::string::npos);
  std::optional<std::string> rollout = testing::ReadFixture("rollouts/codex_0171_exec.jsonl");
  ASSERT_TRUE(rollout.has_value());
  EXPECT_NE(rollout->find("## `update_plan`"), std::string::npos);
}

}  // namespace
}  // namespace agentctx
