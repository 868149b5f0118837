// SPDX-License-Identifier: MIT
// Attachments at the facade (agentctx/engine.h, docs/boundary.md): request bodies leave by
// reference as raw bytes, large inputs may arrive by reference, and a bad reference is a clear
// error that changes nothing.
#include "engine/attachments.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "agentctx/engine.h"
#include "agentctx/envelope.h"
#include "protocol/json_codec.h"
#include "support/memory_file_system.h"

namespace agentctx {
namespace {

constexpr const char* kConfig =
    R"({"config":{"session_id":"s-1","model":{"slug":"mock-1"},"builtin_tools":false,)"
    R"("environments":[{"id":"local","cwd":"/repo","fs":"workspace"}]}})";

struct Fixture {
  Engine engine;
  std::uint32_t handle = 0;
  Fixture() {
    handle = engine.Open();
    auto fs = std::make_shared<MemoryFileSystem>();
    (void)fs->AddDir("/repo");
    engine.AddFileSystem(handle, "workspace", fs);
    EXPECT_NE(engine.Call(handle, "session.start", kConfig).find("\"ok\":true"), std::string::npos);
  }
};

const JsonValue* ModelRequest(const JsonValue& envelope) {
  for (const auto& e : envelope.Find("value")->Find("effects")->items()) {
    if (e.GetString("type") == "model_request") return &e;
  }
  return nullptr;
}

TEST(Attachments, RequestBodyLeavesAsRawBytesByReference) {
  Fixture f;
  std::string env = f.engine.Call(f.handle, "submit", R"({"text":"hi"})");
  auto parsed = ParseJson(env);
  ASSERT_TRUE(parsed.has_value());
  const JsonValue* request = ModelRequest(*parsed);
  ASSERT_NE(request, nullptr);
  const JsonValue* body = request->Find("body");
  ASSERT_TRUE(body->is_object());
  EXPECT_EQ(body->GetInt("$bytes"), 0);
  ASSERT_EQ(f.engine.AttachmentCount(f.handle), 1u);
  std::string_view bytes = f.engine.Attachment(f.handle, 0);
  EXPECT_EQ(body->GetInt("length"), static_cast<std::int64_t>(bytes.size()));
  EXPECT_EQ(bytes.substr(0, 19), R"({"model":"mock-1",")");
  EXPECT_EQ(env.find("\\\"tool_choice\\\""), std::string::npos) << "the body is never escaped";
  // The body equals prompt_preview's, which is an attachment too (owned by the call).
  std::string preview = f.engine.Call(f.handle, "prompt_preview", "{}");
  EXPECT_EQ(preview, R"({"v":1,"ok":true,"value":{"body":{"$bytes":0,"length":)" +
                         std::to_string(f.engine.Attachment(f.handle, 0).size()) + "}}}");
  EXPECT_EQ(f.engine.AttachmentCount(f.handle), 1u);
  EXPECT_EQ(f.engine.Attachment(f.handle, 1), "");
  EXPECT_EQ(f.engine.Attachment(99, 0), "");
  EXPECT_EQ(f.engine.AttachmentCount(99), 0u);
}

TEST(Attachments, DeliveryTextMayArriveByReference) {
  Fixture f;
  f.engine.Call(f.handle, "submit", R"({"text":"hi"})");
  std::string body(f.engine.Attachment(f.handle, 0));
  auto reply = ParseJson(
      f.engine.Call(0, "mock.respond", R"({"endpoint":"responses","body":{"$bytes":0}})", {body}));
  ASSERT_TRUE(reply.has_value());
  std::string sse(reply->Find("value")->GetString("body").value_or(""));
  ASSERT_NE(sse.find("response.completed"), std::string::npos);
  // Split inside the first multi-byte character there is, if any: bytes may split anywhere.
  std::string a = sse.substr(0, sse.size() / 2), b = sse.substr(sse.size() / 2);
  const std::string by_ref =
      R"({"delivery":{"type":"model_events","request_id":"req-1","sse":{"$bytes":0}}})";
  std::string end = f.engine.Call(f.handle, "deliver", by_ref, {a});
  end += f.engine.Call(f.handle, "deliver", by_ref, {b});
  end += f.engine.Call(f.handle, "deliver",
                       R"({"delivery":{"type":"model_events","request_id":"req-1","end":true}})");
  EXPECT_NE(end.find("\"turn_complete\""), std::string::npos) << end;
  EXPECT_NE(end.find("Mock reply to: hi"), std::string::npos) << end;
}

TEST(Attachments, BadReferenceIsInvalidInputAndChangesNothing) {
  Fixture f;
  f.engine.Call(f.handle, "submit", R"({"text":"hi"})");
  std::string before = f.engine.Call(f.handle, "history", "{}");
  std::string bad = f.engine.Call(
      f.handle, "deliver",
      R"({"delivery":{"type":"model_events","request_id":"req-1","sse":{"$bytes":3}}})", {"x"});
  EXPECT_NE(bad.find("\"invalid_input\""), std::string::npos) << bad;
  EXPECT_NE(bad.find("names no attachment"), std::string::npos) << bad;
  EXPECT_EQ(f.engine.Call(f.handle, "history", "{}"), before);
  std::string mock =
      f.engine.Call(0, "mock.respond", R"({"endpoint":"responses","body":{"$bytes":0}})");
  EXPECT_NE(mock.find("\"invalid_input\""), std::string::npos) << mock;
  std::string inspect = f.engine.Call(0, "rollout.inspect", R"({"text":{"$bytes":-1}})", {"x"});
  EXPECT_NE(inspect.find("\"invalid_input\""), std::string::npos) << inspect;
}

TEST(Attachments, ResumeAndInspectTakeRolloutBytes) {
  Fixture f;
  std::string rollout;
  auto collect = [&](const std::string& env) {
    auto parsed = ParseJson(env);
    for (const auto& e : parsed->Find("value")->Find("effects")->items()) {
      if (e.GetString("type") != "persist") continue;
      for (const auto& line : e.Find("lines")->items()) rollout += line.string_value() + "\n";
    }
  };
  Engine engine;
  std::uint32_t h = engine.Open();
  auto fs = std::make_shared<MemoryFileSystem>();
  (void)fs->AddDir("/repo");
  engine.AddFileSystem(h, "workspace", fs);
  collect(engine.Call(h, "session.start", kConfig));
  collect(engine.Call(h, "submit", R"({"text":"hi"})"));
  ASSERT_FALSE(rollout.empty());

  std::uint32_t other = engine.Open();
  engine.AddFileSystem(other, "workspace", fs);
  std::string cfg(kConfig);
  std::string resume = cfg.substr(0, cfg.size() - 1) + R"(,"rollout":{"$bytes":0}})";
  std::string resumed = engine.Call(other, "session.resume", resume, {rollout});
  EXPECT_NE(resumed.find("\"ok\":true"), std::string::npos) << resumed;
  std::string report = engine.Call(0, "rollout.inspect", R"({"text":{"$bytes":0}})", {rollout});
  EXPECT_NE(report.find("\"report\""), std::string::npos) << report;
}

TEST(Attachments, OrdinaryObjectsAreNotReferences) {
  EXPECT_FALSE(InputRefIndex(*ParseJson(R"({"$bytes":0,"x":1})")).has_value());
  EXPECT_FALSE(InputRefIndex(*ParseJson(R"({"$bytes":"0"})")).has_value());
  EXPECT_EQ(InputRefIndex(*ParseJson(R"({"$bytes":2})")), 2);
}

// The persist lines reach a boundary through the facade (the WASI guest appends them without
// parsing the envelope): exactly the lines the envelope's persist effect carries, cleared by
// the next call.
TEST(PersistLines, AreTheEnvelopesPersistLinesAndLastOneCall) {
  Fixture f;
  std::string env = f.engine.Call(f.handle, "submit", R"({"text":"hi"})");
  auto parsed = ParseJson(env);
  ASSERT_TRUE(parsed.has_value());
  const JsonValue& persist = parsed->Find("value")->Find("effects")->items()[0];
  ASSERT_EQ(persist.GetString("type"), "persist");
  std::vector<std::string_view> lines = f.engine.PersistLines(f.handle);
  ASSERT_EQ(lines.size(), persist.Find("lines")->items().size());
  for (std::size_t i = 0; i < lines.size(); ++i) {
    EXPECT_EQ(lines[i], persist.Find("lines")->items()[i].string_value());
  }
  (void)f.engine.Call(f.handle, "stats", "{}");
  EXPECT_TRUE(f.engine.PersistLines(f.handle).empty());
  (void)f.engine.Call(f.handle, "submit", R"({"text":"again"})");  // turn_in_progress
  EXPECT_TRUE(f.engine.PersistLines(f.handle).empty());
  EXPECT_TRUE(f.engine.PersistLines(999).empty());
}

TEST(PublicEnvelope, MatchesTheEnginesSpellingAndReadsOneString) {
  EXPECT_EQ(OkEnvelopeWithString("path", "/state/a \"b\".jsonl"),
            R"({"v":1,"ok":true,"value":{"path":"/state/a \"b\".jsonl"}})");
  Engine engine;
  EXPECT_EQ(ErrorEnvelopeFor(Error{ErrorCode::kBadHandle, "no open session has handle 9", {}}),
            engine.Call(9, "stats", "{}"));
  EXPECT_EQ(JsonObjectString(R"({"path":"/x"})", "path").value(), std::optional<std::string>("/x"));
  EXPECT_EQ(JsonObjectString(R"({"path":1})", "path").value(), std::nullopt);
  EXPECT_EQ(JsonObjectString("", "path").value(), std::nullopt);
  EXPECT_EQ(JsonObjectString("[1]", "path").error().code, ErrorCode::kInvalidInput);
  EXPECT_EQ(JsonObjectString("{", "path").error().code, ErrorCode::kInvalidJson);
}

}  // namespace
}  // namespace agentctx
