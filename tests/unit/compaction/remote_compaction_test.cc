// SPDX-License-Identifier: MIT
// Remote compaction keep rules and input trimming.
#include "compaction/remote_compaction.h"

#include <gtest/gtest.h>

#include "protocol/items.h"
#include "protocol/json_codec.h"

namespace agentctx {
namespace {

TEST(RemoteCompaction, KeepsRealUserAssistantAndCompactionItems) {
  std::string body =
      R"({"output":[)"
      R"({"type":"message","role":"developer","content":[{"type":"input_text","text":"<permissions instructions>\n</permissions instructions>"}]},)"
      R"({"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>\n</environment_context>"}]},)"
      R"({"type":"message","role":"user","content":[{"type":"input_text","text":"USER_ONE"}]},)"
      R"({"type":"reasoning","summary":[],"encrypted_content":"x"},)"
      R"({"type":"function_call","name":"f","arguments":"{}","call_id":"c"},)"
      R"({"type":"function_call_output","call_id":"c","output":"o"},)"
      R"({"type":"message","role":"assistant","content":[{"type":"output_text","text":"A"}]},)"
      R"({"type":"compaction_summary","encrypted_content":"ENC","extra":1}]})";
  std::vector<Warning> warnings;
  auto kept = ParseRemoteCompactionOutput(body, &warnings);
  ASSERT_TRUE(kept.has_value());
  ASSERT_EQ(kept->size(), 3u);
  EXPECT_EQ(
      ToJson((*kept)[0]),
      R"({"type":"message","role":"user","content":[{"type":"input_text","text":"USER_ONE"}]})");
  EXPECT_EQ(ItemType((*kept)[1]), "message");
  EXPECT_EQ(ToJson((*kept)[2]), R"({"type":"compaction","encrypted_content":"ENC"})");
  EXPECT_TRUE(warnings.empty());
}

TEST(RemoteCompaction, ManualVectorOutputIsJustTheCompactionItem) {
  std::vector<Warning> warnings;
  auto kept = ParseRemoteCompactionOutput(
      R"({"output":[{"type":"compaction","encrypted_content":"mockcmp_1"}]})", &warnings);
  ASSERT_TRUE(kept.has_value());
  ASSERT_EQ(kept->size(), 1u);
  EXPECT_EQ(ToJson((*kept)[0]), R"({"type":"compaction","encrypted_content":"mockcmp_1"})");
}

TEST(RemoteCompaction, BadBodiesAreErrors) {
  std::vector<Warning> warnings;
  auto bad_json = ParseRemoteCompactionOutput("{oops", &warnings);
  ASSERT_FALSE(bad_json.has_value());
  EXPECT_EQ(bad_json.error().code, ErrorCode::kInvalidJson);
  auto no_output = ParseRemoteCompactionOutput(R"({"items":[]})", &warnings);
  ASSERT_FALSE(no_output.has_value());
  EXPECT_EQ(no_output.error().code, ErrorCode::kInvalidInput);
  auto unknown =
      ParseRemoteCompactionOutput(R"({"output":[{"type":"web_search_call"}]})", &warnings);
  ASSERT_TRUE(unknown.has_value());
  EXPECT_TRUE(unknown->empty());
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(ToWire(warnings[0].code), "unsupported_item");
}

struct Owned {
  std::vector<RecordedItem> items;
  std::vector<EstimateItem> View() const {
    std::vector<EstimateItem> v;
    for (const auto& i : items) v.push_back({&i.json, i.bytes});
    return v;
  }
};

TEST(RemoteCompaction, TrimsToolOutputsFromTheEndUntilUnderUsable) {
  Owned o;
  o.items.push_back(MakeRecordedItem(InputMessage("user", {"go"}), "t", "user"));
  o.items.push_back(
      MakeRecordedItem(FunctionCallOutputItem("c1", std::string(4000, 'a')), "t", "tool"));
  o.items.push_back(
      MakeRecordedItem(FunctionCallOutputItem("c2", std::string(4000, 'b')), "t", "tool"));
  o.items.push_back(MakeRecordedItem(CustomToolCallOutputItem("c3", "ok"), "t", "tool"));
  std::uint64_t full = EstimatePrompt("", "[]", o.View());
  // Enough room once one big output is replaced: only the last big one (c2) is.
  RemoteTrim trim = TrimRemoteInput("", "[]", o.View(), full - 900);
  EXPECT_EQ(trim.replaced_count, 1u);
  EXPECT_FALSE(trim.replaced[1].has_value());
  ASSERT_TRUE(trim.replaced[2].has_value());
  EXPECT_EQ(
      *trim.replaced[2],
      R"({"type":"function_call_output","call_id":"c2","output":"Output exceeded the available model context and was truncated"})");
  EXPECT_FALSE(trim.replaced[3].has_value());  // `ok` is shorter than the replacement
  EXPECT_LE(trim.estimate, full - 900);
  // Already small enough: nothing changes.
  RemoteTrim none = TrimRemoteInput("", "[]", o.View(), full);
  EXPECT_EQ(none.replaced_count, 0u);
  EXPECT_EQ(none.estimate, full);
  // Impossible target: every big output replaced, still over.
  RemoteTrim all = TrimRemoteInput("", "[]", o.View(), 1);
  EXPECT_EQ(all.replaced_count, 2u);
  EXPECT_GT(all.estimate, 1u);
}

}  // namespace
}  // namespace agentctx
