// SPDX-License-Identifier: MIT
#include "prompt/for_prompt.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "protocol/json_codec.h"

namespace agentctx {
namespace {

RecordedItem R(const std::string& raw) {
  auto v = ParseJson(raw);
  EXPECT_TRUE(v.has_value()) << raw;
  auto item = CanonicalizeItem(*v, nullptr);
  EXPECT_TRUE(item.has_value()) << raw;
  return MakeRecordedItem(*item, "turn-1", "model");
}

RecordedItem Call(const std::string& id) {
  return R(R"({"type":"function_call","name":"f","arguments":"{}","call_id":")" + id + "\"}");
}
RecordedItem Out(const std::string& id, const std::string& output = "ok") {
  return R(R"({"type":"function_call_output","call_id":")" + id + R"(","output":")" + output +
           "\"}");
}

std::string Body(const std::vector<RecordedItem>& history, bool images = true) {
  PromptItemCache cache;
  std::string out;
  AppendPromptItemsJson(&out, ForPrompt(history, images, &cache));
  return out;
}

const std::string kCallA = R"({"type":"function_call","name":"f","arguments":"{}","call_id":"a"})";
const std::string kCallB = R"({"type":"function_call","name":"f","arguments":"{}","call_id":"b"})";
const std::string kAbortA = R"({"type":"function_call_output","call_id":"a","output":"aborted"})";
const std::string kOutB = R"({"type":"function_call_output","call_id":"b","output":"ok"})";

// for_prompt of [call a] / [call a, call b, output b] / [output x].
TEST(ForPrompt, UnansweredCallGetsAbortedRightAfterIt) {
  EXPECT_EQ(Body({Call("a")}), "[" + kCallA + "," + kAbortA + "]");
}

TEST(ForPrompt, AbortedIsInsertedBeforeLaterCalls) {
  EXPECT_EQ(Body({Call("a"), Call("b"), Out("b")}),
            "[" + kCallA + "," + kAbortA + "," + kCallB + "," + kOutB + "]");
}

TEST(ForPrompt, OrphanOutputIsRemoved) {
  EXPECT_EQ(Body({Out("x")}), "[]");
  // An output before its call is an orphan too; the call then has no later output.
  EXPECT_EQ(Body({Out("a"), Call("a")}), "[" + kCallA + "," + kAbortA + "]");
}

TEST(ForPrompt, EmptyHistory) { EXPECT_EQ(Body({}), "[]"); }

TEST(ForPrompt, TypesMustMatch) {
  RecordedItem custom_call =
      R(R"({"type":"custom_tool_call","call_id":"a","name":"apply","input":"x"})");
  RecordedItem fn_out = Out("a");
  std::string body = Body({custom_call, fn_out});
  EXPECT_EQ(body, "[" + custom_call.bytes +
                      R"(,{"type":"custom_tool_call_output","call_id":"a","output":"aborted"}])");
}

TEST(ForPrompt, ViewPointsAtRecordedBytesAndCachesSynthetics) {
  std::vector<RecordedItem> history = {R(R"({"type":"message","role":"user","content":"hi"})"),
                                       Call("a"), Call("b"), Out("b")};
  PromptItemCache cache;
  std::vector<PromptItem> first = ForPrompt(history, true, &cache);
  ASSERT_EQ(first.size(), 5u);
  EXPECT_EQ(first[0].bytes, &history[0].bytes);  // no copy, no re-serialisation
  EXPECT_EQ(first[1].bytes, &history[1].bytes);
  EXPECT_TRUE(first[2].synthetic);
  EXPECT_EQ(first[2].history_index, 1u);
  EXPECT_EQ(first[4].bytes, &history[3].bytes);
  EXPECT_EQ(cache.serialized_count(), 1u);
  // A 2nd request reuses the cached synthetic item: nothing new is serialised.
  std::vector<PromptItem> second = ForPrompt(history, true, &cache);
  EXPECT_EQ(second[2].bytes, first[2].bytes);
  EXPECT_EQ(cache.serialized_count(), 1u);
  // Once answered, the synthetic output disappears and the real one follows later.
  history.push_back(Out("a", "late"));
  std::vector<PromptItem> third = ForPrompt(history, true, &cache);
  ASSERT_EQ(third.size(), 5u);
  EXPECT_FALSE(third[2].synthetic);
  EXPECT_EQ(*third[4].bytes, history[4].bytes);
}

TEST(ForPrompt, ImagesReplacedWhenUnsupported) {
  std::vector<RecordedItem> history = {
      R(R"({"type":"message","role":"user","content":[{"type":"input_text","text":"see"},)"
        R"({"type":"input_image","image_url":"data:image/png;base64,AA"}]})"),
      Call("a"),
      R(R"({"type":"function_call_output","call_id":"a","output":[{"type":"input_image","image_url":"u"}]})")};
  EXPECT_EQ(Body(history, true),
            "[" + history[0].bytes + "," + history[1].bytes + "," + history[2].bytes + "]");
  PromptItemCache cache;
  std::vector<PromptItem> view = ForPrompt(history, false, &cache);
  ASSERT_EQ(view.size(), 3u);
  EXPECT_EQ(
      *view[0].bytes,
      R"({"type":"message","role":"user","content":[{"type":"input_text","text":"see"},)"
      R"({"type":"input_text","text":"image content omitted because you do not support image input"}]})");
  EXPECT_EQ(
      *view[2].bytes,
      R"({"type":"function_call_output","call_id":"a","output":[{"type":"input_text","text":"image content omitted because you do not support image input"}]})");
  EXPECT_EQ(view[1].bytes, &history[1].bytes);
  EXPECT_EQ(cache.serialized_count(), 2u);
  ForPrompt(history, false, &cache);
  EXPECT_EQ(cache.serialized_count(), 2u);
  // The history itself is untouched.
  EXPECT_NE(history[0].bytes.find("input_image"), std::string::npos);
}

}  // namespace
}  // namespace agentctx
