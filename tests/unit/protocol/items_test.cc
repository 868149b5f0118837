// SPDX-License-Identifier: MIT
#include "protocol/items.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "protocol/json_codec.h"

namespace agentctx {
namespace {

JsonValue J(const std::string& text) {
  auto v = ParseJson(text);
  EXPECT_TRUE(v.has_value()) << text;
  return v.has_value() ? *v : JsonValue();
}

// Canonical bytes of `raw`, or "<dropped>".
std::string Canon(const std::string& raw, std::vector<Warning>* warnings = nullptr) {
  std::optional<JsonValue> item = CanonicalizeItem(J(raw), warnings);
  return item.has_value() ? ToJson(*item) : "<dropped>";
}

// Ids `rs_123` / `abc` / `_x` → kept / dropped / dropped.
TEST(Items, IdRule) {
  EXPECT_TRUE(IsKeptItemId("rs_123"));
  EXPECT_FALSE(IsKeptItemId("abc"));
  EXPECT_FALSE(IsKeptItemId("_x"));
  EXPECT_FALSE(IsKeptItemId("x_"));
  EXPECT_FALSE(IsKeptItemId("_"));
  EXPECT_FALSE(IsKeptItemId(""));
  EXPECT_TRUE(IsKeptItemId("a_b"));
  EXPECT_TRUE(IsKeptItemId("fc_abc_0"));
  EXPECT_TRUE(IsKeptItemId("___"));
  EXPECT_EQ(Canon(R"({"type":"reasoning","id":"rs_123","summary":[]})"),
            R"({"type":"reasoning","id":"rs_123","summary":[]})");
  EXPECT_EQ(Canon(R"({"type":"reasoning","id":"abc","summary":[]})"),
            R"({"type":"reasoning","summary":[]})");
  EXPECT_EQ(Canon(R"({"type":"reasoning","id":"_x","summary":[]})"),
            R"({"type":"reasoning","summary":[]})");
  EXPECT_EQ(Canon(R"({"type":"reasoning","id":5,"summary":[]})"),
            R"({"type":"reasoning","summary":[]})");
}

// String U+001F + `/é` serialises as "\u001f/é".
TEST(Items, EscapingInItemBytes) {
  RecordedItem item = MakeRecordedItem(InputMessage("user", {"\x1f/\xc3\xa9"}), "turn-1", "user");
  EXPECT_EQ(
      item.bytes,
      "{\"type\":\"message\",\"role\":\"user\",\"content\":[{\"type\":\"input_text\",\"text\":"
      "\"\\u001f/\xc3\xa9\"}]}");
  EXPECT_EQ(item.turn_id, "turn-1");
  EXPECT_EQ(item.origin, "user");
  EXPECT_EQ(item.bytes.find("turn-1"), std::string::npos);  // metadata is never in the bytes
}

TEST(Items, MessageKeyOrderAndDroppedFields) {
  EXPECT_EQ(
      Canon(R"({"content":[{"annotations":[],"text":"hi","type":"output_text","logprobs":[]}],)"
            R"("role":"assistant","status":"completed","id":"msg_1","type":"message"})"),
      R"({"type":"message","id":"msg_1","role":"assistant","content":[{"type":"output_text","text":"hi"}]})");
  EXPECT_EQ(
      Canon(R"({"type":"message","role":"user","content":[{"type":"input_image","detail":"high",)"
            R"("image_url":"data:x","extra":1},{"text":"t","type":"input_text"}]})"),
      R"({"type":"message","role":"user","content":[{"type":"input_image","image_url":"data:x","detail":"high"},{"type":"input_text","text":"t"}]})");
}

TEST(Items, MessageStringContentBecomesOnePart) {
  EXPECT_EQ(Canon(R"({"type":"message","role":"user","content":"hello"})"),
            R"({"type":"message","role":"user","content":[{"type":"input_text","text":"hello"}]})");
  EXPECT_EQ(
      Canon(R"({"type":"message","role":"assistant","content":"ok"})"),
      R"({"type":"message","role":"assistant","content":[{"type":"output_text","text":"ok"}]})");
  EXPECT_EQ(Canon(R"({"type":"message","role":"developer"})"),
            R"({"type":"message","role":"developer","content":[]})");
}

TEST(Items, SystemMessagesDroppedSilently) {
  std::vector<Warning> warnings;
  EXPECT_EQ(Canon(R"({"type":"message","role":"system","content":"x"})", &warnings), "<dropped>");
  EXPECT_TRUE(warnings.empty());
}

TEST(Items, UnknownTypesRolesAndPartsWarn) {
  std::vector<Warning> warnings;
  EXPECT_EQ(Canon(R"({"type":"web_search_call","id":"ws_1"})", &warnings), "<dropped>");
  EXPECT_EQ(Canon(R"({"type":"message","role":"tool","content":[]})", &warnings), "<dropped>");
  EXPECT_EQ(Canon(R"({"id":"x_1"})", &warnings), "<dropped>");
  EXPECT_EQ(Canon(R"([1])", &warnings), "<dropped>");
  EXPECT_EQ(
      Canon(R"({"type":"message","role":"assistant","content":[{"type":"refusal","refusal":"no"},)"
            R"({"type":"output_text","text":"a"}]})",
            &warnings),
      R"({"type":"message","role":"assistant","content":[{"type":"output_text","text":"a"}]})");
  ASSERT_EQ(warnings.size(), 5u);
  for (const Warning& w : warnings) EXPECT_EQ(ToWire(w.code), "unsupported_item");
  EXPECT_EQ(warnings[0].message, "unsupported item type `web_search_call` dropped");
}

TEST(Items, ReasoningKeyOrder) {
  EXPECT_EQ(
      Canon(
          R"({"encrypted_content":"enc","content":[{"type":"reasoning_text","text":"t"}],)"
          R"("summary":[{"text":"s","type":"summary_text"}],"id":"rs_1","type":"reasoning","status":null})"),
      R"({"type":"reasoning","id":"rs_1","summary":[{"type":"summary_text","text":"s"}],"content":[{"type":"reasoning_text","text":"t"}],"encrypted_content":"enc"})");
  EXPECT_EQ(Canon(R"({"type":"reasoning","content":null,"encrypted_content":null})"),
            R"({"type":"reasoning","summary":[]})");
}

TEST(Items, FunctionCallKeyOrderAndRequiredFields) {
  EXPECT_EQ(
      Canon(R"({"call_id":"call_1","arguments":"{\"path\":\"a\"}","name":"read_file",)"
            R"("id":"fc_1","type":"function_call","status":"completed"})"),
      R"({"type":"function_call","id":"fc_1","name":"read_file","arguments":"{\"path\":\"a\"}","call_id":"call_1"})");
  EXPECT_EQ(Canon(R"({"type":"function_call","name":"f","arguments":{"a":1},"call_id":"c"})"),
            R"({"type":"function_call","name":"f","arguments":"{\"a\":1}","call_id":"c"})");
  std::vector<Warning> warnings;
  EXPECT_EQ(Canon(R"({"type":"function_call","name":"f","arguments":"{}"})", &warnings),
            "<dropped>");
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].message, "function_call item without `call_id` dropped");
}

TEST(Items, FunctionCallOutputStringOrParts) {
  EXPECT_EQ(Canon(R"({"output":"ok","call_id":"c","type":"function_call_output","id":"x_1"})"),
            R"({"type":"function_call_output","call_id":"c","output":"ok"})");
  EXPECT_EQ(
      Canon(
          R"({"type":"function_call_output","call_id":"c","output":[{"text":"a","type":"input_text"},)"
          R"({"type":"input_image","image_url":"u"}]})"),
      R"({"type":"function_call_output","call_id":"c","output":[{"type":"input_text","text":"a"},{"type":"input_image","image_url":"u"}]})");
  // Legacy {"content","success"} payloads keep their content.
  EXPECT_EQ(
      Canon(
          R"({"type":"function_call_output","call_id":"c","output":{"content":"x","success":true}})"),
      R"({"type":"function_call_output","call_id":"c","output":"x"})");
}

TEST(Items, CustomToolCallsAndCompaction) {
  EXPECT_EQ(
      Canon(
          R"({"input":"patch","name":"apply","call_id":"c","id":"ctc_1","type":"custom_tool_call"})"),
      R"({"type":"custom_tool_call","id":"ctc_1","call_id":"c","name":"apply","input":"patch"})");
  EXPECT_EQ(Canon(R"({"output":"done","call_id":"c","type":"custom_tool_call_output"})"),
            R"({"type":"custom_tool_call_output","call_id":"c","output":"done"})");
  EXPECT_EQ(Canon(R"({"type":"compaction_summary","encrypted_content":"e","id":"cmp_1"})"),
            R"({"type":"compaction","encrypted_content":"e"})");
  EXPECT_EQ(Canon(R"({"encrypted_content":"e","type":"compaction"})"),
            R"({"type":"compaction","encrypted_content":"e"})");
  EXPECT_EQ(Canon(R"({"type":"compaction"})"), "<dropped>");
}

TEST(Items, CanonicalisationIsIdempotent) {
  const char* raws[] = {
      R"({"type":"message","id":"msg_1","role":"assistant","content":[{"type":"output_text","text":"hi"}]})",
      R"({"type":"reasoning","id":"rs_1","summary":[{"type":"summary_text","text":"s"}],"encrypted_content":"e"})",
      R"({"type":"function_call","id":"fc_1","name":"n","arguments":"{}","call_id":"c"})",
      R"({"type":"function_call_output","call_id":"c","output":"o"})",
  };
  for (const char* raw : raws) EXPECT_EQ(Canon(raw), raw);
}

TEST(Items, Builders) {
  EXPECT_EQ(
      ToJson(InputMessage("developer", {"a", "b"})),
      R"({"type":"message","role":"developer","content":[{"type":"input_text","text":"a"},{"type":"input_text","text":"b"}]})");
  EXPECT_EQ(
      ToJson(UserInputMessage("look", {"data:image/png;base64,AA"})),
      R"({"type":"message","role":"user","content":[{"type":"input_text","text":"look"},{"type":"input_image","image_url":"data:image/png;base64,AA"}]})");
  EXPECT_EQ(ToJson(FunctionCallOutputItem("call_1", "L1: x")),
            R"({"type":"function_call_output","call_id":"call_1","output":"L1: x"})");
  EXPECT_EQ(
      ToJson(FunctionCallOutputItem(
          "call_1", J(R"([{"type":"input_text","text":"t","x":1},{"type":"bogus"}])"))),
      R"({"type":"function_call_output","call_id":"call_1","output":[{"type":"input_text","text":"t"}]})");
  EXPECT_EQ(ToJson(CustomToolCallOutputItem("c", "aborted")),
            R"({"type":"custom_tool_call_output","call_id":"c","output":"aborted"})");
  // Invalid UTF-8 is replaced before storage.
  EXPECT_EQ(
      ToJson(InputMessage("user", {"a\xff"})),
      "{\"type\":\"message\",\"role\":\"user\",\"content\":[{\"type\":\"input_text\",\"text\":"
      "\"a\xEF\xBF\xBD\"}]}");
}

}  // namespace
}  // namespace agentctx
