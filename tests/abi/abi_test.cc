// SPDX-License-Identifier: MIT
// The C ABI (wasi-host/include/agentctx_abi.h) on every runner: alloc/free, bad handles (-1,
// nothing written), ok and error envelopes, per-handle output buffers, and each session
// slot's `workspace` FileSystem reached through the fs.* methods.
// The glue holds one process-wide Engine, so tests open their own handles and never assume
// handle numbers.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "abi_glue.h"
#include "agentctx/engine.h"
#include "agentctx_abi.h"
#include "support/fixtures.h"

namespace agentctx {
namespace {

// Copies through guest-owned memory as a host does.
int32_t Call(uint32_t handle, const std::string& method, const std::string& input) {
  uint8_t* m = actx_alloc(static_cast<uint32_t>(method.size()));
  uint8_t* in = actx_alloc(static_cast<uint32_t>(input.size()));
  std::memcpy(m, method.data(), method.size());
  std::memcpy(in, input.data(), input.size());
  int32_t rc = actx_call(handle, m, static_cast<uint32_t>(method.size()), in,
                         static_cast<uint32_t>(input.size()));
  actx_free(m, static_cast<uint32_t>(method.size()));
  actx_free(in, static_cast<uint32_t>(input.size()));
  return rc;
}

std::string Output(uint32_t handle) {
  const uint8_t* p = actx_output_ptr(handle);
  return p == nullptr ? std::string()
                      : std::string(reinterpret_cast<const char*>(p), actx_output_len(handle));
}

std::string VersionEnvelope() {
  return std::string(R"({"v":1,"ok":true,"value":{"version":")") + std::string(Engine::Version()) +
         "\"}}";
}

TEST(Abi, ReportsItsVersion) { EXPECT_EQ(actx_abi_version(), 2u); }

TEST(Abi, AllocAndFree) {
  uint8_t* p = actx_alloc(64);
  ASSERT_NE(p, nullptr);
  std::memset(p, 0xab, 64);
  actx_free(p, 64);
  uint8_t* empty = actx_alloc(0);
  EXPECT_NE(empty, nullptr);
  actx_free(empty, 0);
  actx_free(nullptr, 0);  // ignored
}

TEST(Abi, OkEnvelopeOnTheEngineHandle) {
  EXPECT_EQ(Call(0, "version", "{}"), 0);
  EXPECT_EQ(Output(0), VersionEnvelope());
  EXPECT_EQ(Call(0, "config.echo", R"({"b":1,"a":null})"), 0);
  EXPECT_EQ(Output(0), std::string(R"({"v":1,"ok":true,"value":{"config":{"a":null,"b":1},)") +
                           R"("version":")" + std::string(Engine::Version()) + "\"}}");
}

TEST(Abi, ErrorEnvelopes) {
  EXPECT_EQ(Call(0, "config.echo", "{nope"), 1);
  EXPECT_EQ(
      Output(0),
      R"({"v":1,"ok":false,"error":{"code":"invalid_json","message":"invalid JSON at byte 1: Missing a name for object member.","details":{"offset":"1"}}})");
  EXPECT_EQ(Call(0, "no.such.method", "{}"), 1);
  EXPECT_NE(Output(0).find(R"("code":"unknown_method")"), std::string::npos);
  // Empty method and input (null pointers with length 0) are fine, not a crash.
  EXPECT_EQ(actx_call(0, nullptr, 0, nullptr, 0), 1);
  EXPECT_NE(Output(0).find(R"("code":"unknown_method")"), std::string::npos);
}

TEST(Abi, BadHandlesGiveMinusOneAndWriteNothing) {
  ASSERT_EQ(Call(0, "version", "{}"), 0);
  const uint32_t kNever = 0xfffffff0u;
  EXPECT_EQ(Call(kNever, "version", "{}"), -1);
  EXPECT_EQ(actx_output_ptr(kNever), nullptr);
  EXPECT_EQ(actx_output_len(kNever), 0u);
  EXPECT_EQ(Output(0), VersionEnvelope());  // untouched

  uint32_t h = actx_open();
  ASSERT_NE(h, 0u);
  actx_close(h);
  EXPECT_EQ(Call(h, "version", "{}"), -1);  // closed handles stay bad (never reused)
  EXPECT_EQ(actx_output_ptr(h), nullptr);
  actx_close(h);       // twice: ignored
  actx_close(kNever);  // unknown: ignored
  actx_close(0);       // the engine handle cannot be closed
  EXPECT_EQ(Call(0, "version", "{}"), 0);
}

TEST(Abi, OutputBuffersArePerHandle) {
  uint32_t a = actx_open();
  uint32_t b = actx_open();
  ASSERT_NE(a, 0u);
  ASSERT_NE(b, 0u);
  ASSERT_NE(a, b);
  EXPECT_EQ(actx_output_len(a), 0u);  // nothing yet

  ASSERT_EQ(Call(0, "version", "{}"), 0);
  ASSERT_EQ(Call(a, "nope.a", "{}"), 1);
  ASSERT_EQ(Call(b, "nope.b", "{}"), 1);
  const std::string out_a = Output(a);
  EXPECT_NE(out_a.find("unknown session method: nope.a"), std::string::npos);
  EXPECT_NE(Output(b).find("unknown session method: nope.b"), std::string::npos);
  EXPECT_EQ(Output(0), VersionEnvelope());

  // A call on b (and on 0) leaves a's buffer, and its pointer, as they were.
  const uint8_t* ptr_a = actx_output_ptr(a);
  ASSERT_EQ(Call(b, "nope.again", "{\"x\":[1,2,3]}"), 1);
  ASSERT_EQ(Call(0, "stats", "{}"), 0);
  EXPECT_EQ(actx_output_ptr(a), ptr_a);
  EXPECT_EQ(Output(a), out_a);
  EXPECT_NE(Output(b).find("nope.again"), std::string::npos);

  actx_close(a);
  EXPECT_EQ(actx_output_ptr(a), nullptr);
  EXPECT_NE(Output(b).find("nope.again"), std::string::npos);
  actx_close(b);
}

TEST(Abi, StatsCountOpenSlots) {
  ASSERT_EQ(Call(0, "stats", "{}"), 0);
  const std::string before = Output(0);
  uint32_t h = actx_open();
  ASSERT_EQ(Call(0, "stats", "{}"), 0);
  EXPECT_NE(Output(0), before);
  actx_close(h);
  ASSERT_EQ(Call(0, "stats", "{}"), 0);
  EXPECT_EQ(Output(0), before);
}

TEST(Abi, SessionSlotsHaveAWorkspaceFileSystem) {
  const std::string root = testing::FixturePath("posix_fs");
  abi::SetWorkspaceRoot(root);
  uint32_t h = actx_open();
  abi::SetWorkspaceRoot("/workspace");
  ASSERT_NE(h, 0u);

  ASSERT_EQ(Call(h, "fs.read", R"({"fs":"workspace","path":")" + root + R"(/hello.txt"})"), 0)
      << Output(h);
  EXPECT_EQ(Output(h), R"({"v":1,"ok":true,"value":{"text":"hello, sandbox\n","bytes":15}})");
  ASSERT_EQ(Call(h, "fs.list", R"({"fs":"workspace","path":")" + root + R"("})"), 0);
  EXPECT_EQ(
      Output(h),
      R"({"v":1,"ok":true,"value":{"entries":[{"name":"hello.txt","kind":"file"},{"name":"latin.txt","kind":"file"},{"name":"sub","kind":"dir"}]}})");
  ASSERT_EQ(Call(h, "fs.stat", R"({"fs":"workspace","path":")" + root + R"(/sub/nested.txt"})"), 0);
  EXPECT_NE(Output(h).find(R"({"kind":"file","size":7,"mtime_ms":)"), std::string::npos);
  // Outside the root, and `..`, never reach the system.
  ASSERT_EQ(Call(h, "fs.read", R"({"fs":"workspace","path":"/etc/passwd"})"), 1);
  EXPECT_EQ(
      Output(h),
      R"({"v":1,"ok":false,"error":{"code":"not_capable","message":"read /etc/passwd","details":{"path":"/etc/passwd"}}})");
  ASSERT_EQ(Call(h, "fs.read", R"({"fs":"workspace","path":")" + root + R"(/../x"})"), 1);
  EXPECT_NE(Output(h).find(R"("code":"invalid_path")"), std::string::npos);
  actx_close(h);
}

// Attachments (docs/boundary.md): a request body leaves as a pointer/length pair, never inside
// the envelope; large inputs arrive through actx_attach buffers.
TEST(Abi, AttachmentsCrossAsPointerAndLength) {
  const std::string root = testing::FixturePath("posix_fs");
  abi::SetWorkspaceRoot(root);
  uint32_t h = actx_open();
  abi::SetWorkspaceRoot("/workspace");
  ASSERT_NE(h, 0u);
  const std::string config =
      R"({"config":{"session_id":"s-abi","model":{"slug":"mock-1"},"builtin_tools":false,)"
      R"("environments":[{"id":"local","cwd":")" +
      root + R"(","fs":"workspace"}]}})";
  ASSERT_EQ(Call(h, "session.start", config), 0) << Output(h);
  EXPECT_EQ(actx_attachment_count(h), 0u);
  ASSERT_EQ(Call(h, "submit", R"({"text":"hi"})"), 0) << Output(h);
  ASSERT_EQ(actx_attachment_count(h), 1u);
  const uint32_t len = actx_attachment_len(h, 0);
  std::string body(reinterpret_cast<const char*>(actx_attachment_ptr(h, 0)), len);
  EXPECT_EQ(body.substr(0, 19), R"({"model":"mock-1",")");
  EXPECT_NE(Output(h).find(R"("body":{"$bytes":0,"length":)" + std::to_string(len) + "}"),
            std::string::npos);
  EXPECT_EQ(actx_attachment_ptr(h, 1), nullptr);
  EXPECT_EQ(actx_attachment_len(h, 1), 0u);

  // The body goes back in as an input attachment of mock.respond on the engine handle.
  uint8_t* in = actx_attach(0, len);
  ASSERT_NE(in, nullptr);
  std::memcpy(in, body.data(), len);
  ASSERT_EQ(Call(0, "mock.respond", R"({"endpoint":"responses","body":{"$bytes":0}})"), 0)
      << Output(0);
  EXPECT_NE(Output(0).find("response.completed"), std::string::npos);
  // Consumed by that call: the next one has no input attachment.
  EXPECT_EQ(Call(0, "mock.respond", R"({"endpoint":"responses","body":{"$bytes":0}})"), 1);
  EXPECT_NE(Output(0).find("invalid_input"), std::string::npos);
  EXPECT_EQ(actx_attach(987654, 4), nullptr);
  EXPECT_EQ(actx_attachment_count(987654), 0u);
  actx_close(h);
}

TEST(Abi, DefaultWorkspaceIsTheGuestPreopen) {
  EXPECT_EQ(abi::WorkspaceRoot(), "/workspace");
  uint32_t h = actx_open();
  ASSERT_NE(h, 0u);
  ASSERT_EQ(Call(h, "fs.stat", R"({"fs":"workspace","path":"/state/x"})"), 1);
  EXPECT_NE(Output(h).find(R"("code":"not_capable")"), std::string::npos);
  actx_close(h);
}

TEST(Abi, HomeGivesOnlyItsAgentsFiles) {
  const std::string root = testing::FixturePath("posix_fs");
  const std::string home = testing::FixturePath("abi_home");
  abi::SetWorkspaceRoot(root);
  abi::SetHomeDir(home);
  uint32_t h = actx_open();
  abi::SetWorkspaceRoot("/workspace");
  abi::SetHomeDir("/state");
  ASSERT_NE(h, 0u);
  auto call = [&](const std::string& method, const std::string& path) {
    return Call(h, method, R"({"fs":"workspace","path":")" + path + R"(","text":"x"})");
  };
  ASSERT_EQ(call("fs.read", home + "/AGENTS.md"), 0) << Output(h);
  EXPECT_NE(Output(h).find(R"("text":"reply prefix: [home]\n")"), std::string::npos) << Output(h);
  ASSERT_EQ(call("fs.stat", home + "/AGENTS.md"), 0) << Output(h);
  // A missing override is not_found (the loader skips it), not a refusal.
  ASSERT_EQ(call("fs.stat", home + "/AGENTS.override.md"), 1);
  EXPECT_NE(Output(h).find(R"("code":"not_found")"), std::string::npos) << Output(h);
  // Everything else in the home stays out of reach: other files, rollouts, listing, writes.
  for (const std::string& path : {home + "/notes.txt", home + "/sessions/rollout.jsonl", home}) {
    ASSERT_EQ(call("fs.read", path), 1) << path;
    EXPECT_NE(Output(h).find(R"("code":"not_capable")"), std::string::npos) << Output(h);
  }
  ASSERT_EQ(call("fs.list", home), 1);
  EXPECT_NE(Output(h).find(R"("code":"not_capable")"), std::string::npos) << Output(h);
  ASSERT_EQ(call("fs.write", home + "/AGENTS.md"), 1);
  EXPECT_NE(Output(h).find(R"("code":"not_capable")"), std::string::npos) << Output(h);
  // The workspace is unchanged.
  ASSERT_EQ(call("fs.read", root + "/hello.txt"), 0) << Output(h);
  actx_close(h);
}

TEST(Abi, RolloutOpenValidatesItsInput) {
  uint32_t h = actx_open();
  ASSERT_NE(h, 0u);
  EXPECT_EQ(Call(h, "rollout.open", "{}"), 1);
  EXPECT_NE(Output(h).find(R"("code":"invalid_input")"), std::string::npos) << Output(h);
  EXPECT_EQ(Call(h, "rollout.open", "{bad"), 1);
  EXPECT_NE(Output(h).find(R"("code":"invalid_json")"), std::string::npos) << Output(h);
  EXPECT_EQ(Call(h, "rollout.open", R"({"path":"relative.jsonl"})"), 1);
  EXPECT_NE(Output(h).find(R"("code":"invalid_path")"), std::string::npos) << Output(h);
  const std::string missing = testing::FixturePath("abi_home/no/such/dir/r.jsonl");
  EXPECT_EQ(Call(h, "rollout.open", R"({"path":")" + missing + R"("})"), 1);
  EXPECT_NE(Output(h).find(R"("code":"not_found")"), std::string::npos) << Output(h);
  // The engine handle has no rollout: the method is unknown there.
  EXPECT_EQ(Call(0, "rollout.open", R"({"path":"/x"})"), 1);
  EXPECT_NE(Output(0).find(R"("code":"unknown_method")"), std::string::npos) << Output(0);
  // Calls without a bound rollout are untouched.
  EXPECT_EQ(Call(h, "history", "{}"), 1);
  EXPECT_NE(Output(h).find(R"("code":"invalid_state")"), std::string::npos) << Output(h);
  actx_close(h);
}

#if !defined(__wasi__) && !defined(__EMSCRIPTEN__)
// A rollout that cannot be written turns the ok envelope into an `io` error (native only:
// /dev/full accepts the open and fails every flush). The Node tests cover real appends.
TEST(Abi, RolloutWriteFailureIsAnIoError) {
  FILE* probe = std::fopen("/dev/full", "ab");
  if (probe == nullptr) GTEST_SKIP() << "/dev/full is not available";
  std::fclose(probe);
  const std::string root = testing::FixturePath("posix_fs");
  abi::SetWorkspaceRoot(root);
  uint32_t h = actx_open();
  abi::SetWorkspaceRoot("/workspace");
  ASSERT_NE(h, 0u);
  ASSERT_EQ(Call(h, "rollout.open", R"({"path":"/dev/full"})"), 0) << Output(h);
  EXPECT_EQ(Output(h), R"({"v":1,"ok":true,"value":{"path":"/dev/full"}})");
  const std::string config =
      R"({"config":{"session_id":"s","model":{"slug":"m"},"environments":[{"id":"e","cwd":")" +
      root + R"(","fs":"workspace"}]}})";
  ASSERT_EQ(Call(h, "session.start", config), 1);
  EXPECT_EQ(
      Output(h),
      R"({"v":1,"ok":false,"error":{"code":"io","message":"rollout.flush /dev/full: the rollout misses this call's lines; stop and resume from it","details":{"path":"/dev/full"}}})");
  // Queries carry no persist lines: they still answer.
  EXPECT_EQ(Call(h, "stats", "{}"), 0) << Output(h);
  actx_close(h);
}
#endif

}  // namespace
}  // namespace agentctx
