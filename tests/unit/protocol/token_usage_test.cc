// SPDX-License-Identifier: MIT
#include "protocol/token_usage.h"

#include <gtest/gtest.h>

#include <string>

#include "protocol/json_codec.h"

namespace agentctx {
namespace {

JsonValue J(const std::string& text) {
  auto v = ParseJson(text);
  EXPECT_TRUE(v.has_value()) << text;
  return v.has_value() ? *v : JsonValue();
}

TEST(TokenUsage, FullUsage) {
  auto u = ParseTokenUsage(
      J(R"({"type":"response.completed","response":{"id":"resp_1","usage":{"input_tokens":176,)"
        R"("input_tokens_details":{"cached_tokens":128},"output_tokens":30,)"
        R"("output_tokens_details":{"reasoning_tokens":10},"total_tokens":206}}})"));
  ASSERT_TRUE(u.has_value());
  EXPECT_EQ(u->input_tokens, 176);
  EXPECT_EQ(u->cached_tokens, 128);
  EXPECT_EQ(u->output_tokens, 30);
  EXPECT_EQ(u->reasoning_tokens, 10);
  EXPECT_EQ(u->total_tokens, 206);
}

// Completed without input_tokens_details → cached_tokens 0.
TEST(TokenUsage, MissingDetailsAndTotal) {
  auto u = ParseTokenUsage(J(
      R"({"type":"response.completed","response":{"usage":{"input_tokens":1000,"output_tokens":200}}})"));
  ASSERT_TRUE(u.has_value());
  EXPECT_EQ(u->cached_tokens, 0);
  EXPECT_EQ(u->reasoning_tokens, 0);
  EXPECT_EQ(u->total_tokens, 1200);
}

TEST(TokenUsage, NoUsage) {
  EXPECT_FALSE(ParseTokenUsage(J(R"({"type":"response.completed","response":{"id":"r"}})")));
  EXPECT_FALSE(ParseTokenUsage(J(R"({"type":"response.completed"})")));
  EXPECT_FALSE(ParseTokenUsage(J(R"({"response":{"usage":5}})")));
}

TEST(TokenUsage, BareUsageObject) {
  auto u = ParseTokenUsage(J(R"({"input_tokens":5,"output_tokens":"x"})"));
  ASSERT_TRUE(u.has_value());
  EXPECT_EQ(u->input_tokens, 5);
  EXPECT_EQ(u->output_tokens, 0);
  EXPECT_EQ(u->total_tokens, 5);
}

}  // namespace
}  // namespace agentctx
