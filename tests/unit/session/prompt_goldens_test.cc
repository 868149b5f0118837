// SPDX-License-Identifier: MIT
// Golden files for the prompt layout: the full initial request, and
// for each kind of change between two turns what the next request appends (one golden per kind,
// tests/fixtures/prompt/update_<kind>.jsonl). Line 1 of an update golden says whether the
// request's `instructions` and `tools` changed (and to what); every further line is one appended
// context item with its world-state section: `{"origin":…,"item":…}`.
// Goldens are rewritten only natively, with ACTX_UPDATE_GOLDENS=1.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "protocol/json_codec.h"
#include "support/fixtures.h"
#include "support/session_driver.h"

namespace agentctx {
namespace {

using testing::SessionDriver;

const char* const kConfig =
    R"({"session_id":"g-1","model":{"slug":"mock-1","instructions":"You are a helpful coding agent."},)"
    R"("developer_instructions":"Be terse.","approval_policy":"on-request",)"
    R"("sandbox":{"mode":"workspace-write","writable_roots":["/scratch"]},)"
    R"("agents_md":{"refresh":"probe"},)"
    R"("skills":[{"name":"deploy","description":"Deploys the app.","path":"/repo/skills/deploy/SKILL.md"}],)"
    R"("tools":[{"server":"git","name":"status","description":"Shows the working tree status."}],)"
    R"("environment_context":{"include_date":true,"current_date":"2026-02-26","timezone":"America/Los_Angeles"},)"
    R"("environments":[{"id":"local","cwd":"/repo","shell":"bash","fs":"workspace"}]})";

const char* const kStatusTool =
    R"({"server":"git","name":"status","description":"Shows the working tree status."})";
const char* const kFmtTool = R"({"name":"fmt","description":"Formats code\nSecond line."})";

void Seed(SessionDriver* d) {
  ASSERT_TRUE(d->fs()->AddDir("/repo/.git").has_value());
  ASSERT_TRUE(d->fs()->AddFile("/repo/AGENTS.md", "Use the project formatter.").has_value());
  ASSERT_TRUE(d->fs()->AddFile("/repo/crate/AGENTS.md", "Crate rules: no unsafe.").has_value());
}

void CompareGolden(const std::string& name, const std::string& actual) {
  std::string relative = "prompt/" + name;
  if (testing::UpdateGoldens()) {
    ASSERT_TRUE(testing::WriteFixture(relative, actual)) << relative;
    return;
  }
  auto expected = testing::ReadFixture(relative);
  ASSERT_TRUE(expected.has_value()) << relative << " is missing (ACTX_UPDATE_GOLDENS=1 writes it)";
  EXPECT_EQ(*expected, actual) << relative;
}

// What the 2nd turn's request appended after `change`, as golden text.
std::string AppendedByChange(const std::function<void(SessionDriver*)>& change) {
  SessionDriver d;
  Seed(&d);
  d.Start(kConfig);
  d.Submit("hi", 1000);
  change(&d);
  d.Submit("next", 2000);
  EXPECT_EQ(d.request_bodies().size(), 2u);
  if (d.request_bodies().size() != 2) return "";
  auto a = ParseJson(d.request_bodies()[0]);
  auto b = ParseJson(d.request_bodies()[1]);
  std::string out = "{\"instructions\":";
  const JsonValue* ia = a->Find("instructions");
  const JsonValue* ib = b->Find("instructions");
  bool same_instructions = (ia == nullptr) == (ib == nullptr) && (ia == nullptr || *ia == *ib);
  out += same_instructions ? "\"unchanged\"" : (ib == nullptr ? "null" : ToJson(*ib));
  out += ",\"tools\":";
  out += *a->Find("tools") == *b->Find("tools") ? "\"unchanged\"" : ToJson(*b->Find("tools"));
  out += "}\n";
  auto history = ParseJson(d.Call("history", "{}"));
  for (const auto& entry : history->Find("value")->items()) {
    // Context items: user/developer messages from a world-state section. The `model` section
    // shares its origin name with model output, so output items go by their role.
    std::string_view origin = entry.GetString("origin").value_or("");
    std::string_view role = entry.Find("item")->GetString("role").value_or("");
    if (entry.GetString("turn_id") != "turn-2" || origin == "user" || origin == "tool" ||
        (role != "user" && role != "developer")) {
      continue;
    }
    out += "{\"origin\":" + JsonString(origin) + ",\"item\":" + ToJson(*entry.Find("item")) + "}\n";
  }
  // Each appended item is sent verbatim in the 2nd body.
  for (std::size_t start = out.find("\"item\":"); start != std::string::npos;
       start = out.find("\"item\":", start + 1)) {
    std::size_t end = out.find('\n', start);
    std::string item = out.substr(start + 7, end - start - 8);
    EXPECT_NE(d.request_bodies()[1].find(item), std::string::npos) << item;
  }
  return out;
}

TEST(PromptGoldens, InitialRequest) {
  SessionDriver d;
  Seed(&d);
  d.Start(kConfig);
  d.Submit("hi", 1000);
  ASSERT_EQ(d.request_bodies().size(), 1u);
  CompareGolden("initial_request.json", d.request_bodies()[0] + "\n");
}

TEST(PromptGoldens, Cwd) {
  CompareGolden("update_cwd.jsonl", AppendedByChange([](SessionDriver* d) {
                  d->Update(R"({"cwd":"/repo/crate"})", 1500);
                }));
}

TEST(PromptGoldens, Approval) {
  CompareGolden("update_approval.jsonl", AppendedByChange([](SessionDriver* d) {
                  d->Update(R"({"approval_policy":"never"})", 1500);
                }));
}

TEST(PromptGoldens, Sandbox) {
  CompareGolden("update_sandbox.jsonl", AppendedByChange([](SessionDriver* d) {
                  d->Update(R"({"sandbox":{"mode":"read-only","network_access":true}})", 1500);
                }));
}

TEST(PromptGoldens, ModelSwitch) {
  CompareGolden("update_model_switch.jsonl", AppendedByChange([](SessionDriver* d) {
                  d->Update(
                      R"({"model":{"slug":"mock-2","instructions":"You are the second model."}})",
                      1500);
                }));
}

TEST(PromptGoldens, AgentsMdEdit) {
  CompareGolden(
      "update_agents_md_edit.jsonl", AppendedByChange([](SessionDriver* d) {
        ASSERT_TRUE(
            d->fs()->Write("/repo/AGENTS.md", "Use the new formatter, always.", false).has_value());
      }));
}

TEST(PromptGoldens, AgentsMdRemoved) {
  CompareGolden("update_agents_md_removed.jsonl", AppendedByChange([](SessionDriver* d) {
                  ASSERT_TRUE(d->fs()->Remove("/repo/AGENTS.md").has_value());
                }));
}

TEST(PromptGoldens, ToolsApply) {
  CompareGolden("update_tools_apply.jsonl", AppendedByChange([](SessionDriver* d) {
                  d->Update(std::string(R"({"tools":[)") + kStatusTool + "," + kFmtTool + "]}",
                            1500);
                }));
}

TEST(PromptGoldens, ToolsDefer) {
  CompareGolden("update_tools_defer.jsonl", AppendedByChange([](SessionDriver* d) {
                  d->Update(std::string(R"({"tool_policy":"defer","tools":[)") + kFmtTool + "]}",
                            1500);
                }));
}

TEST(PromptGoldens, Skills) {
  CompareGolden(
      "update_skills.jsonl", AppendedByChange([](SessionDriver* d) {
        d->Update(
            R"({"skills":[{"name":"deploy","description":"Deploys the app.","path":"/repo/skills/deploy/SKILL.md"},)"
            R"({"name":"lint","path":"/repo/skills/lint/SKILL.md"}]})",
            1500);
      }));
}

TEST(PromptGoldens, SkillsRemoved) {
  CompareGolden("update_skills_removed.jsonl",
                AppendedByChange([](SessionDriver* d) { d->Update(R"({"skills":[]})", 1500); }));
}

TEST(PromptGoldens, Date) {
  CompareGolden("update_date.jsonl", AppendedByChange([](SessionDriver* d) {
                  d->Update(R"({"environment_context":{"current_date":"2026-02-27"}})", 1500);
                }));
}

TEST(PromptGoldens, DeveloperInstructions) {
  CompareGolden("update_developer_instructions.jsonl", AppendedByChange([](SessionDriver* d) {
                  d->Update(R"({"developer_instructions":"Be verbose."})", 1500);
                }));
}

TEST(PromptGoldens, NoChangeAppendsNothing) {
  std::string out = AppendedByChange([](SessionDriver*) {});
  EXPECT_EQ(out, "{\"instructions\":\"unchanged\",\"tools\":\"unchanged\"}\n");
}

}  // namespace
}  // namespace agentctx
