// SPDX-License-Identifier: MIT
// Golden request/rollout layouts after manual, pre-turn, mid-turn and model-switch compaction,
// local and remote, byte-exact against tests/fixtures/compaction/<case>/:
// requests.jsonl (every model_request effect), rollout.jsonl, events.jsonl (compaction and
// warning events). Rewrite natively with ACTX_UPDATE_GOLDENS=1 and review the diff.
#include <gtest/gtest.h>

#include <functional>
#include <memory>

#include "compaction_session_util.h"
#include "protocol/items.h"

namespace agentctx {
namespace {

using compaction_test::AssistantJson;
using compaction_test::Config;
using compaction_test::Events;
using compaction_test::ExpectGolden;
using compaction_test::HistoryItems;
using compaction_test::IsSummaryRequest;
using compaction_test::ReadCallJson;
using compaction_test::Seed;
using compaction_test::SessionDriver;
using compaction_test::Sse;

// Runs a case and compares its goldens.
struct Case {
  explicit Case(std::string name) : name(std::move(name)) { Seed(&d); }

  void Keep(std::vector<JsonValue> effects) {
    for (auto& e : effects) all.push_back(std::move(e));
  }

  void CheckGoldens() {
    std::string requests;
    std::string events;
    for (const auto& e : all) {
      auto type = e.GetString("type").value_or("");
      if (type == "model_request") requests += ToJson(e) + "\n";
      if (type == "event") {
        auto kind = e.Find("event")->GetString("type").value_or("");
        if (kind == "compaction" || kind == "warning") events += ToJson(*e.Find("event")) + "\n";
      }
    }
    ExpectGolden("compaction/" + name + "/requests.jsonl", requests);
    ExpectGolden("compaction/" + name + "/events.jsonl", events);
    ExpectGolden("compaction/" + name + "/rollout.jsonl", d.RolloutText());
  }

  // Every turn request after the first compaction carries AGENTS.md and permissions.
  void CheckContextAfterCompaction() {
    bool compacted = false;
    for (const auto& e : all) {
      if (e.GetString("type") != "model_request") continue;
      std::string body(*e.GetString("body"));
      if (e.GetString("purpose") == "compact") {
        compacted = true;
        continue;
      }
      if (!compacted) continue;
      EXPECT_NE(body.find("<permissions instructions>"), std::string::npos) << body;
      EXPECT_NE(body.find("# AGENTS.md instructions for /repo"), std::string::npos) << body;
      EXPECT_NE(body.find("Keep answers short."), std::string::npos) << body;
    }
    EXPECT_TRUE(compacted);
  }

  std::string name;
  SessionDriver d;
  std::vector<JsonValue> all;
};

std::string TextOf(const JsonValue& item) {
  const JsonValue* content = item.Find("content");
  if (content == nullptr || content->items().empty()) return std::string(ItemType(item));
  return std::string(content->items()[0].GetString("text").value_or(""));
}

std::vector<std::string> Texts(const std::vector<JsonValue>& items) {
  std::vector<std::string> out;
  for (const auto& i : items) out.push_back(TextOf(i));
  return out;
}

std::string Summary(const std::string& s) { return std::string(SummaryPrefix()) + "\n" + s; }

TEST(CompactionGolden, ManualLocal) {
  Case c("manual_local");
  c.d.respond = [](const std::string& endpoint,
                   const std::string& body) -> std::optional<std::string> {
    if (IsSummaryRequest(endpoint, body)) return Sse({AssistantJson("FIRST_MANUAL_SUMMARY")});
    return std::nullopt;
  };
  c.d.Start(Config());
  c.Keep(c.d.Submit("first manual turn", 1000));
  c.Keep(c.d.Compact(2000));
  EXPECT_EQ(Texts(HistoryItems(&c.d)),
            (std::vector<std::string>{"first manual turn", Summary("FIRST_MANUAL_SUMMARY")}));
  c.Keep(c.d.Submit("second manual turn", 3000));
  std::vector<std::string> texts = Texts(HistoryItems(&c.d));
  ASSERT_GE(texts.size(), 7u);
  EXPECT_TRUE(texts[2].starts_with("<permissions instructions>"));
  EXPECT_TRUE(texts[3].starts_with("# AGENTS.md instructions for /repo"));
  EXPECT_TRUE(texts[4].starts_with("<environment_context>"));
  EXPECT_EQ(texts[5], "second manual turn");
  c.CheckContextAfterCompaction();
  c.CheckGoldens();
}

TEST(CompactionGolden, ManualRemote) {
  Case c("manual_remote");
  c.d.respond = [](const std::string& endpoint, const std::string&) -> std::optional<std::string> {
    if (endpoint == "responses/compact") {
      return std::string(
          R"({"output":[{"type":"compaction","encrypted_content":"ENCRYPTED_COMPACTION_SUMMARY"}]})");
    }
    return std::nullopt;
  };
  c.d.Start(Config("", R"(,"compaction":{"strategy":"remote"})"));
  c.Keep(c.d.Submit("first remote turn", 1000));
  c.Keep(c.d.Compact(2000));
  EXPECT_EQ(Texts(HistoryItems(&c.d)), (std::vector<std::string>{"compaction"}));
  c.Keep(c.d.Submit("after compact", 3000));
  std::vector<std::string> texts = Texts(HistoryItems(&c.d));
  ASSERT_GE(texts.size(), 5u);
  EXPECT_EQ(texts[0], "compaction");
  EXPECT_TRUE(texts[1].starts_with("<permissions instructions>"));
  EXPECT_TRUE(texts[2].starts_with("# AGENTS.md instructions"));
  EXPECT_TRUE(texts[3].starts_with("<environment_context>"));
  EXPECT_EQ(texts[4], "after compact");
  c.CheckContextAfterCompaction();
  c.CheckGoldens();
}

// The first turn request answers with one read_file call; the rest is the mock.
std::function<std::optional<std::string>(const std::string&, const std::string&)> MidTurnScript(
    bool local) {
  auto first = std::make_shared<bool>(true);
  return [first, local](const std::string& endpoint,
                        const std::string& body) -> std::optional<std::string> {
    if (local && IsSummaryRequest(endpoint, body)) return Sse({AssistantJson("AUTO_SUMMARY")});
    if (endpoint == "responses" && *first) {
      *first = false;
      return Sse({ReadCallJson("call_1", "notes.txt")});
    }
    return std::nullopt;
  };
}

TEST(CompactionGolden, MidTurnLocal) {
  Case c("mid_turn_local");
  c.d.respond = MidTurnScript(true);
  c.d.Start(Config(R"(,"context_window":100000,"auto_compact_token_limit":400)"));
  c.Keep(c.d.Submit("function call limit push", 1000));
  std::vector<std::string> texts = Texts(HistoryItems(&c.d));
  ASSERT_GE(texts.size(), 5u);
  EXPECT_TRUE(texts[0].starts_with("<permissions instructions>"));
  EXPECT_TRUE(texts[1].starts_with("# AGENTS.md instructions for /repo"));
  EXPECT_TRUE(texts[2].starts_with("<environment_context>"));
  EXPECT_EQ(texts[3], "function call limit push");
  EXPECT_EQ(texts[4], Summary("AUTO_SUMMARY"));
  auto started = Events(c.all, "compaction");
  ASSERT_EQ(started.size(), 2u);
  EXPECT_EQ(started[0].GetString("trigger"), "mid_turn");
  c.CheckContextAfterCompaction();
  c.CheckGoldens();
}

TEST(CompactionGolden, MidTurnRemote) {
  Case c("mid_turn_remote");
  c.d.respond = MidTurnScript(false);
  c.d.Start(Config(R"(,"context_window":100000,"auto_compact_token_limit":400)",
                   R"(,"compaction":{"strategy":"remote"})"));
  c.Keep(c.d.Submit("USER_ONE", 1000));
  std::vector<std::string> texts = Texts(HistoryItems(&c.d));
  ASSERT_GE(texts.size(), 5u);
  EXPECT_TRUE(texts[0].starts_with("<permissions instructions>"));
  EXPECT_TRUE(texts[1].starts_with("# AGENTS.md instructions for /repo"));
  EXPECT_TRUE(texts[2].starts_with("<environment_context>"));
  EXPECT_EQ(texts[3], "USER_ONE");
  EXPECT_EQ(texts[4], "compaction");
  c.CheckContextAfterCompaction();
  c.CheckGoldens();
}

void RunPreTurn(Case* c) {
  c->Keep(c->d.Submit("hello there, please remember the word PINEAPPLE", 1000));
  c->Keep(c->d.Submit("what was the word?", 2000));
  auto compaction = Events(c->all, "compaction");
  ASSERT_EQ(compaction.size(), 2u);
  EXPECT_EQ(compaction[0].GetString("trigger"), "pre_turn");
  // DoNotInject: the summary then the turn's full context and input.
  std::vector<std::string> texts = Texts(HistoryItems(&c->d));
  ASSERT_GE(texts.size(), 6u);
  EXPECT_EQ(texts[0], "hello there, please remember the word PINEAPPLE");
  EXPECT_TRUE(texts[2].starts_with("<permissions instructions>"));
  EXPECT_TRUE(texts[3].starts_with("# AGENTS.md instructions for /repo"));
  EXPECT_TRUE(texts[4].starts_with("<environment_context>"));
  EXPECT_EQ(texts[5], "what was the word?");
}

TEST(CompactionGolden, PreTurnLocal) {
  Case c("pre_turn_local");
  c.d.Start(Config(R"(,"context_window":100000,"auto_compact_token_limit":500)"));
  RunPreTurn(&c);
  EXPECT_TRUE(Texts(HistoryItems(&c.d))[1].starts_with(Summary("MOCK SUMMARY")));
  c.CheckContextAfterCompaction();
  c.CheckGoldens();
}

TEST(CompactionGolden, PreTurnRemote) {
  Case c("pre_turn_remote");
  c.d.Start(Config(R"(,"context_window":100000,"auto_compact_token_limit":500)",
                   R"(,"compaction":{"strategy":"remote"})"));
  RunPreTurn(&c);
  EXPECT_EQ(Texts(HistoryItems(&c.d))[1], "compaction");
  c.CheckContextAfterCompaction();
  c.CheckGoldens();
}

TEST(CompactionGolden, ModelSwitchCompactsWithThePreviousModel) {
  Case c("model_switch_local");
  c.d.Start(
      R"({"session_id":"s-c","model":{"slug":"mock-big","instructions":"Big model.","context_window":200000},)"
      R"("approval_policy":"never","sandbox":{"mode":"read-only"},)"
      R"("environments":[{"id":"local","cwd":"/repo","shell":"bash","fs":"workspace"}]})");
  c.Keep(c.d.Submit("hello there, please remember the word PINEAPPLE", 1000));
  c.Keep(c.d.Update(
      R"({"model":{"slug":"mock-small","instructions":"Small model.","context_window":600}})",
      1500));
  c.Keep(c.d.Submit("what was the word?", 2000));
  auto compaction = Events(c.all, "compaction");
  ASSERT_EQ(compaction.size(), 2u);
  EXPECT_EQ(compaction[0].GetString("trigger"), "model_switch");
  // The compaction request ran on the previous model with its instructions.
  std::vector<std::string> compact_bodies;
  for (const auto& e : c.all) {
    if (e.GetString("type") == "model_request" && e.GetString("purpose") == "compact") {
      compact_bodies.emplace_back(*e.GetString("body"));
    }
  }
  ASSERT_EQ(compact_bodies.size(), 1u);
  EXPECT_TRUE(compact_bodies[0].starts_with(
      R"({"model":"mock-big","instructions":"Big model.","input":[)"));
  // The turn then starts with the model_switch notice and the new instructions.
  const std::string& last = c.d.request_bodies().back();
  EXPECT_TRUE(last.starts_with(R"({"model":"mock-small","instructions":"Small model.")"));
  EXPECT_NE(last.find("<model_switch>\\nThe user was previously using a different model."),
            std::string::npos);
  c.CheckContextAfterCompaction();
  c.CheckGoldens();
}

}  // namespace
}  // namespace agentctx
