// SPDX-License-Identifier: MIT
#include "tools/output_truncation.h"

#include <gtest/gtest.h>

#include <string>

#include "protocol/json_codec.h"

namespace agentctx {
namespace {

const std::string kEllipsis = "\xE2\x80\xA6";

JsonValue J(const std::string& text) {
  auto v = ParseJson(text);
  EXPECT_TRUE(v.has_value()) << text;
  return v.has_value() ? *v : JsonValue();
}

TEST(OutputTruncation, BudgetIsCeilOfLimitTimesOnePointTwo) {
  EXPECT_EQ(TruncationBudget({TruncationMode::kBytes, 10000}), 12000u);
  EXPECT_EQ(TruncationBudget({TruncationMode::kBytes, 1}), 2u);
  EXPECT_EQ(TruncationBudget({TruncationMode::kBytes, 5}), 6u);
  EXPECT_EQ(TruncationBudget({TruncationMode::kBytes, 0}), 0u);
  EXPECT_EQ(TruncationBudgetBytes({TruncationMode::kTokens, 10}), 48u);
  EXPECT_GT(TruncationBudgetBytes({TruncationMode::kTokens, UINT64_MAX}), 0u);  // saturates
  TruncationPolicy defaults;
  EXPECT_EQ(defaults.mode, TruncationMode::kBytes);
  EXPECT_EQ(defaults.limit, 10000u);
}

// 13 000 × `a`, policy bytes 10000.
TEST(OutputTruncation, BytesPolicyVector) {
  std::string out = TruncateToolText(std::string(13000, 'a'), {TruncationMode::kBytes, 10000});
  EXPECT_EQ(out, std::string(6000, 'a') + kEllipsis + "1000 chars truncated" + kEllipsis +
                     std::string(6000, 'a'));
  EXPECT_EQ(TruncateToolText(std::string(12000, 'a'), {}), std::string(12000, 'a'));
}

// 100 × `x`, policy tokens 10.
TEST(OutputTruncation, TokensPolicyVector) {
  std::string out = TruncateToolText(std::string(100, 'x'), {TruncationMode::kTokens, 10});
  EXPECT_EQ(out, std::string(24, 'x') + kEllipsis + "13 tokens truncated" + kEllipsis +
                     std::string(24, 'x'));
}

TEST(OutputTruncation, StringOutputValue) {
  JsonValue out = TruncateToolOutput(JsonValue::String("abcdef"), {TruncationMode::kBytes, 1});
  EXPECT_EQ(out.string_value(), "a" + kEllipsis + "4 chars truncated" + kEllipsis + "f");
  EXPECT_EQ(ToJson(TruncateToolOutput(J("5"), {})), "5");
}

TEST(OutputTruncation, PartsRunningBudgetCutsCrossingPartAndOmitsLater) {
  // bytes limit 10 → budget 12: 10 fit, the next part is cut to 2 bytes, the rest omitted.
  JsonValue parts = J(R"([{"type":"input_text","text":"0123456789"},)"
                      R"({"type":"input_image","image_url":"data:a"},)"
                      R"({"type":"input_text","text":"abcdefghij"},)"
                      R"({"type":"input_text","text":"dropped"},)"
                      R"({"type":"input_image","image_url":"data:b"},)"
                      R"({"type":"input_text","text":"dropped too"}])");
  JsonValue out = TruncateToolOutput(parts, {TruncationMode::kBytes, 10});
  EXPECT_EQ(ToJson(out), R"([{"type":"input_text","text":"0123456789"},)"
                         R"({"type":"input_image","image_url":"data:a"},)"
                         R"({"type":"input_text","text":"a)" +
                             kEllipsis + "8 chars truncated" + kEllipsis +
                             R"(j"},{"type":"input_image","image_url":"data:b"},)"
                             R"({"type":"input_text","text":"[omitted 2 text items ...]"}])");
}

TEST(OutputTruncation, PartsExactFitThenOmitted) {
  JsonValue parts = J(R"([{"type":"input_text","text":"012345678901"},)"
                      R"({"type":"input_text","text":"x"}])");
  JsonValue out = TruncateToolOutput(parts, {TruncationMode::kBytes, 10});
  EXPECT_EQ(ToJson(out), R"([{"type":"input_text","text":"012345678901"},)"
                         R"({"type":"input_text","text":"[omitted 1 text items ...]"}])");
}

TEST(OutputTruncation, PartsTokensModeCostsCeilBytesOverFour) {
  // tokens limit 2 → budget 3 tokens; "abcde" costs 2, "fghijklm" crosses with 1 token left.
  JsonValue parts = J(R"([{"type":"input_text","text":"abcde"},)"
                      R"({"type":"input_text","text":"fghijklm"}])");
  JsonValue out = TruncateToolOutput(parts, {TruncationMode::kTokens, 2});
  EXPECT_EQ(ToJson(out),
            R"([{"type":"input_text","text":"abcde"},{"type":"input_text","text":"fg)" + kEllipsis +
                "1 tokens truncated" + kEllipsis + R"(lm"}])");
}

TEST(OutputTruncation, PartsWithinBudgetUnchanged) {
  JsonValue parts =
      J(R"([{"type":"input_text","text":"a"},{"type":"input_image","image_url":"u"}])");
  EXPECT_EQ(TruncateToolOutput(parts, {}), parts);
}

TEST(OutputTruncation, ZeroBudgetOmitsEveryTextPart) {
  JsonValue parts =
      J(R"([{"type":"input_text","text":"a"},{"type":"input_image","image_url":"u"}])");
  EXPECT_EQ(ToJson(TruncateToolOutput(parts, {TruncationMode::kBytes, 0})),
            R"([{"type":"input_image","image_url":"u"},)"
            R"({"type":"input_text","text":"[omitted 1 text items ...]"}])");
}

}  // namespace
}  // namespace agentctx
