// SPDX-License-Identifier: MIT
#include "session/config.h"

#include <gtest/gtest.h>

#include "protocol/json_codec.h"

namespace agentctx {
namespace {

constexpr std::string_view kMinimal =
    R"({"session_id":"s-1","model":{"slug":"mock-1"},)"
    R"("environments":[{"id":"local","cwd":"/repo","fs":"workspace"}]})";

Result<SessionConfig> Parse(std::string_view text, std::vector<Warning>* w = nullptr) {
  auto json = ParseJson(text);
  EXPECT_TRUE(json.has_value());
  return ParseSessionConfig(*json, w);
}

TEST(SessionConfig, DefaultsFromSpec) {
  auto c = Parse(kMinimal);
  ASSERT_TRUE(c.has_value()) << c.error().message;
  EXPECT_EQ(c->approval_policy, ApprovalPolicy::kOnRequest);
  EXPECT_EQ(c->sandbox.mode, SandboxMode::kWorkspaceWrite);
  EXPECT_EQ(c->trust, Trust::kTrusted);
  EXPECT_EQ(c->agents_md.max_bytes, 32768);
  EXPECT_EQ(c->agents_md.root_markers, std::vector<std::string>{".git"});
  EXPECT_EQ(c->agents_md.refresh, AgentsMdRefresh::kSelection);
  EXPECT_TRUE(c->builtin_tools);
  EXPECT_EQ(c->tool_policy, ToolPolicy::kApply);
  EXPECT_EQ(c->compaction.strategy, CompactionStrategy::kLocal);
  EXPECT_TRUE(c->compaction.auto_compact);
  EXPECT_EQ(c->max_steps_per_turn, 64);
  EXPECT_EQ(c->model.truncation.limit, 10000);
  EXPECT_EQ(c->CacheKey(), "s-1");
  EXPECT_EQ(c->environments[0].status, EnvironmentStatus::kAvailable);
}

TEST(SessionConfig, UnknownKeysWarnOnce) {
  std::vector<Warning> warnings;
  auto c = Parse(R"({"session_id":"s","model":{"slug":"m"},"bogus":1,)"
                 R"("environments":[{"id":"a","cwd":"/","fs":"w"}]})",
                 &warnings);
  ASSERT_TRUE(c.has_value());
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].code, WarningCode::kUnknownConfigKey);
}

TEST(SessionConfig, RejectsInvalidValuesWithAClearMessage) {
  struct Case {
    std::string_view json;
    std::string_view message_part;
  } cases[] = {
      {R"({"model":{"slug":"m"},"environments":[{"id":"a","cwd":"/","fs":"w"}]})", "session_id"},
      {R"({"session_id":"s","environments":[{"id":"a","cwd":"/","fs":"w"}]})", "model"},
      {R"({"session_id":"s","model":{"slug":"m"},"environments":[]})", "environments"},
      {R"({"session_id":"s","model":{"slug":"m"},"environments":[{"id":"a","cwd":"rel","fs":"w"}]})",
       "cwd"},
      {R"({"session_id":"s","model":{"slug":"m"},"environments":[{"id":"a","cwd":"/","fs":"w"},)"
       R"({"id":"a","cwd":"/x","fs":"w"}]})",
       "duplicate environment id"},
      {R"({"session_id":"s","model":{"slug":"m"},"sandbox":{"mode":"bogus"},)"
       R"("environments":[{"id":"a","cwd":"/","fs":"w"}]})",
       "sandbox.mode"},
      {R"({"session_id":"s","model":{"slug":"m"},"approval_policy":"always",)"
       R"("environments":[{"id":"a","cwd":"/","fs":"w"}]})",
       "approval_policy"},
      {R"({"session_id":"s","model":{"slug":"m","context_window":-5},)"
       R"("environments":[{"id":"a","cwd":"/","fs":"w"}]})",
       "context_window"},
  };
  for (const auto& c : cases) {
    auto r = Parse(c.json);
    ASSERT_FALSE(r.has_value()) << c.json;
    EXPECT_EQ(r.error().code, ErrorCode::kInvalidConfig);
    EXPECT_NE(r.error().message.find(c.message_part), std::string::npos) << r.error().message;
  }
}

TEST(SessionConfig, ReasoningNoneMeansUnset) {
  auto c = Parse(R"({"session_id":"s","model":{"slug":"m"},"reasoning":{"effort":"none",)"
                 R"("summary":"auto"},"environments":[{"id":"a","cwd":"/","fs":"w"}]})");
  ASSERT_TRUE(c.has_value());
  EXPECT_FALSE(c->reasoning_effort.has_value());
  EXPECT_EQ(c->reasoning_summary, ReasoningSummary::kAuto);
}

TEST(SessionConfig, DeltaIsAMergePatchWithCwdShorthand) {
  auto c = Parse(kMinimal);
  ASSERT_TRUE(c.has_value());
  auto delta =
      ParseJson(R"({"cwd":"/repo/src","approval_policy":"never","sandbox":{"mode":"read-only"}})");
  auto next = ApplyConfigDelta(*c, *delta, nullptr);
  ASSERT_TRUE(next.has_value()) << next.error().message;
  EXPECT_EQ(next->environments[0].cwd, "/repo/src");
  EXPECT_EQ(next->approval_policy, ApprovalPolicy::kNever);
  EXPECT_EQ(next->sandbox.mode, SandboxMode::kReadOnly);
  auto bad = ApplyConfigDelta(*next, *ParseJson(R"({"sandbox":{"mode":"bogus"}})"), nullptr);
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().code, ErrorCode::kInvalidConfig);
  EXPECT_EQ(next->sandbox.mode, SandboxMode::kReadOnly);
}

}  // namespace
}  // namespace agentctx
