// SPDX-License-Identifier: MIT
// Where the initial context is reinjected after a local or remote compaction.
#include "compaction/reinjection.h"

#include <gtest/gtest.h>

#include "compaction/summary_request.h"
#include "protocol/items.h"
#include "protocol/json_codec.h"

namespace agentctx {
namespace {

JsonValue User(const std::string& text) { return InputMessage("user", {text}); }
JsonValue Compaction() { return *ParseJson(R"({"type":"compaction","encrypted_content":"e"})"); }
JsonValue Assistant() {
  return *ParseJson(
      R"({"type":"message","role":"assistant","content":[{"type":"output_text","text":"a"}]})");
}
JsonValue Dev(const std::string& text) { return InputMessage("developer", {text}); }

std::vector<std::string> Texts(const std::vector<JsonValue>& items) {
  std::vector<std::string> out;
  for (const auto& i : items) {
    if (ItemType(i) == "compaction") {
      out.push_back("compaction");
    } else {
      out.push_back(std::string(i.Find("content")->items()[0].GetString("text").value_or("")));
    }
  }
  return out;
}

TEST(Reinjection, MidTurnLocalVector) {
  // [user "older", user "function call limit push", summary] → context before the last real user.
  std::vector<JsonValue> h = {User("older"), User("function call limit push"),
                              User(SummaryTextFor("AUTO_SUMMARY"))};
  EXPECT_EQ(ReinjectionIndex(h), 1u);
  auto out =
      InsertInitialContext(h, {Dev("<permissions instructions>\np\n</permissions instructions>"),
                               User("<environment_context>\n</environment_context>")});
  auto t = Texts(out);
  ASSERT_EQ(t.size(), 5u);
  EXPECT_EQ(t[0], "older");
  EXPECT_EQ(t[1], "<permissions instructions>\np\n</permissions instructions>");
  EXPECT_EQ(t[2], "<environment_context>\n</environment_context>");
  EXPECT_EQ(t[3], "function call limit push");
  EXPECT_EQ(t[4], SummaryTextFor("AUTO_SUMMARY"));
}

TEST(Reinjection, NoRealUserMessageGoesBeforeTheSummary) {
  std::vector<JsonValue> h = {User(SummaryTextFor("S"))};
  EXPECT_EQ(ReinjectionIndex(h), 0u);
}

TEST(Reinjection, RemoteMidTurnVectorKeepsTheCompactionItemLast) {
  std::vector<JsonValue> h = {User("USER_ONE"), Compaction()};
  auto t = Texts(
      InsertInitialContext(h, {Dev("<permissions instructions>\n</permissions instructions>")}));
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(t[0], "<permissions instructions>\n</permissions instructions>");
  EXPECT_EQ(t[1], "USER_ONE");
  EXPECT_EQ(t[2], "compaction");
}

TEST(Reinjection, RemoteWithoutUserMessageGoesBeforeTheCompactionItem) {
  std::vector<JsonValue> h = {Assistant(), Compaction()};
  EXPECT_EQ(ReinjectionIndex(h), 1u);
}

TEST(Reinjection, NothingToAnchorAppends) {
  std::vector<JsonValue> h = {Assistant()};
  EXPECT_EQ(ReinjectionIndex(h), 1u);
  EXPECT_EQ(ReinjectionIndex({}), 0u);
  // Contextual user messages are not anchors.
  std::vector<JsonValue> ctx = {User("<environment_context>\n</environment_context>")};
  EXPECT_EQ(ReinjectionIndex(ctx), 1u);
}

}  // namespace
}  // namespace agentctx
