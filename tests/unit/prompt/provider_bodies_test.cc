// SPDX-License-Identifier: MIT
// Chat Completions and Anthropic Messages bodies (docs/providers.md): renderings of canonical
// items, the byte-stable growth of a body as history grows, grouping of assistant calls, dropped
// reasoning, the breakpoint marks, and the explainer's per-provider segments.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "protocol/json_codec.h"
#include "provider/anthropic/anthropic_body.h"
#include "provider/chat/chat_body.h"
#include "provider/provider_items.h"

namespace agentctx {
namespace {

const char* const kDeveloper =
    R"({"type":"message","role":"developer","content":[{"type":"input_text","text":"<permissions instructions>\nbe careful\n</permissions instructions>"}]})";
const char* const kEnv =
    R"({"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>\n  <cwd>/repo</cwd>\n</environment_context>"}]})";
const char* const kUser =
    R"({"type":"message","role":"user","content":[{"type":"input_text","text":"read a.txt"}]})";
const char* const kReasoning =
    R"({"type":"reasoning","id":"rs_1","summary":[{"type":"summary_text","text":"plan"}],"encrypted_content":"enc"})";
const char* const kCallA =
    R"({"type":"function_call","name":"read_file","arguments":"{\"path\":\"a.txt\"}","call_id":"call_a"})";
const char* const kCallB =
    R"({"type":"function_call","name":"read_file","arguments":"not json","call_id":"call_b"})";
const char* const kOutA = R"({"type":"function_call_output","call_id":"call_a","output":"L1: hi"})";
const char* const kOutB = R"({"type":"function_call_output","call_id":"call_b","output":"x"})";
const char* const kReply =
    R"({"type":"message","role":"assistant","content":[{"type":"output_text","text":"Done."}]})";
const char* const kTools =
    R"([{"type":"function","name":"read_file","description":"Reads.","strict":false,"parameters":{"properties":{},"type":"object"}}])";

struct History {
  std::vector<std::string> bytes;
  std::vector<ItemSegment> Segments() const {
    std::vector<ItemSegment> out;
    for (std::size_t i = 0; i < bytes.size(); ++i) {
      std::string_view origin = i == 0 ? "permissions" : i == 1 ? "environment" : "user";
      out.push_back(ItemSegment{bytes[i], origin, i + 1});
    }
    return out;
  }
};

BodyParams Params() {
  BodyParams p;
  p.model = "m-1";
  p.instructions = "Be brief.";
  p.tools_bytes = kTools;
  p.prompt_cache_key = "k";
  return p;
}

// The body up to the end of its last message: what the next body must start with.
std::string StablePart(const std::string& body, std::string_view messages_key) {
  std::size_t at = body.find(messages_key);
  std::size_t depth = 0;
  for (std::size_t i = at + messages_key.size() - 1; i < body.size(); ++i) {
    if (body[i] == '"') {  // skip strings
      for (++i; i < body.size() && body[i] != '"'; ++i) {
        if (body[i] == '\\') ++i;
      }
      continue;
    }
    if (body[i] == '[' || body[i] == '{') ++depth;
    if (body[i] == ']' || body[i] == '}') {
      if (--depth == 0) return body.substr(0, i);  // without the closing `]`
    }
  }
  return body;
}

TEST(ProviderItems, ChatRendersEachKind) {
  EXPECT_EQ(RenderChatPiece(*ParseJson(kUser)).bytes, R"({"role":"user","content":"read a.txt"})");
  EXPECT_EQ(RenderChatPiece(*ParseJson(kReasoning)).kind, ChatPiece::Kind::kDropped);
  ChatPiece call = RenderChatPiece(*ParseJson(kCallA));
  EXPECT_EQ(call.kind, ChatPiece::Kind::kToolCall);
  EXPECT_EQ(
      call.bytes,
      R"({"id":"call_a","type":"function","function":{"name":"read_file","arguments":"{\"path\":\"a.txt\"}"}})");
  EXPECT_EQ(RenderChatPiece(*ParseJson(kOutA)).bytes,
            R"({"role":"tool","tool_call_id":"call_a","content":"L1: hi"})");
  const char* image =
      R"({"type":"message","role":"user","content":[{"type":"input_text","text":"see"},{"type":"input_image","image_url":"https://x/y.png"}]})";
  EXPECT_EQ(
      RenderChatPiece(*ParseJson(image)).bytes,
      R"({"role":"user","content":[{"type":"text","text":"see"},{"type":"image_url","image_url":{"url":"https://x/y.png"}}]})");
}

TEST(ProviderItems, AnthropicRendersEachKindAndEndsWithTheLastBlock) {
  AnthropicMessage dev = RenderAnthropicMessage(*ParseJson(kDeveloper));
  EXPECT_TRUE(
      dev.bytes.starts_with(R"({"role":"user","content":[{"type":"text","text":"<permissions)"));
  EXPECT_TRUE(RenderAnthropicMessage(*ParseJson(kReasoning)).dropped);
  EXPECT_EQ(
      RenderAnthropicMessage(*ParseJson(kCallA)).bytes,
      R"({"role":"assistant","content":[{"type":"tool_use","id":"call_a","name":"read_file","input":{"path":"a.txt"}}]})");
  // Arguments that are not a JSON object are kept, wrapped.
  EXPECT_NE(
      RenderAnthropicMessage(*ParseJson(kCallB)).bytes.find(R"("input":{"arguments":"not json"})"),
      std::string::npos);
  EXPECT_EQ(
      RenderAnthropicMessage(*ParseJson(kOutA)).bytes,
      R"({"role":"user","content":[{"type":"tool_result","tool_use_id":"call_a","content":"L1: hi"}]})");
  const char* data_image =
      R"({"type":"message","role":"user","content":[{"type":"input_image","image_url":"data:image/png;base64,AAAA"}]})";
  EXPECT_EQ(
      RenderAnthropicMessage(*ParseJson(data_image)).bytes,
      R"({"role":"user","content":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"AAAA"}}]})");
  const char* empty =
      R"({"type":"message","role":"assistant","content":[{"type":"output_text","text":""}]})";
  EXPECT_TRUE(RenderAnthropicMessage(*ParseJson(empty)).dropped);
  for (const char* item : {kDeveloper, kEnv, kUser, kCallA, kOutA, kReply}) {
    EXPECT_TRUE(RenderAnthropicMessage(*ParseJson(item)).bytes.ends_with("}]}")) << item;
  }
}

TEST(ProviderItems, ToolsConvert) {
  EXPECT_EQ(
      ChatToolsJson(kTools),
      R"([{"type":"function","function":{"name":"read_file","description":"Reads.","parameters":{"properties":{},"type":"object"}}}])");
  EXPECT_EQ(ChatToolsJson("[]"), "");
  EXPECT_EQ(ChatToolsJson("not json"), "");
  auto tools = AnthropicToolsJson(kTools);
  ASSERT_EQ(tools.size(), 1u);
  EXPECT_EQ(
      tools[0],
      R"({"name":"read_file","description":"Reads.","input_schema":{"properties":{},"type":"object"}})");
}

TEST(ChatBody, GrowsByExtensionAndGroupsCallsIntoOneAssistantMessage) {
  History h{{kDeveloper, kEnv, kUser}};
  ChatBodyBuilder builder;
  PromptSegments segments;
  std::string first(builder.Build(Params(), h.Segments(), &segments));
  EXPECT_TRUE(first.starts_with(
      R"({"model":"m-1","messages":[{"role":"system","content":"Be brief."},{"role":"developer",)"));
  EXPECT_TRUE(
      first.ends_with(R"(,"tool_choice":"auto","parallel_tool_calls":true,"stream":true,)"
                      R"("stream_options":{"include_usage":true},"prompt_cache_key":"k"})"));
  EXPECT_EQ(segments.items.size(), 3u);
  EXPECT_EQ(segments.instructions_bytes, R"({"role":"system","content":"Be brief."})");

  for (const char* item : {kReasoning, kCallA, kCallB, kOutA, kOutB}) h.bytes.push_back(item);
  std::string second(builder.Build(Params(), h.Segments(), &segments));
  EXPECT_TRUE(second.starts_with(StablePart(first, "\"messages\":[")));
  EXPECT_NE(second.find(R"({"role":"assistant","content":null,"tool_calls":[{"id":"call_a")"),
            std::string::npos);
  EXPECT_NE(second.find(R"(},{"id":"call_b","type":"function")"), std::string::npos);
  EXPECT_EQ(second.find("reasoning"), std::string::npos);  // dropped in rendering
  EXPECT_EQ(segments.items.size(), 6u);  // 3 + one assistant message + two tool messages

  h.bytes.push_back(kReply);
  h.bytes.push_back(kUser);
  std::string third(builder.Build(Params(), h.Segments(), &segments));
  EXPECT_TRUE(third.starts_with(StablePart(second, "\"messages\":[")));
  EXPECT_NE(third.find(R"({"role":"assistant","content":"Done."})"), std::string::npos);
}

TEST(ChatBody, OmitsAnEmptyToolsArrayAndMapsOptions) {
  BodyParams p = Params();
  p.tools_bytes = "[]";
  p.instructions = "";
  p.reasoning_effort = "high";
  p.max_output_tokens = 100;
  p.verbosity = "low";
  ChatBodyBuilder builder;
  std::string body(builder.Build(p, History{{kUser}}.Segments(), nullptr));
  EXPECT_EQ(body,
            R"({"model":"m-1","messages":[{"role":"user","content":"read a.txt"}],)"
            R"("reasoning_effort":"high","max_completion_tokens":100,"stream":true,)"
            R"("stream_options":{"include_usage":true},"prompt_cache_key":"k","verbosity":"low"})");
}

TEST(ChatBody, DeveloperRoleSystemRenamesOnlyTheRoleAndStaysByteStable) {
  History h{{kDeveloper, kEnv, kUser}};
  BodyParams p = Params();
  p.tools_bytes = "[]";
  p.chat_developer_role = ChatDeveloperRole::kSystem;
  ChatBodyBuilder builder;
  PromptSegments segments;
  std::string first(builder.Build(p, h.Segments(), &segments));
  EXPECT_EQ(first,
            R"({"model":"m-1","messages":[{"role":"system","content":"Be brief."},)"
            R"({"role":"system","content":"<permissions instructions>\nbe careful\n</permissions )"
            R"(instructions>"},{"role":"user","content":"<environment_context>\n  <cwd>/repo</cwd>)"
            R"(\n</environment_context>"},{"role":"user","content":"read a.txt"}],"stream":true,)"
            R"("stream_options":{"include_usage":true},"prompt_cache_key":"k"})");
  EXPECT_EQ(segments.items[0].bytes.substr(0, 17), R"({"role":"system",)");
  // A later developer message (a model switch, a permissions change) is renamed the same way,
  // and the first body stays a prefix of the second.
  h.bytes.push_back(kReply);
  h.bytes.push_back(kDeveloper);
  std::string second(builder.Build(p, h.Segments(), &segments));
  EXPECT_TRUE(second.starts_with(StablePart(first, "\"messages\":[")));
  EXPECT_EQ(second.find("\"developer\""), std::string::npos);
  // The default keeps `developer`.
  p.chat_developer_role = ChatDeveloperRole::kDeveloper;
  ChatBodyBuilder plain;
  EXPECT_NE(std::string(plain.Build(p, h.Segments(), nullptr)).find(R"({"role":"developer",)"),
            std::string::npos);
}

TEST(AnthropicBody, MarksAtMostFourBoundariesAndNeverChangesContent) {
  History h{{kDeveloper, kEnv, kUser}};
  AnthropicBodyBuilder builder;
  AnthropicCacheOptions cache;
  cache.min_cacheable_tokens = 1;  // every boundary qualifies
  cache.stable_ttl = CacheTtl::k1h;
  PromptSegments segments;
  std::string body(builder.Build(Params(), h.Segments(), cache, &segments));
  EXPECT_TRUE(body.starts_with(R"({"model":"m-1","max_tokens":8192,"tools":[{"name":"read_file")"));
  EXPECT_TRUE(body.ends_with(R"(],"stream":true})"));
  EXPECT_EQ(builder.plan().placed(), 4u);
  std::size_t marks = 0;
  for (std::size_t at = body.find("cache_control"); at != std::string::npos;
       at = body.find("cache_control", at + 1)) {
    ++marks;
  }
  EXPECT_EQ(marks, 4u);
  // 1 h marks (tools, system, context) come before the 5 min one (newest).
  std::size_t last_1h = body.rfind(R"("ttl":"1h")");
  std::size_t plain = body.find(R"("cache_control":{"type":"ephemeral"})");
  ASSERT_NE(plain, std::string::npos);
  EXPECT_LT(last_1h, plain);
  auto parsed = ParseJson(body);
  ASSERT_TRUE(parsed.has_value()) << body;
  // The explainer sees unmarked bytes.
  for (const auto& item : segments.items) {
    EXPECT_EQ(std::string(item.bytes).find("cache_control"), std::string::npos);
  }
  EXPECT_EQ(segments.instructions_bytes, R"([{"type":"text","text":"Be brief."}])");

  // The next request keeps the context mark and moves the newest one.
  for (const char* item : {kCallA, kOutA}) h.bytes.push_back(item);
  std::string next(builder.Build(Params(), h.Segments(), cache, &segments));
  const PlannedBreakpoint* newest = builder.plan().Find(BreakpointAt::kNewest);
  ASSERT_NE(newest, nullptr);
  EXPECT_EQ(newest->message_index, 4u);
  EXPECT_EQ(builder.plan().Find(BreakpointAt::kContext)->message_index, 1u);
}

TEST(AnthropicBody, CompactionTurnsToolChoiceOffAndMaxTokensFollowsTheConfig) {
  BodyParams p = Params();
  p.compaction = true;
  p.max_output_tokens = 512;
  AnthropicBodyBuilder builder;
  std::string body(builder.Build(p, History{{kUser}}.Segments(), AnthropicCacheOptions{}, nullptr));
  EXPECT_TRUE(body.starts_with(R"({"model":"m-1","max_tokens":512,)"));
  EXPECT_TRUE(body.ends_with(R"(],"tool_choice":{"type":"none"},"stream":true})"));
  EXPECT_EQ(builder.plan().placed(), 0u);  // a tiny prompt is under the 1024-token minimum
}

}  // namespace
}  // namespace agentctx
