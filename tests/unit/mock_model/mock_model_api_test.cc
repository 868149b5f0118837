// SPDX-License-Identifier: MIT
// The mock model as a faithful Responses server and an agent-grade tool user:
// #mock- directives for edit_file, apply_patch, grep, glob and any tool (#mock-call), the
// non-streaming answer, and the API's input shorthand.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mock_model/mock_model.h"
#include "protocol/json_codec.h"
#include "support/sha1.h"
#include "unit/mock_model/mock_test_support.h"
#include "world_state/message_kind.h"

namespace agentctx {
namespace {

using testing::Body;
using testing::Call;
using testing::DoneItems;
using testing::Output;
using testing::ParseSse;
using testing::ReplyText;
using testing::Usage;
using testing::UserMsg;

// Ours: directives for the agent-grade tools, and their summary lines.
TEST(MockModel, AgentGradeToolDirectivesAndSummaries) {
  MockModel mock;
  std::string tools =
      R"([{"type":"function","name":"edit_file"},{"type":"function","name":"apply_patch"},)"
      R"({"type":"function","name":"grep"},{"type":"function","name":"glob"}])";
  std::string u =
      "#mock-edit:src/a.rs=old => x=>new\n#mock-grep:fn \\w+\n#mock-glob:**/*.rs and more\n"
      "#mock-patch:\n*** Begin Patch\n*** Delete File: b.txt\n*** End Patch\nafter.md";
  auto sse = mock.Handle("responses", Body({UserMsg(u)}, tools), 0);
  ASSERT_TRUE(sse.has_value());
  std::vector<std::string> items = DoneItems(*sse);
  ASSERT_EQ(items.size(),
            5u);  // reasoning + 4 calls (after.md would be a 5th: cut, and unadvertised)
  EXPECT_NE(items[0].find("Mock plan: call edit_file, grep, glob, apply_patch\""),
            std::string::npos);
  EXPECT_NE(
      items[1].find(
          R"("arguments":"{\"path\":\"src/a.rs\",\"old_string\":\"old \",\"new_string\":\" x=>new\"}")"),
      std::string::npos)
      << items[1];
  EXPECT_NE(items[2].find(R"("arguments":"{\"pattern\":\"fn \\\\w+\"}")"), std::string::npos)
      << items[2];
  EXPECT_NE(items[3].find(R"("arguments":"{\"pattern\":\"**/*.rs\"}")"), std::string::npos);
  EXPECT_NE(
      items[4].find(
          R"("arguments":"{\"patch\":\"*** Begin Patch\\n*** Delete File: b.txt\\n*** End Patch\\n\"}")"),
      std::string::npos)
      << items[4];
  // One-line patches read `\n` as a line break; #mock-edit-all sets replace_all.
  auto one_line = mock.Handle(
      "responses",
      Body({UserMsg("#mock-patch:*** Begin Patch\\n*** Add File: n.txt\\n+hi\\n*** End Patch\n"
                    "#mock-edit-all:a.txt=x=>y")},
           tools),
      0);
  ASSERT_TRUE(one_line.has_value());
  items = DoneItems(*one_line);
  ASSERT_EQ(items.size(), 3u);
  EXPECT_NE(
      items[1].find(R"(\"patch\":\"*** Begin Patch\\n*** Add File: n.txt\\n+hi\\n*** End Patch\")"),
      std::string::npos)
      << items[1];
  EXPECT_NE(items[2].find(R"(\"new_string\":\"y\",\"replace_all\":true})"), std::string::npos)
      << items[2];

  std::string body = Body({
      UserMsg("go"),
      Call("edit_file", R"({"path":"src/a.rs","old_string":"a","new_string":"b"})", "e1"),
      Call("apply_patch", R"({"patch":"..."})", "e2"),
      Call("grep", R"({"pattern":"TODO"})", "e3"),
      Call("glob", R"({"pattern":"*.rs"})", "e4"),
      Call("grep", R"({"pattern":"x"})", "e5"),
      Call("edit_file", R"({"path":"a"})", "e6"),
      Call("apply_patch", R"({"patch":"..."})", "e7"),
      Output("e1", "Edited /repo/src/a.rs: replaced 1 occurrence (line 2)"),
      Output("e2", "Applied patch:\nA /repo/n.txt\nM /repo/b.txt (moved from /repo/c.txt)"),
      Output("e3", "/repo/a.rs:1: // TODO\n/repo/b.rs:12: TODO: x\n(skipped 1 binary file)"),
      Output("e4", "/repo/a.rs"),
      Output("e5", "No matches for x in /repo"),
      Output("e6", "edit_file failed: old_string was not found in /repo/a"),
      Output("e7", "apply_patch refused: sandbox_mode is read-only"),
  });
  auto summary = mock.Handle("responses", body, 0);
  ASSERT_TRUE(summary.has_value());
  EXPECT_EQ(ReplyText(*summary),
            "Edited src/a.rs.\n"
            "Patched 2 files.\n"
            "Found 2 matches for TODO.\n"
            "Found 1 file for *.rs.\n"
            "Found 0 matches for x.\n"
            "edit_file failed: old_string was not found in /repo/a\n"
            "apply_patch refused: sandbox_mode is read-only");
}

// Without `stream:true` (false or absent, the API's default) the answer is the one
// completed response object; ids, text and usage are those of the stream.
TEST(MockModel, NonStreamingAnswersOneResponseObject) {
  MockModel mock;
  std::string streamed = Body({UserMsg("hello")}, "[]");
  std::string plain = streamed;
  plain.replace(plain.find("\"stream\":true"), 13, "\"stream\":false");
  auto sse = mock.Handle("responses", streamed, 3000);
  auto json = mock.Handle("responses", plain, 3000);
  ASSERT_TRUE(sse.has_value());
  ASSERT_TRUE(json.has_value());
  auto response = ParseJson(*json);
  ASSERT_TRUE(response.has_value()) << *json;
  EXPECT_EQ(response->GetString("object"), "response");
  EXPECT_EQ(response->GetString("status"), "completed");
  EXPECT_EQ(response->GetInt("created_at"), 3);
  EXPECT_EQ(response->GetString("id"), "resp_" + Sha1Hex(plain).substr(0, 12));
  const JsonValue& output = *response->Find("output");
  ASSERT_EQ(output.items().size(), 2u);
  EXPECT_EQ(MessageTexts(output.items()[1], "output_text").front(), "Mock reply to: hello");
  EXPECT_EQ(ToJson(*response->Find("usage")), ToJson(Usage(ParseSse(*sse))));
  // A failure directive: a failed response object.
  auto failed = mock.Handle("responses", R"({"input":"#mock-fail:server_error"})", 0);
  ASSERT_TRUE(failed.has_value());
  auto f = ParseJson(*failed);
  EXPECT_EQ(f->GetString("status"), "failed");
  EXPECT_EQ(f->Find("error")->GetString("code"), "server_error");
  // `stream` must be a boolean.
  auto bad = mock.Handle("responses", R"({"stream":"yes"})", 0);
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().message, "request body: stream must be a boolean");
}

// The API's shorthand — a string input, {role, content} messages — reads like the
// long form (ids still hash the bytes as sent).
TEST(MockModel, StringInputAndEasyMessages) {
  MockModel mock;
  auto text = mock.Handle("responses", R"({"model":"m","input":"Please read README.md"})", 0);
  ASSERT_TRUE(text.has_value());
  auto r = ParseJson(*text);
  EXPECT_EQ(r->GetString("status"), "completed");
  ASSERT_EQ(r->Find("output")->items().size(), 2u);  // a reply: no read_file in `tools`
  EXPECT_EQ(MessageTexts(r->Find("output")->items()[1], "output_text").front(),
            "Mock reply to: Please read README.md");
  auto easy = mock.Handle(
      "responses",
      R"({"stream":true,"input":[{"role":"user","content":"first"},{"role":"assistant","content":"ok"},)"
      R"({"role":"user","content":[{"type":"input_text","text":"second"}]}]})",
      0);
  ASSERT_TRUE(easy.has_value());
  EXPECT_EQ(ReplyText(*easy), "Mock reply to: second");
  auto bad = mock.Handle("responses", R"({"input":5})", 0);
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().message, "request body: input must be a string or an array");
}

// `#mock-call:<tool>=<arguments>` calls any advertised tool (the playground's
// pretend MCP server included) with the arguments verbatim.
TEST(MockModel, MockCallReachesHostTools) {
  MockModel mock;
  std::string tools = R"([{"type":"function","name":"mcp__tracker__search_issues"}])";
  std::string body = Body({UserMsg("#mock-call:mcp__tracker__search_issues={\"query\":\"cache\"}\n"
                                   "#mock-call:nope={}\n#mock-call: mcp__tracker__search_issues")},
                          tools);
  auto sse = mock.Handle("responses", body, 0);
  ASSERT_TRUE(sse.has_value());
  std::vector<std::string> items = DoneItems(*sse);
  ASSERT_EQ(items.size(), 3u);  // reasoning + 2 calls (`nope` is not advertised)
  EXPECT_NE(
      items[1].find(R"("name":"mcp__tracker__search_issues","arguments":"{\"query\":\"cache\"}")"),
      std::string::npos)
      << items[1];
  EXPECT_NE(items[2].find(R"("arguments":"{}")"), std::string::npos) << items[2];
}

}  // namespace
}  // namespace agentctx
