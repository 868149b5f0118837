// SPDX-License-Identifier: MIT
// The agent-grade tools end to end inside the core: the embedded mock model, told by `#mock-…`
// directives, calls edit_file, apply_patch, grep and glob through a session on a memory
// workspace; the files change exactly as asked under workspace-write and not at all under
// read-only. (wasi-host/test/agent_tools.test.mjs does the same through the CLI.)
#include <gtest/gtest.h>

#include <string>

#include "protocol/json_codec.h"
#include "support/session_driver.h"

namespace agentctx {
namespace {

using testing::SessionDriver;

std::string Config(std::string_view mode) {
  return R"({"session_id":"s-tools","model":{"slug":"mock-1","instructions":"Be helpful."},)"
         R"("approval_policy":"never","sandbox":{"mode":")" +
         std::string(mode) +
         R"("},"environments":[{"id":"local","cwd":"/repo","fs":"workspace"}]})";
}

// The tool outputs recorded in the session, in order.
std::vector<std::string> ToolOutputs(SessionDriver* d) {
  std::vector<std::string> out;
  for (const std::string& line : d->rollout()) {
    auto parsed = ParseJson(line);
    if (!parsed.has_value() || parsed->GetString("type") != "response_item") continue;
    const JsonValue* payload = parsed->Find("payload");
    if (payload->GetString("type") == "function_call_output") {
      out.emplace_back(payload->GetString("output").value_or("<parts>"));
    }
  }
  return out;
}

std::string LastReply(const std::vector<JsonValue>& effects) {
  for (auto it = effects.rbegin(); it != effects.rend(); ++it) {
    if (it->GetString("type") == "turn_complete") {
      return std::string(it->GetString("last_agent_message").value_or(""));
    }
  }
  return "<no turn_complete>";
}

std::string Contents(SessionDriver* d, const std::string& path) {
  auto r = d->fs()->Read(path, 1 << 20);
  return r.has_value() ? *r : "<" + r.error().Display() + ">";
}

class AgentToolsSession : public ::testing::Test {
 protected:
  void Seed(SessionDriver* d) {
    ASSERT_TRUE(d->fs()->AddFile("/repo/src/main.rs", "fn main() {\n    old();\n}\n").has_value());
    ASSERT_TRUE(
        d->fs()->AddFile("/repo/src/lib.rs", "// TODO: tests\npub fn old() {}\n").has_value());
    ASSERT_TRUE(d->fs()->AddFile("/repo/gone.txt", "bye\n").has_value());
  }
  const std::string edit_and_patch_ =
      "#mock-edit:src/main.rs=old()=>new()\n"
      "#mock-patch:\n"
      "*** Begin Patch\n"
      "*** Add File: docs/notes.md\n"
      "+# Notes\n"
      "*** Delete File: gone.txt\n"
      "*** Update File: src/lib.rs\n"
      "@@\n"
      "-pub fn old() {}\n"
      "+pub fn new() {}\n"
      "*** End Patch";
  const std::string search_ = "#mock-grep:fn \\w+\\(\n#mock-glob:**/*.md";
};

TEST_F(AgentToolsSession, WorkspaceWriteEditsPatchesAndFinds) {
  SessionDriver d;
  Seed(&d);
  d.Start(Config("workspace-write"));
  std::vector<JsonValue> effects = d.Submit(edit_and_patch_, 1000);
  EXPECT_EQ(LastReply(effects), "Edited src/main.rs.\nPatched 3 files.");
  EXPECT_EQ(Contents(&d, "/repo/src/main.rs"), "fn main() {\n    new();\n}\n");
  EXPECT_EQ(Contents(&d, "/repo/src/lib.rs"), "// TODO: tests\npub fn new() {}\n");
  EXPECT_EQ(Contents(&d, "/repo/docs/notes.md"), "# Notes\n");
  EXPECT_EQ(Contents(&d, "/repo/gone.txt"), "<not_found: /repo/gone.txt>");

  effects = d.Submit(search_, 2000);
  EXPECT_EQ(LastReply(effects), "Found 2 matches for fn \\w+\\(.\nFound 1 file for **/*.md.");
  std::vector<std::string> outputs = ToolOutputs(&d);
  ASSERT_EQ(outputs.size(), 4u);
  EXPECT_EQ(outputs[0], "Edited /repo/src/main.rs: replaced 1 occurrence (line 2)");
  EXPECT_EQ(outputs[1],
            "Applied patch:\nA /repo/docs/notes.md\nD /repo/gone.txt\nM /repo/src/lib.rs");
  EXPECT_EQ(outputs[2], "/repo/src/lib.rs:2: pub fn new() {}\n/repo/src/main.rs:1: fn main() {");
  EXPECT_EQ(outputs[3], "/repo/docs/notes.md");
}

TEST_F(AgentToolsSession, ReadOnlyChangesNothing) {
  SessionDriver d;
  Seed(&d);
  d.Start(Config("read-only"));
  std::vector<JsonValue> effects = d.Submit(edit_and_patch_, 1000);
  EXPECT_EQ(LastReply(effects),
            "edit_file refused: sandbox_mode is read-only\n"
            "apply_patch refused: sandbox_mode is read-only");
  EXPECT_EQ(Contents(&d, "/repo/src/main.rs"), "fn main() {\n    old();\n}\n");
  EXPECT_EQ(Contents(&d, "/repo/src/lib.rs"), "// TODO: tests\npub fn old() {}\n");
  EXPECT_EQ(Contents(&d, "/repo/docs/notes.md"), "<not_found: /repo/docs/notes.md>");
  EXPECT_EQ(Contents(&d, "/repo/gone.txt"), "bye\n");
  // Searching is reading: allowed.
  effects = d.Submit(search_, 2000);
  EXPECT_EQ(LastReply(effects), "Found 2 matches for fn \\w+\\(.\nFound 0 files for **/*.md.");
}

}  // namespace
}  // namespace agentctx
