// SPDX-License-Identifier: MIT
// Token accounting vectors: thresholds, context tokens, encrypted and image estimates.
#include "compaction/token_accounting.h"

#include <gtest/gtest.h>

#include <string>

#include "protocol/json_codec.h"

namespace agentctx {
namespace {

RecordedItem Item(const std::string& json) {
  return MakeRecordedItem(*ParseJson(json), "turn-1", "user");
}

// A user message whose canonical bytes are exactly `size` bytes long.
RecordedItem MessageOfSize(std::size_t size) {
  std::string prefix =
      R"({"type":"message","role":"user","content":[{"type":"input_text","text":")";
  std::string suffix = R"("}]})";
  RecordedItem item =
      Item(prefix + std::string(size - prefix.size() - suffix.size(), 'x') + suffix);
  EXPECT_EQ(item.bytes.size(), size);
  return item;
}

TEST(TokenAccounting, WindowThresholds) {
  auto t = ComputeThresholds(272000, std::nullopt);
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(t->window, 272000u);
  EXPECT_EQ(t->usable, 258400u);
  EXPECT_EQ(t->auto_limit, 244800u);
}

TEST(TokenAccounting, ConfiguredLimitIsCappedAtNinetyPercent) {
  EXPECT_EQ(ComputeThresholds(272000, 200000)->auto_limit, 200000u);
  EXPECT_EQ(ComputeThresholds(272000, 300000)->auto_limit, 244800u);
}

TEST(TokenAccounting, NoWindowMeansNoThresholds) {
  EXPECT_FALSE(ComputeThresholds(std::nullopt, 1000).has_value());
  EXPECT_FALSE(ComputeThresholds(0, std::nullopt).has_value());
  EXPECT_FALSE(ComputeThresholds(-5, std::nullopt).has_value());
  // A non-positive configured limit is ignored.
  EXPECT_EQ(ComputeThresholds(1000, 0)->auto_limit, 900u);
}

TEST(TokenAccounting, LimitReachedAtAutoLimitOrUsable) {
  auto t = *ComputeThresholds(272000, std::nullopt);
  EXPECT_FALSE(LimitReached(244799, t));
  EXPECT_TRUE(LimitReached(244800, t));
  // With a configured limit above 90 % it is capped; usable always applies.
  CompactionThresholds odd{1000, 950, 2000};
  EXPECT_FALSE(LimitReached(949, odd));
  EXPECT_TRUE(LimitReached(950, odd));
}

TEST(TokenAccounting, ContextTokensFromUsagePlusLaterItems) {
  std::vector<RecordedItem> history;
  history.push_back(MessageOfSize(100));  // before the usage: not counted
  history.push_back(MessageOfSize(400));
  history.push_back(MessageOfSize(401));
  std::uint64_t later = EstimateHistorySince(history, 1);
  EXPECT_EQ(later, 100u + 101u);
  EXPECT_EQ(ContextTokensFromUsage(1000, 200, later), 1401u);
}

TEST(TokenAccounting, EncryptedReasoningEstimate) {
  RecordedItem a = Item(R"({"type":"reasoning","summary":[],"encrypted_content":")" +
                        std::string(2000, 'e') + R"("})");
  RecordedItem b = Item(R"({"type":"reasoning","summary":[],"encrypted_content":")" +
                        std::string(800, 'e') + R"("})");
  EXPECT_EQ(ItemEstimateTokens(a), 213u);
  EXPECT_EQ(ItemEstimateTokens(b), 0u);
  EXPECT_EQ(EncryptedContentEstimateBytes(2000), 850u);
  EXPECT_EQ(EncryptedContentEstimateBytes(867), 0u);  // floor(650.25) = 650
  EXPECT_EQ(EncryptedContentEstimateBytes(868), 1u);
  // Without encrypted_content a reasoning item counts its bytes.
  RecordedItem plain = Item(R"({"type":"reasoning","summary":[]})");
  EXPECT_EQ(ItemEstimateTokens(plain), (plain.bytes.size() + 3) / 4);
}

TEST(TokenAccounting, CompactionItemUsesTheEncryptedEstimate) {
  RecordedItem c =
      Item(R"({"type":"compaction","encrypted_content":")" + std::string(2000, 'c') + R"("})");
  EXPECT_EQ(ItemEstimateTokens(c), 213u);
}

TEST(TokenAccounting, InlineImagesCount7373BytesEach) {
  std::string url = "data:image/png;base64," + std::string(100000, 'A');
  RecordedItem m =
      Item(R"({"type":"message","role":"user","content":[{"type":"input_text","text":"look"},)"
           R"({"type":"input_image","image_url":")" +
           url + R"("},{"type":"input_image","image_url":"https://example.com/x.png"}]})");
  std::uint64_t expected = m.bytes.size() - url.size() + kInlineImageEstimateBytes;
  EXPECT_EQ(ItemEstimateBytes(&m.json, m.bytes), expected);
  EXPECT_EQ(ItemEstimateTokens(m), (expected + 3) / 4);
  // Tool outputs with parts too; the scheme is case-insensitive.
  std::string url2 = "DATA:image/jpeg;base64,QUJD";
  RecordedItem out = Item(R"({"type":"function_call_output","call_id":"c1","output":[)"
                          R"({"type":"input_image","image_url":")" +
                          url2 + R"("}]})");
  EXPECT_EQ(ItemEstimateBytes(&out.json, out.bytes),
            out.bytes.size() - url2.size() + kInlineImageEstimateBytes);
  // Unknown shape: plain bytes.
  EXPECT_EQ(ItemEstimateBytes(nullptr, out.bytes), out.bytes.size());
}

TEST(TokenAccounting, EstimatePromptRoundsInstructionsToolsAndEachItem) {
  RecordedItem a = MessageOfSize(401);
  RecordedItem b = MessageOfSize(401);
  std::vector<EstimateItem> items = {{&a.json, a.bytes}, {&b.json, b.bytes}};
  // ceil((5 + 2) / 4) = 2, then 101 + 101.
  EXPECT_EQ(EstimatePrompt("\"abc\"", "[]", items), 2u + 202u);
  EXPECT_EQ(EstimatePrompt("", "", {}), 0u);
}

}  // namespace
}  // namespace agentctx
