// SPDX-License-Identifier: MIT
#include "prompt/prompt_bytes.h"

#include <gtest/gtest.h>

#include <string>

#include "protocol/json_codec.h"
#include "support/spec_bodies.h"

namespace agentctx {
namespace {

using testing::kSpecExampleBody;

TEST(PromptBytes, CacheableRow) {
  EXPECT_EQ(Cacheable(0), 0u);
  EXPECT_EQ(Cacheable(1023), 0u);
  EXPECT_EQ(Cacheable(1024), 1024u);
  EXPECT_EQ(Cacheable(1151), 1024u);
  EXPECT_EQ(Cacheable(1152), 1152u);
  EXPECT_EQ(Cacheable(5000), 4992u);
}

TEST(PromptBytes, TokensRoundUp) {
  EXPECT_EQ(TokensForBytes(0), 0u);
  EXPECT_EQ(TokensForBytes(1), 1u);
  EXPECT_EQ(TokensForBytes(4), 1u);
  EXPECT_EQ(TokensForBytes(5), 2u);
  EXPECT_EQ(TokensForBytes(702), 176u);
}

TEST(PromptBytes, SpecExampleBodyIs702Bytes) {
  ASSERT_EQ(kSpecExampleBody.size(), 916u);
  auto p = PromptBytesFromBodyBytes(kSpecExampleBody);
  ASSERT_TRUE(p.has_value()) << p.error().message;
  EXPECT_EQ(p->instructions, R"("You are a helpful coding agent.")");
  EXPECT_EQ(p->tools, "[]");
  ASSERT_EQ(p->items.size(), 3u);
  EXPECT_EQ(p->size(), 702u);
  EXPECT_EQ(TokensForBytes(p->size()), 176u);
  // Every item segment is a verbatim slice of the canonical body.
  for (const std::string& item : p->items) {
    EXPECT_NE(kSpecExampleBody.find(item), std::string_view::npos) << item;
  }
  EXPECT_EQ(p->items[2],
            R"({"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]})");
  std::string concat = p->Concat();
  EXPECT_EQ(concat.size(), 702u);
  EXPECT_EQ(concat.substr(0, 35), R"("You are a helpful coding agent."[])");
}

TEST(PromptBytes, SegmentAtFindsInstructionsToolsAndItems) {
  auto p = PromptBytesFromBodyBytes(kSpecExampleBody);
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->SegmentAt(0).kind, PromptSegmentRef::Kind::kInstructions);
  EXPECT_EQ(p->SegmentAt(32).kind, PromptSegmentRef::Kind::kInstructions);
  EXPECT_EQ(p->SegmentAt(33).kind, PromptSegmentRef::Kind::kTools);
  EXPECT_EQ(p->SegmentAt(35).kind, PromptSegmentRef::Kind::kItem);
  EXPECT_EQ(p->SegmentAt(35).item_index, 0u);
  EXPECT_EQ(p->SegmentAt(35 + 425).item_index, 1u);
  EXPECT_EQ(p->SegmentAt(701).item_index, 2u);
  EXPECT_EQ(p->SegmentAt(702).kind, PromptSegmentRef::Kind::kEnd);
}

TEST(PromptBytes, OmittedInstructionsAndToolsAreEmpty) {
  auto p = PromptBytesFromBodyBytes(R"({"model":"m","input":[{"type":"message"}]})");
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->instructions, "");
  EXPECT_EQ(p->tools, "");
  EXPECT_EQ(p->Concat(), R"({"type":"message"})");
  auto empty = PromptBytesFromBodyBytes("{}");
  ASSERT_TRUE(empty.has_value());
  EXPECT_EQ(empty->size(), 0u);
  EXPECT_EQ(empty->SegmentAt(0).kind, PromptSegmentRef::Kind::kEnd);
}

TEST(PromptBytes, InstructionsAreEscapedLikeTheBody) {
  auto p = PromptBytesFromBodyBytes(R"({"instructions":"a\u001f/\u00e9\n","tools":[ {"a" : 1} ]})");
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->instructions, "\"a\\u001f/\xC3\xA9\\n\"");
  EXPECT_EQ(p->tools, R"([{"a":1}])");
}

TEST(PromptBytes, BadBodiesAreErrors) {
  auto bad_json = PromptBytesFromBodyBytes("{oops");
  ASSERT_FALSE(bad_json.has_value());
  EXPECT_EQ(bad_json.error().code, ErrorCode::kInvalidJson);
  for (std::string_view body :
       {R"([])", R"({"instructions":1})", R"({"tools":{}})", R"({"input":"hi"})"}) {
    auto r = PromptBytesFromBodyBytes(body);
    ASSERT_FALSE(r.has_value()) << body;
    EXPECT_EQ(r.error().code, ErrorCode::kInvalidInput) << body;
  }
}

TEST(PromptBytes, CommonPrefixLength) {
  EXPECT_EQ(CommonPrefixLength("", "abc"), 0u);
  EXPECT_EQ(CommonPrefixLength("abc", "abd"), 2u);
  EXPECT_EQ(CommonPrefixLength("abc", "abcdef"), 3u);
}

}  // namespace
}  // namespace agentctx
