// SPDX-License-Identifier: MIT
#include "mock_model/mock_model.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "prompt/prompt_bytes.h"
#include "protocol/json_codec.h"
#include "support/sha1.h"
#include "support/spec_bodies.h"
#include "unit/mock_model/mock_test_support.h"
#include "world_state/message_kind.h"

namespace agentctx {
namespace {

using testing::kSpecExampleBody;

using testing::AgentsMd;
using testing::AssistantMsg;
using testing::Body;
using testing::Call;
using testing::DoneItems;
using testing::kBuiltinTools;
using testing::Output;
using testing::ParseSse;
using testing::ReplyText;
using testing::SseEvent;
using testing::Tok;
using testing::Usage;
using testing::UserMsg;

TEST(MockModel, SpecExampleBodyExactStream) {
  MockModel mock;
  std::string body(kSpecExampleBody);
  auto sse = mock.Handle("responses", body, 0);
  ASSERT_TRUE(sse.has_value()) << sse.error().message;
  std::string h = Sha1Hex(body);
  std::string h12 = h.substr(0, 12);
  std::string reasoning = R"({"type":"reasoning","id":"rs_)" + h12 +
                          R"(","summary":[{"type":"summary_text","text":"Mock plan: reply"}],)"
                          R"("encrypted_content":"mockenc_)" +
                          h + "\"}";
  std::string message = R"({"type":"message","id":"msg_)" + h12 +
                        R"(","role":"assistant","content":[{"type":"output_text","text":)"
                        R"("Mock reply to: hi"}]})";
  std::uint64_t output_tokens = Tok(reasoning) + Tok(message);
  const std::string rs = "rs_" + h12;
  const std::string msg = "msg_" + h12;
  // A full response object: output and usage filled in only when completed.
  auto response = [&](std::string_view status, std::string output, std::string usage) {
    return R"({"id":"resp_)" + h12 + R"(","object":"response","created_at":0,"status":")" +
           std::string(status) + R"(","error":null,"incomplete_details":null,"model":"mock-1",)" +
           R"("output":)" + output + R"(,"usage":)" + usage + "}";
  };
  int seq = 0;
  auto event = [&](std::string_view type, std::string rest) {
    return "event: " + std::string(type) + "\ndata: {\"type\":\"" + std::string(type) +
           "\",\"sequence_number\":" + std::to_string(seq++) + rest + "}\n\n";
  };
  const std::string usage =
      R"({"input_tokens":176,"input_tokens_details":{"cached_tokens":0},"output_tokens":)" +
      std::to_string(output_tokens) + R"(,"output_tokens_details":{"reasoning_tokens":)" +
      std::to_string(Tok(reasoning)) + R"(},"total_tokens":)" +
      std::to_string(176 + output_tokens) + "}";
  std::string expected;
  expected += event("response.created", ",\"response\":" + response("in_progress", "[]", "null"));
  expected +=
      event("response.in_progress", ",\"response\":" + response("in_progress", "[]", "null"));
  expected += event("response.output_item.added",
                    R"(,"output_index":0,"item":{"type":"reasoning","id":")" + rs +
                        R"(","summary":[],"encrypted_content":"mockenc_)" + h + "\"}");
  expected +=
      event("response.reasoning_summary_part.added",
            R"(,"item_id":")" + rs +
                R"(","output_index":0,"summary_index":0,"part":{"type":"summary_text","text":""})");
  expected += event("response.reasoning_summary_text.delta",
                    R"(,"item_id":")" + rs +
                        R"(","output_index":0,"summary_index":0,"delta":"Mock plan: reply")");
  expected += event(
      "response.reasoning_summary_text.done",
      R"(,"item_id":")" + rs + R"(","output_index":0,"summary_index":0,"text":"Mock plan: reply")");
  expected += event(
      "response.reasoning_summary_part.done",
      R"(,"item_id":")" + rs +
          R"(","output_index":0,"summary_index":0,"part":{"type":"summary_text","text":"Mock plan: reply"})");
  expected += event("response.output_item.done", R"(,"output_index":0,"item":)" + reasoning);
  expected +=
      event("response.output_item.added", R"(,"output_index":1,"item":{"type":"message","id":")" +
                                              msg + R"(","role":"assistant","content":[]})");
  expected += event(
      "response.content_part.added",
      R"(,"item_id":")" + msg +
          R"(","output_index":1,"content_index":0,"part":{"type":"output_text","annotations":[],"text":""})");
  expected += event("response.output_text.delta",
                    R"(,"item_id":")" + msg +
                        R"(","output_index":1,"content_index":0,"delta":"Mock reply to: hi")");
  expected += event("response.output_text.done",
                    R"(,"item_id":")" + msg +
                        R"(","output_index":1,"content_index":0,"text":"Mock reply to: hi")");
  expected += event(
      "response.content_part.done",
      R"(,"item_id":")" + msg +
          R"(","output_index":1,"content_index":0,"part":{"type":"output_text","annotations":[],"text":"Mock reply to: hi"})");
  expected += event("response.output_item.done", R"(,"output_index":1,"item":)" + message);
  expected +=
      event("response.completed",
            ",\"response\":" + response("completed", "[" + reasoning + "," + message + "]", usage));
  EXPECT_EQ(*sse, expected);
}

TEST(MockModel, ReadsReferencedFilesWithBuiltins) {
  MockModel mock;
  std::string body = Body({UserMsg("Please read src/main.rs and README.md.")});
  auto sse = mock.Handle("responses", body, 0);
  ASSERT_TRUE(sse.has_value());
  std::string h = Sha1Hex(body);
  std::string h12 = h.substr(0, 12);
  std::vector<std::string> items = DoneItems(*sse);
  ASSERT_EQ(items.size(), 3u);
  EXPECT_EQ(items[0], R"({"type":"reasoning","id":"rs_)" + h12 +
                          R"(","summary":[{"type":"summary_text","text":"Mock plan: call )"
                          R"(read_file, read_file"}],"encrypted_content":"mockenc_)" +
                          h + "\"}");
  EXPECT_EQ(items[1], R"({"type":"function_call","id":"fc_)" + h12 +
                          R"(_0","name":"read_file","arguments":"{\"path\":\"src/main.rs\"}",)"
                          R"("call_id":"call_)" +
                          h12 + "_0\"}");
  EXPECT_EQ(items[2], R"({"type":"function_call","id":"fc_)" + h12 +
                          R"(_1","name":"read_file","arguments":"{\"path\":\"README.md\"}",)"
                          R"("call_id":"call_)" +
                          h12 + "_1\"}");
  // No text deltas for calls; the 36-byte plan text gives two reasoning deltas.
  std::vector<SseEvent> events = ParseSse(*sse);
  int deltas = 0;
  for (const SseEvent& e : events) deltas += e.type.find(".delta") != std::string::npos;
  EXPECT_EQ(deltas, 2);
  EXPECT_EQ(events.size(), 2u + 7u + 2u * 2u + 1u);  // lifecycle, reasoning, 2 calls, completed
}

TEST(MockModel, SummarisesToolOutputs) {
  MockModel mock;
  std::string three = "L1: a\nL2: b\nL3: c";
  std::string ten;
  for (int i = 1; i <= 10; ++i) ten += (i > 1 ? "\n" : "") + ("L" + std::to_string(i) + ": x");
  std::string body = Body({UserMsg("Please read src/main.rs and README.md."),
                           Call("read_file", R"({"path":"src/main.rs"})", "call_a"),
                           Call("read_file", R"({"path":"README.md"})", "call_b"),
                           Output("call_a", three), Output("call_b", ten)});
  auto sse = mock.Handle("responses", body, 0);
  ASSERT_TRUE(sse.has_value());
  EXPECT_EQ(ReplyText(*sse), "Read src/main.rs: 3 lines.\nRead README.md: 10 lines.");
  std::vector<std::string> items = DoneItems(*sse);
  ASSERT_EQ(items.size(), 2u);
  EXPECT_NE(items[0].find("Mock plan: reply"), std::string::npos);
}

TEST(MockModel, ToolOutputLinesForEveryKind) {
  MockModel mock;
  std::string body = Body({
      UserMsg("do things"),
      Call("list_dir", R"({"path":"."})", "c1"),
      Call("write_file", R"({"path":"out.txt","content":"x"})", "c2"),
      Call("read_file", R"({"path":"missing"})", "c3"),
      Call("mcp__git__status", "{}", "c4"),
      Call("nope", "{}", "c5"),
      Call("read_file", R"({"path":"gone"})", "c6"),
      Call("write_file", R"({"path":"/etc/x","content":"x"})", "c7"),
      Call("read_file", R"({"path":"e.txt"})", "c8"),
      Output("c1", "Absolute path: /repo\nA.md\nb.txt\nsrc/\n  main.rs\n[more entries omitted]"),
      Output("c2", "Wrote 1 bytes to /repo/out.txt"),
      Output("c3", "read_file failed: not_found: /repo/missing"),
      Output("c4", "on branch main\nclean"),
      Output("c5", "unsupported call: nope"),
      Output("c6", "aborted"),
      Output("c7", "write_file refused: sandbox_mode is read-only\nmore"),
      Output("c8", "(empty file)"),
  });
  auto sse = mock.Handle("responses", body, 0);
  ASSERT_TRUE(sse.has_value());
  EXPECT_EQ(ReplyText(*sse),
            "Listed .: 4 entries.\n"
            "Wrote out.txt.\n"
            "read_file failed: not_found: /repo/missing\n"
            "mcp__git__status returned 20 bytes.\n"
            "nope failed: unsupported call: nope\n"
            "read_file failed: aborted\n"
            "write_file refused: sandbox_mode is read-only\n"
            "Read e.txt: 0 lines.");
}

TEST(MockModel, OneLineAndOneEntryAreSingular) {
  MockModel mock;
  std::string body = Body({
      UserMsg("go"),
      Call("read_file", R"({"path":"a.txt"})", "c1"),
      Call("list_dir", R"({"path":"src"})", "c2"),
      Call("read_file", R"({"path":"b.txt"})", "c3"),
      Output("c1", "L1: only"),
      Output("c2", "Absolute path: /repo/src\nmain.rs"),
      Output("c3", "L1: one\nL2: two"),
  });
  auto sse = mock.Handle("responses", body, 0);
  ASSERT_TRUE(sse.has_value());
  EXPECT_EQ(ReplyText(*sse), "Read a.txt: 1 line.\nListed src: 1 entry.\nRead b.txt: 2 lines.");
}

TEST(MockModel, PartOutputsAndCustomCalls) {
  MockModel mock;
  std::string body = Body({
      UserMsg("go"),
      R"({"type":"custom_tool_call","call_id":"k1","name":"patch","input":"x"})",
      R"({"type":"custom_tool_call_output","call_id":"k1","output":"done"})",
      Call("lookup", "{}", "k2"),
      R"({"type":"function_call_output","call_id":"k2","output":[{"type":"input_text","text":"ab"},{"type":"input_image","image_url":"data:x"},{"type":"input_text","text":"cd"}]})",
  });
  auto sse = mock.Handle("responses", body, 0);
  ASSERT_TRUE(sse.has_value());
  EXPECT_EQ(ReplyText(*sse), "patch returned 4 bytes.\nlookup returned 5 bytes.");
}

TEST(MockModel, OnlyAdvertisedToolsAndAtMostFour) {
  MockModel mock;
  std::string u = "#mock-list:src a1.md a2.md #mock-write:w.txt=hi\na3.md a4.md a5.md";
  auto none = mock.Handle("responses", Body({UserMsg(u)}, "[]"), 0);
  ASSERT_TRUE(none.has_value());
  EXPECT_EQ(ReplyText(*none), "Mock reply to: #mock-list:src a1.md a2.md #mock-write:w.txt=hi");

  std::string only_list = R"([{"type":"function","name":"list_dir"}])";
  std::string body = Body({UserMsg(u)}, only_list);
  auto list = mock.Handle("responses", body, 0);
  ASSERT_TRUE(list.has_value());
  std::vector<std::string> items = DoneItems(*list);
  ASSERT_EQ(items.size(), 2u);
  EXPECT_NE(items[0].find("Mock plan: call list_dir\""), std::string::npos);
  EXPECT_NE(items[1].find(R"("name":"list_dir","arguments":"{\"path\":\"src\"}")"),
            std::string::npos);

  auto all = mock.Handle("responses", Body({UserMsg(u)}), 0);
  ASSERT_TRUE(all.has_value());
  items = DoneItems(*all);
  ASSERT_EQ(items.size(), 5u);
  EXPECT_NE(items[0].find("Mock plan: call list_dir, read_file, read_file, write_file\""),
            std::string::npos);
  EXPECT_NE(items[4].find(R"("arguments":"{\"path\":\"w.txt\",\"content\":\"hi\"}")"),
            std::string::npos);
  EXPECT_NE(items[4].find("_3\"}"), std::string::npos);
}

TEST(MockModel, AgentsMdDirectivesApplyToReplies) {
  MockModel mock;
  auto sse = mock.Handle(
      "responses",
      Body({AgentsMd("reply prefix: [ok]\nreply in uppercase"), UserMsg("hello")}, "[]"), 0);
  ASSERT_TRUE(sse.has_value());
  EXPECT_EQ(ReplyText(*sse), "[ok] MOCK REPLY TO: HELLO");
}

TEST(MockModel, LastAgentsMdPartWinsAndRemovalClears) {
  MockModel mock;
  std::string replacement = AgentsMd(
      "These AGENTS.md instructions replace all previously provided AGENTS.md instructions.\n\n"
      "reply suffix: (done)");
  auto sse = mock.Handle(
      "responses",
      Body({AgentsMd("reply in uppercase."), UserMsg("one"), replacement, UserMsg("two")}, "[]"),
      0);
  ASSERT_TRUE(sse.has_value());
  EXPECT_EQ(ReplyText(*sse), "Mock reply to: two (done)");
  std::string removal = AgentsMd("The previously provided AGENTS.md instructions no longer apply.");
  sse = mock.Handle("responses",
                    Body({AgentsMd("reply in uppercase"), removal, UserMsg("three")}, "[]"), 0);
  ASSERT_TRUE(sse.has_value());
  EXPECT_EQ(ReplyText(*sse), "Mock reply to: three");
}

TEST(MockModel, DirectivesApplyToToolSummaries) {
  MockModel mock;
  auto sse = mock.Handle("responses",
                         Body({AgentsMd("reply prefix: >>"), UserMsg("#mock-write:a.txt=x"),
                               Call("write_file", R"({"path":"a.txt","content":"x"})", "c"),
                               Output("c", "Wrote 1 bytes to /repo/a.txt")}),
                         0);
  ASSERT_TRUE(sse.has_value());
  EXPECT_EQ(ReplyText(*sse), ">> Wrote a.txt.");
}

TEST(MockModel, ReplyUsesFirstLineOfLastRealUserMessage) {
  MockModel mock;
  std::string long_line(100, 'z');
  auto sse = mock.Handle(
      "responses",
      Body({UserMsg("older"), AgentsMd("nothing"),
            R"({"type":"message","role":"user","content":[{"type":"input_text","text":")" +
                long_line + R"(\nsecond"},{"type":"input_text","text":"third"}]})",
            UserMsg("<environment_context>\n  <cwd>/repo</cwd>\n</environment_context>")},
           "[]"),
      0);
  ASSERT_TRUE(sse.has_value());
  EXPECT_EQ(ReplyText(*sse), "Mock reply to: " + std::string(80, 'z'));
}

TEST(MockModel, CompactionPromptGivesMockSummary) {
  MockModel mock;
  std::string body =
      Body({AgentsMd("reply in uppercase"), UserMsg("first task\nwith details"),
            Call("read_file", R"({"path":"a.txt"})", "c1"), Output("c1", "L1: x"),
            AssistantMsg("ok"), UserMsg(std::string(SummaryPrefix()) + "\nold summary"),
            UserMsg("second task"), Call("read_file", R"({"path":"src/b.rs"})", "c2"),
            Output("c2", "L1: y"), UserMsg(SummarizationPrompt())},
           kBuiltinTools);
  auto sse = mock.Handle("responses", body, 0);
  ASSERT_TRUE(sse.has_value());
  EXPECT_EQ(ReplyText(*sse),
            "MOCK SUMMARY\n- user: first task\n- user: second task\n- read: a.txt\n- read: "
            "src/b.rs");
  std::vector<std::string> items = DoneItems(*sse);
  ASSERT_EQ(items.size(), 2u);
  EXPECT_NE(items[0].find("Mock plan: summarize"), std::string::npos);
}

TEST(MockModel, MockFailOnceThenRetrySucceeds) {
  MockModel mock;
  std::string body = Body({UserMsg("hi #mock-fail-once:server_error")}, "[]");
  std::string h12 = Sha1Hex(body).substr(0, 12);
  auto first = mock.Handle("responses", body, 0);
  ASSERT_TRUE(first.has_value());
  std::vector<SseEvent> failed = ParseSse(*first);
  ASSERT_EQ(failed.size(), 3u);  // created, in_progress, failed
  EXPECT_EQ(failed[2].type, "response.failed");
  EXPECT_EQ(failed[2].data.Find("response")->GetString("id"), "resp_" + h12);
  EXPECT_EQ(failed[2].data.Find("response")->GetString("status"), "failed");
  EXPECT_EQ(
      ToJson(*failed[2].data.Find("response")->Find("error")),
      R"({"code":"server_error","message":"Mock failure: server_error. Please try again in 1s."})");
  auto retry = mock.Handle("responses", body, 1000);
  ASSERT_TRUE(retry.has_value());
  std::vector<SseEvent> events = ParseSse(*retry);
  EXPECT_EQ(events.back().type, "response.completed");
  EXPECT_EQ(ReplyText(*retry), "Mock reply to: hi #mock-fail-once:server_error");
  // A different body with the same directive fails again once.
  auto other = mock.Handle("responses", Body({UserMsg("hi #mock-fail-once:server_error")}), 2000);
  ASSERT_TRUE(other.has_value());
  EXPECT_EQ(ParseSse(*other).back().type, "response.failed");
}

TEST(MockModel, MockFailAlwaysFails) {
  MockModel mock;
  std::string body = Body({UserMsg("#mock-fail:rate_limit_exceeded please")}, "[]");
  for (int i = 0; i < 3; ++i) {
    auto sse = mock.Handle("responses", body, i);
    ASSERT_TRUE(sse.has_value());
    std::vector<SseEvent> events = ParseSse(*sse);
    ASSERT_EQ(events.size(), 3u);
    EXPECT_EQ(events[2].type, "response.failed");
    EXPECT_EQ(ToJson(*events[2].data.Find("response")->Find("error")),
              R"({"code":"rate_limit_exceeded","message":"Mock failure: rate_limit_exceeded. )"
              R"(Please try again in 1s."})");
  }
  // Failures never reach the cache.
  EXPECT_EQ(mock.cache().EntryCount("mock-1", "s-1"), 0u);
}

TEST(MockModel, SameBodyTwiceDiffersOnlyInCachedTokens) {
  MockModel mock;
  std::string body = Body({UserMsg(std::string(6000, 'q') + " see notes.md")}, "[]");
  // Within the same second: created_at (whole seconds of now_ms) is the same too.
  auto first = mock.Handle("responses", body, 0);
  auto second = mock.Handle("responses", body, 999);
  ASSERT_TRUE(first.has_value());
  ASSERT_TRUE(second.has_value());
  std::vector<SseEvent> a = ParseSse(*first);
  std::vector<SseEvent> b = ParseSse(*second);
  EXPECT_EQ(Usage(a).Find("input_tokens_details")->GetInt("cached_tokens"), 0);
  std::int64_t input_tokens = *Usage(a).GetInt("input_tokens");
  std::int64_t cached = *Usage(b).Find("input_tokens_details")->GetInt("cached_tokens");
  auto prompt = PromptBytesFromBodyBytes(body);
  ASSERT_TRUE(prompt.has_value());
  EXPECT_EQ(static_cast<std::uint64_t>(input_tokens), TokensForBytes(prompt->size()));
  EXPECT_EQ(static_cast<std::uint64_t>(cached), Cacheable(prompt->size() / 4));
  EXPECT_GT(cached, 0);
  std::string patched = *second;
  std::string from = "\"cached_tokens\":" + std::to_string(cached);
  std::size_t at = patched.find(from);
  ASSERT_NE(at, std::string::npos);
  patched.replace(at, from.size(), "\"cached_tokens\":0");
  EXPECT_EQ(patched, *first);
}

TEST(MockModel, UsageAddsUp) {
  MockModel mock;
  std::string body = Body({UserMsg("Please read src/main.rs")});
  auto sse = mock.Handle("responses", body, 0);
  ASSERT_TRUE(sse.has_value());
  std::vector<std::string> items = DoneItems(*sse);
  ASSERT_EQ(items.size(), 2u);
  auto prompt = PromptBytesFromBodyBytes(body);
  ASSERT_TRUE(prompt.has_value());
  std::vector<SseEvent> events = ParseSse(*sse);
  const JsonValue& usage = Usage(events);
  std::uint64_t in = TokensForBytes(prompt->size());
  std::uint64_t out = Tok(items[0]) + Tok(items[1]);
  EXPECT_EQ(ToJson(usage),
            "{\"input_tokens\":" + std::to_string(in) +
                ",\"input_tokens_details\":{\"cached_tokens\":0},\"output_tokens\":" +
                std::to_string(out) + ",\"output_tokens_details\":{\"reasoning_tokens\":" +
                std::to_string(Tok(items[0])) + "},\"total_tokens\":" + std::to_string(in + out) +
                "}");
}

TEST(MockModel, GrowingConversationHitsTheCache) {
  MockModel mock;
  std::vector<std::string> items = {UserMsg(std::string(8000, 'a'))};
  auto first = mock.Handle("responses", Body(items, "[]"), 0);
  items.push_back(AssistantMsg("Mock reply to: aaa"));
  items.push_back(UserMsg("next"));
  std::string body2 = Body(items, "[]");
  auto second = mock.Handle("responses", body2, 10000);
  auto other_key = mock.Handle("responses", Body(items, "[]", "other"), 10000);
  ASSERT_TRUE(first.has_value() && second.has_value() && other_key.has_value());
  auto p1 = PromptBytesFromBodyBytes(Body({UserMsg(std::string(8000, 'a'))}, "[]"));
  ASSERT_TRUE(p1.has_value());
  EXPECT_EQ(Usage(ParseSse(*second)).Find("input_tokens_details")->GetInt("cached_tokens"),
            static_cast<std::int64_t>(Cacheable(p1->size() / 4)));
  EXPECT_EQ(Usage(ParseSse(*other_key)).Find("input_tokens_details")->GetInt("cached_tokens"), 0);
}

TEST(MockModel, CompactEndpointKeepsRealUserMessages) {
  MockModel mock;
  std::string body =
      R"({"model":"mock-1","input":[)" + AgentsMd("x") + "," + UserMsg("first") + "," +
      AssistantMsg("ok") + "," + UserMsg(std::string(SummaryPrefix()) + "\nS") + "," +
      R"({"type":"message","role":"user","content":[{"type":"input_text","text":"second"},{"type":"input_image","image_url":"data:y"}]})" +
      R"(],"tools":[],"parallel_tool_calls":true,"prompt_cache_key":"s-1"})";
  auto out = mock.Handle("responses/compact", body, 0);
  ASSERT_TRUE(out.has_value()) << out.error().message;
  EXPECT_EQ(
      *out,
      R"({"output":[)" + UserMsg("first") +
          R"(,{"type":"message","role":"user","content":[{"type":"input_text","text":"second"},{"type":"input_image","image_url":"data:y"}]})" +
          R"(,{"type":"compaction","encrypted_content":"mockcmp_)" + Sha1Hex(body) + "\"}]}");
}

TEST(MockModel, CompactEndpointPassesThroughTheSimulator) {
  MockModel mock;
  std::string body = R"({"model":"mock-1","input":[)" + UserMsg(std::string(5000, 'c')) +
                     R"(],"tools":[],"prompt_cache_key":"s-1"})";
  ASSERT_TRUE(mock.Handle("responses/compact", body, 0).has_value());
  EXPECT_EQ(mock.cache().EntryCount("mock-1", "s-1"), 1u);
}

TEST(MockModel, BadInputIsAnErrorAndChangesNothing) {
  MockModel mock;
  auto bad = mock.Handle("responses", "{oops", 0);
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().code, ErrorCode::kInvalidJson);
  EXPECT_NE(bad.error().message.find("invalid JSON at byte"), std::string::npos);
  auto bad_compact = mock.Handle("responses/compact", "", 0);
  ASSERT_FALSE(bad_compact.has_value());
  EXPECT_EQ(bad_compact.error().code, ErrorCode::kInvalidJson);
  for (std::string_view body : {R"([1])", R"({"input":{}})", R"({"model":1,"input":[]})",
                                R"({"instructions":false})", R"({"tools":"x"})"}) {
    auto r = mock.Handle("responses", body, 0);
    ASSERT_FALSE(r.has_value()) << body;
    EXPECT_EQ(r.error().code, ErrorCode::kInvalidInput) << body;
  }
  auto endpoint = mock.Handle("v1/chat", Body({UserMsg("hi")}), 0);
  ASSERT_FALSE(endpoint.has_value());
  EXPECT_EQ(endpoint.error().code, ErrorCode::kInvalidInput);
  EXPECT_EQ(mock.cache().EntryCount("mock-1", "s-1"), 0u);
}

TEST(MockModel, OddButValidBodies) {
  MockModel mock;
  // No input at all, no user message, odd items: still a reply.
  auto empty = mock.Handle("responses", R"({"stream":true})", 0);
  ASSERT_TRUE(empty.has_value());
  EXPECT_EQ(ReplyText(*empty), "Mock reply to: ");
  auto odd =
      mock.Handle("responses", R"({"stream":true,"input":[1,"x",null,{"type":"message"}]})", 0);
  ASSERT_TRUE(odd.has_value());
  EXPECT_EQ(ReplyText(*odd), "Mock reply to: ");
  // Outputs with no user message before them are summarised.
  auto orphan =
      mock.Handle("responses", "{\"stream\":true,\"input\":[" + Output("zz", "hello") + "]}", 0);
  ASSERT_TRUE(orphan.has_value());
  EXPECT_EQ(ReplyText(*orphan), "tool returned 5 bytes.");
}

}  // namespace
}  // namespace agentctx
