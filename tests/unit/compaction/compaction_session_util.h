// SPDX-License-Identifier: MIT
// Helpers shared by the session-level compaction tests: configs, a seeded workspace, scripted
// model answers and golden comparison.
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "mock_model/sse_writer.h"
#include "protocol/json_codec.h"
#include "support/effect_filters.h"
#include "support/fixtures.h"
#include "support/session_driver.h"
#include "world_state/message_kind.h"

namespace agentctx::compaction_test {

using testing::SessionDriver;

/// A session config; `model_extra` is appended inside `model`, `extra` at the top level.
inline std::string Config(const std::string& model_extra = "", const std::string& extra = "") {
  return R"({"session_id":"s-c","model":{"slug":"mock-1","instructions":"Be helpful.")" +
         model_extra +
         R"(},"approval_policy":"never","sandbox":{"mode":"read-only"},)"
         R"("environments":[{"id":"local","cwd":"/repo","shell":"bash","fs":"workspace"}])" +
         extra + "}";
}

/// /repo with a git marker, an AGENTS.md and a 60-line notes.txt.
inline void Seed(SessionDriver* d) {
  EXPECT_TRUE(d->fs()->AddDir("/repo/.git").has_value());
  EXPECT_TRUE(d->fs()->AddFile("/repo/AGENTS.md", "Keep answers short.").has_value());
  std::string notes;
  for (int i = 1; i <= 60; ++i) notes += "note line " + std::to_string(i) + " of the project\n";
  EXPECT_TRUE(d->fs()->AddFile("/repo/notes.txt", notes).has_value());
}

/// SSE of a successful response with these output items (ids and usage fixed).
inline std::string Sse(const std::vector<std::string>& item_json, std::uint64_t input_tokens = 100,
                       std::uint64_t output_tokens = 10) {
  std::vector<JsonValue> items;
  for (const auto& j : item_json) items.push_back(*ParseJson(j));
  MockUsage usage;
  usage.input_tokens = input_tokens;
  usage.output_tokens = output_tokens;
  usage.total_tokens = input_tokens + output_tokens;
  MockResponseMeta meta;
  meta.id = "resp_scripted";
  meta.model = "mock-1";
  return WriteSuccessStream(meta, items, usage);
}

inline std::string AssistantJson(const std::string& text) {
  return R"({"type":"message","role":"assistant","content":[{"type":"output_text","text":)" +
         JsonString(text) + "}]}";
}

inline std::string ReadCallJson(const std::string& call_id, const std::string& path) {
  return R"({"type":"function_call","name":"read_file","arguments":)" +
         JsonString(R"({"path":")" + path + R"("})") + R"(,"call_id":")" + call_id + R"("})";
}

/// True for a `responses` body whose last input item is the summarization request.
inline bool IsSummaryRequest(const std::string& endpoint, const std::string& body) {
  return endpoint == "responses" &&
         body.find("You are performing a CONTEXT CHECKPOINT COMPACTION") != std::string::npos;
}

/// Events of `type` among the effects.
inline std::vector<JsonValue> Events(const std::vector<JsonValue>& effects, std::string_view type) {
  return testing::EventsOfType(effects, type);
}

/// Effects of `type`.
inline std::vector<JsonValue> Effects(const std::vector<JsonValue>& effects,
                                      std::string_view type) {
  std::vector<JsonValue> out;
  for (const auto& e : effects) {
    if (e.GetString("type") == type) out.push_back(e);
  }
  return out;
}

/// Warning codes among the events.
inline std::vector<std::string> WarningCodes(const std::vector<JsonValue>& effects) {
  std::vector<std::string> out;
  for (const auto& w : Events(effects, "warning")) out.emplace_back(*w.GetString("code"));
  return out;
}

/// The session's history as item JSON values.
inline std::vector<JsonValue> HistoryItems(SessionDriver* d) {
  std::vector<JsonValue> out;
  auto env = ParseJson(d->Call("history", "{}"));
  for (const auto& e : env->Find("value")->items()) out.push_back(*e.Find("item"));
  return out;
}

/// The rollout line types (event_msg lines as `event_msg:<kind>`).
inline std::vector<std::string> LineKinds(const std::vector<std::string>& lines) {
  std::vector<std::string> out;
  for (const auto& l : lines) {
    auto j = ParseJson(l);
    std::string type(j->GetString("type").value_or(""));
    if (type == "event_msg")
      type += ":" + std::string(j->Find("payload")->GetString("type").value_or(""));
    out.push_back(type);
  }
  return out;
}

/// Compares `actual` with the golden file (rewritten natively under ACTX_UPDATE_GOLDENS=1),
/// reporting the first differing line.
inline void ExpectGolden(const std::string& relative, const std::string& actual) {
  if (testing::UpdateGoldens()) {
    ASSERT_TRUE(testing::WriteFixture(relative, actual)) << "cannot write " << relative;
    return;
  }
  std::optional<std::string> expected = testing::ReadFixture(relative);
  ASSERT_TRUE(expected.has_value()) << "missing golden " << relative;
  if (*expected == actual) return;
  std::size_t line = 1;
  std::size_t i = 0;
  while (i < expected->size() && i < actual.size() && (*expected)[i] == actual[i]) {
    if (actual[i] == '\n') ++line;
    ++i;
  }
  ADD_FAILURE() << relative << " differs at line " << line << " (byte " << i
                << ")\nexpected: " << expected->substr(i > 80 ? i - 80 : 0, 240)
                << "\nactual:   " << actual.substr(i > 80 ? i - 80 : 0, 240);
}

}  // namespace agentctx::compaction_test
