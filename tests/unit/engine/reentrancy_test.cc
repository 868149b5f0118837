// SPDX-License-Identifier: MIT
// Calls made into an Engine from inside one of its FileSystem callbacks (a host's FileSystem
// may call back into the engine while a call is running): they are refused with invalid_state,
// a Close is deferred to the end of the running call, and the running call finishes intact.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "agentctx/engine.h"
#include "support/memory_file_system.h"

namespace agentctx {
namespace {

constexpr const char* kConfig =
    R"({"config":{"session_id":"s-1","model":{"slug":"mock-1"},"builtin_tools":false,)"
    R"("agents_md":{"refresh":"probe"},)"
    R"("environments":[{"id":"local","cwd":"/repo","fs":"workspace"}]}})";

// A MemoryFileSystem whose Stat runs `on_stat` (once armed) before answering.
class CallbackFileSystem : public MemoryFileSystem {
 public:
  std::function<void()> on_stat;
  Result<FileStat> Stat(std::string_view path) override {
    if (on_stat) {
      std::function<void()> callback = std::move(on_stat);
      on_stat = nullptr;  // once: a callback runs inside one call only
      callback();
    }
    return MemoryFileSystem::Stat(path);
  }
};

struct Fixture {
  Engine engine;
  std::uint32_t handle = 0;
  std::shared_ptr<CallbackFileSystem> fs = std::make_shared<CallbackFileSystem>();
  Fixture() {
    (void)fs->AddDir("/repo");
    handle = engine.Open();
    engine.AddFileSystem(handle, "workspace", fs);
  }
};

bool IsError(const std::string& envelope, const std::string& code) {
  return envelope.find("\"ok\":false") != std::string::npos &&
         envelope.find("\"code\":\"" + code + "\"") != std::string::npos;
}

bool IsOk(const std::string& envelope) { return envelope.find("\"ok\":true") != std::string::npos; }

TEST(Regression, ReentrantQueryFromFileSystemCallbackIsRefused) {
  Fixture f;
  ASSERT_TRUE(IsOk(f.engine.Call(f.handle, "session.start", kConfig)));
  std::vector<std::string> inner;
  f.fs->on_stat = [&] {
    inner.push_back(f.engine.Call(f.handle, "history", "{}"));
    inner.push_back(f.engine.Call(0, "stats", "{}"));
  };
  std::string outer = f.engine.Call(f.handle, "submit", R"({"text":"hi"})");
  ASSERT_EQ(inner.size(), 2u) << "submit must stat through the FileSystem (probe mode)";
  for (const std::string& envelope : inner) {
    EXPECT_TRUE(IsError(envelope, "invalid_state")) << envelope;
    EXPECT_NE(envelope.find("FileSystem callback"), std::string::npos) << envelope;
  }
  EXPECT_TRUE(IsOk(outer)) << outer;
  EXPECT_NE(outer.find("model_request"), std::string::npos);
  // Once the call returned, the same query works.
  EXPECT_TRUE(IsOk(f.engine.Call(f.handle, "history", "{}")));
}

TEST(Regression, ReentrantSessionStartFromFileSystemCallbackIsRefused) {
  Fixture f;
  std::string inner;
  f.fs->on_stat = [&] { inner = f.engine.Call(f.handle, "session.start", kConfig); };
  std::string outer = f.engine.Call(f.handle, "session.start", kConfig);
  EXPECT_TRUE(IsError(inner, "invalid_state")) << inner;
  EXPECT_TRUE(IsOk(outer)) << outer;
  // Exactly one session: a second start is refused as usual.
  EXPECT_TRUE(IsError(f.engine.Call(f.handle, "session.start", kConfig), "invalid_state"));
  EXPECT_TRUE(IsOk(f.engine.Call(f.handle, "submit", R"({"text":"hi"})")));
}

TEST(Regression, CloseFromFileSystemCallbackIsDeferredToTheEndOfTheCall) {
  Fixture f;
  ASSERT_TRUE(IsOk(f.engine.Call(f.handle, "session.start", kConfig)));
  const std::uint32_t other = f.engine.Open();
  bool ran = false;
  f.fs->on_stat = [&] {
    ran = true;
    f.engine.Close(f.handle);
    f.engine.Close(other);
    // Still there until the running call returns (it is using the session).
    EXPECT_EQ(f.engine.OpenHandles(), 2u);
  };
  std::string outer = f.engine.Call(f.handle, "submit", R"({"text":"hi"})");
  ASSERT_TRUE(ran);
  EXPECT_TRUE(IsError(outer, "bad_handle")) << outer;
  EXPECT_NE(outer.find("closed during this call"), std::string::npos) << outer;
  EXPECT_EQ(f.engine.OpenHandles(), 0u);
  EXPECT_TRUE(IsError(f.engine.Call(f.handle, "history", "{}"), "bad_handle"));
  EXPECT_EQ(f.engine.AttachmentCount(f.handle), 0u);
  // The engine keeps working.
  const std::uint32_t next = f.engine.Open();
  EXPECT_TRUE(IsOk(f.engine.Call(0, "stats", "{}")));
  f.engine.Close(next);
}

}  // namespace
}  // namespace agentctx
