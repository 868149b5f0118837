// SPDX-License-Identifier: MIT
// PromptView (incremental for_prompt) against ForPrompt, and ResponsesBodyBuilder against
// BuildResponsesBody, on seeded random histories: every step must give the same items and the
// same body bytes, and an append-only history must never rebuild.
#include "prompt/prompt_view.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "protocol/json_codec.h"
#include "provider/responses/body_builder.h"

namespace agentctx {
namespace {

RecordedItem Item(const std::string& raw, std::uint64_t serial) {
  auto v = ParseJson(raw);
  EXPECT_TRUE(v.has_value()) << raw;
  auto item = CanonicalizeItem(*v, nullptr);
  EXPECT_TRUE(item.has_value()) << raw;
  RecordedItem r = MakeRecordedItem(*item, "turn-1", "model");
  r.serial = serial;
  return r;
}

std::string CallJson(const std::string& type, const std::string& id) {
  if (type == "custom_tool_call") {
    return R"({"type":"custom_tool_call","call_id":")" + id + R"(","name":"c","input":"x"})";
  }
  return R"({"type":"function_call","name":"f","arguments":"{}","call_id":")" + id + "\"}";
}

std::string OutputJson(const std::string& type, const std::string& id, int n) {
  return R"({"type":")" + type + R"(","call_id":")" + id + R"(","output":"out )" +
         std::to_string(n) + "\"}";
}

// A random item: messages (some with images), calls, their outputs, orphans, duplicate ids.
std::string RandomItem(std::mt19937* rng, int n) {
  std::uniform_int_distribution<int> kind(0, 9);
  std::uniform_int_distribution<int> id(0, 5);
  std::string call_id = "c" + std::to_string(id(*rng));
  switch (kind(*rng)) {
    case 0:
      return R"({"type":"message","role":"user","content":[{"type":"input_text","text":"u )" +
             std::to_string(n) + R"("},{"type":"input_image","image_url":"data:x"}]})";
    case 1:
    case 2:
      return CallJson("function_call", call_id);
    case 3:
      return CallJson("custom_tool_call", call_id);
    case 4:
    case 5:
      return OutputJson("function_call_output", call_id, n);
    case 6:
      return OutputJson("custom_tool_call_output", call_id, n);
    default:
      return R"({"type":"message","role":"assistant","content":[{"type":"output_text","text":"a )" +
             std::to_string(n) + "\"}]}";
  }
}

void ExpectSameView(const std::vector<PromptItem>& got, const std::vector<PromptItem>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(*got[i].bytes, *want[i].bytes) << "item " << i;
    EXPECT_EQ(got[i].serial, want[i].serial) << "item " << i;
    EXPECT_EQ(got[i].synthetic, want[i].synthetic) << "item " << i;
    EXPECT_EQ(got[i].history_index, want[i].history_index) << "item " << i;
  }
}

BodyParams Params() {
  BodyParams p;
  p.model = "m";
  p.instructions = "be brief";
  p.tools_bytes = "[]";
  p.prompt_cache_key = "k";
  return p;
}

std::string ExpectedBody(const std::vector<PromptItem>& items) {
  std::vector<std::string_view> bytes;
  for (const auto& item : items) bytes.push_back(*item.bytes);
  BodyParams p = Params();
  p.items = &bytes;
  return BuildResponsesBody(p);
}

TEST(PromptView, MatchesForPromptOnRandomHistories) {
  std::uint64_t updates = 0, rebuilds = 0;
  for (unsigned seed = 1; seed <= 60; ++seed) {
    std::mt19937 rng(seed);
    std::vector<RecordedItem> history;
    PromptItemCache cache;
    PromptView view;
    ResponsesBodyBuilder builder;
    std::uint64_t epoch = 0;
    bool images = true;
    std::uniform_int_distribution<int> burst(1, 4);
    std::uniform_int_distribution<int> event(0, 19);
    for (int step = 0; step < 40; ++step) {
      for (int k = burst(rng); k > 0; --k) {
        history.push_back(Item(RandomItem(&rng, step), history.size() + 1));
      }
      int e = event(rng);
      if (e == 0) images = !images;  // a model switch changing supports_images
      if (e == 1) {                  // a compaction: history replaced
        history.erase(history.begin(), history.begin() + static_cast<long>(history.size() / 2));
        ++epoch;
      }
      const auto& got = view.Update(history, epoch, images, &cache);
      ExpectSameView(got, ForPrompt(history, images, &cache));
      std::string_view body = builder.Build(Params(), got, view.stable_prefix());
      EXPECT_EQ(body, ExpectedBody(got)) << "seed " << seed << " step " << step;
      if (HasFailure()) return;
      ++updates;
    }
    rebuilds += view.rebuilds();
  }
  // The generator must exercise the incremental path, not only rebuilds.
  EXPECT_LT(rebuilds * 2, updates);
}

TEST(PromptView, AppendOnlyToolLoopNeverRebuilds) {
  std::vector<RecordedItem> history;
  PromptItemCache cache;
  PromptView view;
  ResponsesBodyBuilder builder;
  std::uint64_t serial = 0;
  history.push_back(Item(R"({"type":"message","role":"user","content":[{"type":"input_text",)"
                         R"("text":"go"}]})",
                         ++serial));
  for (int step = 0; step < 200; ++step) {
    std::string id = "call_" + std::to_string(step);
    history.push_back(Item(CallJson("function_call", id), ++serial));
    history.push_back(Item(OutputJson("function_call_output", id, step), ++serial));
    const std::size_t before = view.items().size();
    const auto& got = view.Update(history, 0, true, &cache);
    builder.Build(Params(), got, view.stable_prefix());
    if (step > 0) {
      EXPECT_EQ(view.stable_prefix(), before);
    }
  }
  EXPECT_EQ(view.rebuilds(), 1u);  // the first Update only
  EXPECT_EQ(builder.full_builds(), 1u);
  EXPECT_EQ(builder.body(), ExpectedBody(view.items()));
}

TEST(PromptView, LateOutputForAbortedCallRebuilds) {
  std::vector<RecordedItem> history;
  PromptItemCache cache;
  PromptView view;
  history.push_back(Item(CallJson("function_call", "a"), 1));
  ASSERT_EQ(view.Update(history, 0, true, &cache).size(), 2u);  // call + synthetic aborted
  history.push_back(Item(OutputJson("function_call_output", "a", 1), 2));
  const auto& got = view.Update(history, 0, true, &cache);
  ExpectSameView(got, ForPrompt(history, true, &cache));
  EXPECT_EQ(view.stable_prefix(), 0u);
  EXPECT_EQ(view.rebuilds(), 2u);
}

TEST(ResponsesBodyBuilder, HeadChangeRebuilds) {
  std::vector<RecordedItem> history;
  PromptItemCache cache;
  PromptView view;
  ResponsesBodyBuilder builder;
  history.push_back(Item(CallJson("function_call", "a"), 1));
  history.push_back(Item(OutputJson("function_call_output", "a", 1), 2));
  builder.Build(Params(), view.Update(history, 0, true, &cache), view.stable_prefix());
  BodyParams other = Params();
  other.model = "m2";
  std::string_view body = builder.Build(other, view.items(), view.items().size());
  EXPECT_EQ(builder.full_builds(), 2u);
  EXPECT_EQ(body.substr(0, 14), R"({"model":"m2",)");
  // New instructions (same model) rebuild the head too; the same ones again do not.
  BodyParams reworded = other;
  reworded.instructions = "be thorough";
  body = builder.Build(reworded, view.items(), view.items().size());
  EXPECT_EQ(builder.full_builds(), 3u);
  EXPECT_NE(body.find(R"("instructions":"be thorough")"), std::string_view::npos);
  builder.Build(reworded, view.items(), view.items().size());
  EXPECT_EQ(builder.full_builds(), 3u);
}

}  // namespace
}  // namespace agentctx
