// SPDX-License-Identifier: MIT
// Tests for rollout line builders: exact bytes and key orders of each line.
#include "rollout/rollout_writer.h"

#include <gtest/gtest.h>

#include "protocol/json_codec.h"

namespace agentctx {
namespace {

constexpr std::int64_t kT = 1767225600123;  // 2026-01-01T00:00:00.123Z
#define TS R"({"timestamp":"2026-01-01T00:00:00.123Z",)"

TEST(RolloutWriter, SessionMeta) {
  EXPECT_EQ(SessionMetaLine(kT, "s-1", "/repo", "0.1.0"),
            TS R"("type":"session_meta","payload":{"id":"s-1",)"
               R"("timestamp":"2026-01-01T00:00:00.123Z","cwd":"/repo","originator":"agentctx",)"
               R"("cli_version":"0.1.0"}})");
}

TEST(RolloutWriter, ResponseItemSplicesBytesAndAddsMetadata) {
  // Item bytes are spliced verbatim (not re-serialised), metadata follows the payload.
  std::string item =
      R"({"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]})";
  EXPECT_EQ(ResponseItemLine(kT, item, "turn-1", "user"),
            TS R"("type":"response_item","payload":)" + item +
                R"(,"metadata":{"turn_id":"turn-1","origin":"user"}})");
  EXPECT_TRUE(ParseJson(ResponseItemLine(kT, item, "t\"1", "user")).has_value());
}

TEST(RolloutWriter, TurnContextSandboxShapes) {
  TurnContextFields f;
  f.turn_id = "turn-1";
  f.cwd = "/repo";
  f.approval_policy = ApprovalPolicy::kNever;
  f.sandbox.mode = SandboxMode::kReadOnly;
  f.model = "mock-1";
  EXPECT_EQ(TurnContextLine(kT, f),
            TS R"("type":"turn_context","payload":{"turn_id":"turn-1","cwd":"/repo",)"
               R"("approval_policy":"never","sandbox_policy":{"type":"read-only",)"
               R"("network_access":false},"model":"mock-1","summary":"none"}})");
  f.sandbox.mode = SandboxMode::kWorkspaceWrite;
  f.sandbox.writable_roots = {"/a", "/b"};
  f.sandbox.network_access = true;
  f.effort = ReasoningEffort::kHigh;
  f.summary = ReasoningSummary::kAuto;
  EXPECT_EQ(ToJson(TurnContextPayload(f)),
            R"({"turn_id":"turn-1","cwd":"/repo","approval_policy":"never",)"
            R"("sandbox_policy":{"type":"workspace-write","writable_roots":["/a","/b"],)"
            R"("network_access":true},"model":"mock-1","effort":"high","summary":"auto"})");
  f.sandbox.mode = SandboxMode::kDangerFullAccess;
  EXPECT_EQ(ToJson(SandboxPolicyJson(f.sandbox)), R"({"type":"danger-full-access"})");
}

// What `resume` continues with: the provider, the base URL (never a credential in it) and the
// explicit provider features; omitted at their defaults, so older rollouts read the same.
TEST(RolloutWriter, TurnContextRecordsProviderBaseUrlAndFeatures) {
  TurnContextFields f;
  f.turn_id = "turn-1";
  f.cwd = "/repo";
  f.approval_policy = ApprovalPolicy::kNever;
  f.sandbox.mode = SandboxMode::kReadOnly;
  f.model = "claude-x";
  const std::string head =
      R"({"turn_id":"turn-1","cwd":"/repo","approval_policy":"never",)"
      R"("sandbox_policy":{"type":"read-only","network_access":false},"model":"claude-x",)"
      R"("summary":"none")";
  EXPECT_EQ(ToJson(TurnContextPayload(f)), head + "}");
  f.provider = Provider::kAnthropic;
  f.base_url = "http://user:secret@127.0.0.1:8080/v1?key=sk-secret#frag";
  f.provider_features = {{"cache_diagnostics", true}, {"prewarm", false}};
  EXPECT_EQ(ToJson(TurnContextPayload(f)),
            head + R"(,"provider":"anthropic","base_url":"http://127.0.0.1:8080/v1",)"
                   R"("provider_features":{"cache_diagnostics":true,"prewarm":false}})");
  TurnContextFields g = f;
  g.provider = Provider::kChat;
  EXPECT_TRUE(TurnContextChanged(TurnContextPayload(f), TurnContextPayload(g)));
  g = f;
  g.base_url = "http://127.0.0.1:9090/v1";
  EXPECT_TRUE(TurnContextChanged(TurnContextPayload(f), TurnContextPayload(g)));
}

TEST(RolloutWriter, RecordableBaseUrlDropsCredentials) {
  EXPECT_EQ(RecordableBaseUrl("https://api.openai.com/v1"), "https://api.openai.com/v1");
  EXPECT_EQ(RecordableBaseUrl("https://u:p@h.example/v1"), "https://h.example/v1");
  EXPECT_EQ(RecordableBaseUrl("https://u@h.example"), "https://h.example");
  EXPECT_EQ(RecordableBaseUrl("https://h.example/v1?api-key=s#x"), "https://h.example/v1");
  EXPECT_EQ(RecordableBaseUrl("https://h.example/a@b"), "https://h.example/a@b");
  EXPECT_EQ(RecordableBaseUrl("not a url?x"), "not a url");
}

TEST(RolloutWriter, TurnContextChangeIgnoresTurnId) {
  TurnContextFields f;
  f.turn_id = "turn-1";
  f.cwd = "/repo";
  f.approval_policy = ApprovalPolicy::kNever;
  f.model = "m";
  TurnContextFields g = f;
  g.turn_id = "turn-2";
  EXPECT_FALSE(TurnContextChanged(TurnContextPayload(f), TurnContextPayload(g)));
  g.cwd = "/other";
  EXPECT_TRUE(TurnContextChanged(TurnContextPayload(f), TurnContextPayload(g)));
  g = f;
  g.effort = ReasoningEffort::kLow;
  EXPECT_TRUE(TurnContextChanged(TurnContextPayload(f), TurnContextPayload(g)));
}

TEST(RolloutWriter, WorldStateSortsKeys) {
  JsonValue state = JsonValue::Object();
  JsonValue env = JsonValue::Object();
  env.Set("status", JsonValue::String("ready"));
  env.Set("cwd", JsonValue::String("/w"));
  state.Set("model", JsonValue::String("m"));
  state.Set("environment", std::move(env));
  EXPECT_EQ(WorldStateLine(kT, true, state),
            TS R"("type":"world_state","payload":{"full":true,"state":)"
               R"({"environment":{"cwd":"/w","status":"ready"},"model":"m"}}})");
  EXPECT_EQ(WorldStateLine(kT, false, JsonValue::Object()),
            TS R"("type":"world_state","payload":{"full":false,"state":{}}})");
}

TEST(RolloutWriter, Compacted) {
  EXPECT_EQ(CompactedLine(kT, "", {R"({"type":"compaction","encrypted_content":"x"})", "{}"}),
            TS R"("type":"compacted","payload":{"message":"","replacement_history":)"
               R"([{"type":"compaction","encrypted_content":"x"},{}]}})");
  EXPECT_EQ(CompactedLine(kT, "sum\n", {}),
            TS R"("type":"compacted","payload":{"message":"sum\n","replacement_history":[]}})");
}

TEST(RolloutWriter, EventMessages) {
  EXPECT_EQ(TaskStartedLine(kT, "turn-1"),
            TS R"("type":"event_msg","payload":{"type":"task_started","turn_id":"turn-1"}})");
  EXPECT_EQ(UserMessageLine(kT, "hi"),
            TS R"("type":"event_msg","payload":{"type":"user_message","message":"hi"}})");
  EXPECT_EQ(AgentMessageLine(kT, "ok"),
            TS R"("type":"event_msg","payload":{"type":"agent_message","message":"ok"}})");
  TokenUsageFields u{1000, 512, 200, 50, 1200, std::nullopt};
  EXPECT_EQ(TokenCountLine(kT, u, 272000),
            TS R"("type":"event_msg","payload":{"type":"token_count","info":{"last_token_usage":)"
               R"({"input_tokens":1000,"cached_input_tokens":512,"output_tokens":200,)"
               R"("reasoning_output_tokens":50,"total_tokens":1200},)"
               R"("model_context_window":272000}}})");
  EXPECT_EQ(TokenCountLine(kT, u, std::nullopt).find("model_context_window"), std::string::npos);
  EXPECT_EQ(ContextCompactedLine(kT),
            TS R"("type":"event_msg","payload":{"type":"context_compacted"}})");
  EXPECT_EQ(TurnAbortedLine(kT, "turn-2", "interrupted"),
            TS R"("type":"event_msg","payload":{"type":"turn_aborted","turn_id":"turn-2",)"
               R"("reason":"interrupted"}})");
  EXPECT_EQ(TaskCompleteLine(kT, "turn-1", std::string_view("done")),
            TS R"("type":"event_msg","payload":{"type":"task_complete","turn_id":"turn-1",)"
               R"("last_agent_message":"done"}})");
  EXPECT_EQ(TaskCompleteLine(kT, "turn-1", std::nullopt),
            TS R"("type":"event_msg","payload":{"type":"task_complete","turn_id":"turn-1"}})");
  EXPECT_EQ(WarningLine(kT, "long_thread", "Heads up"),
            TS R"("type":"event_msg","payload":{"type":"warning","code":"long_thread",)"
               R"("message":"Heads up"}})");
}

TEST(RolloutWriter, CacheReportKeepsReportOrder) {
  JsonValue report = JsonValue::Object();
  report.Set("request_id", JsonValue::String("req-1"));
  report.Set("prompt_bytes", JsonValue::Int(702));
  report.Set("break", JsonValue());
  EXPECT_EQ(CacheReportLine(kT, report),
            TS R"("type":"event_msg","payload":{"type":"cache_report","request_id":"req-1",)"
               R"("prompt_bytes":702,"break":null}})");
}

#undef TS

}  // namespace
}  // namespace agentctx
