// SPDX-License-Identifier: MIT
// `update` refuses a cwd that is not an existing directory in its environment's FileSystem
// (checked through the injected FileSystem): invalid_config naming the path, and nothing
// changes — the next request still names the old cwd. A valid change goes through.
// `session.start` refuses such a cwd the same way: nothing is persisted, and the handle can
// start again with a cwd that exists.
#include <gtest/gtest.h>

#include "protocol/json_codec.h"
#include "support/session_driver.h"

namespace agentctx {
namespace {

using testing::SessionDriver;

const char kConfig[] =
    R"({"session_id":"s-1","model":{"slug":"mock-1","instructions":"You are a helpful coding agent."},)"
    R"("approval_policy":"never","sandbox":{"mode":"read-only"},)"
    R"("environments":[{"id":"local","cwd":"/repo","shell":"bash","fs":"workspace"}]})";

/// The error of an envelope: {code, message}; code "" when the call succeeded.
std::pair<std::string, std::string> ErrorOf(const std::string& envelope) {
  auto parsed = ParseJson(envelope);
  if (!parsed) return {"unparsable", envelope};
  const JsonValue* error = parsed->Find("error");
  if (error == nullptr) return {"", ""};
  return {std::string(error->GetString("code").value_or("")),
          std::string(error->GetString("message").value_or(""))};
}

class UpdateCwd : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(d.fs()->AddFile("/repo/src/main.rs", "fn main() {}\n").has_value());
    ASSERT_TRUE(d.fs()->AddFile("/repo/README.md", "# readme\n").has_value());
    d.Start(kConfig);
    d.Submit("one", 0);
  }
  SessionDriver d;
};

TEST_F(UpdateCwd, AMissingDirectoryIsInvalidConfigAndChangesNothing) {
  auto [code, message] = ErrorOf(d.Call("update", R"({"delta":{"cwd":"/repo/nope"},"now_ms":10})"));
  EXPECT_EQ(code, "invalid_config");
  EXPECT_NE(message.find("/repo/nope"), std::string::npos) << message;
  EXPECT_NE(message.find("does not exist"), std::string::npos) << message;
  d.Submit("two", 20);
  const std::string& last = d.request_bodies().back();
  EXPECT_EQ(last.find("/repo/nope"), std::string::npos);
  // The same refusal through the environments array (a merge patch replaces it whole).
  auto [code2, message2] = ErrorOf(d.Call(
      "update",
      R"({"delta":{"environments":[{"id":"local","cwd":"/elsewhere","shell":"bash","fs":"workspace"}]}})"));
  EXPECT_EQ(code2, "invalid_config");
  EXPECT_NE(message2.find("environments[0].cwd /elsewhere"), std::string::npos) << message2;
}

TEST_F(UpdateCwd, AFileIsNotADirectory) {
  auto [code, message] = ErrorOf(d.Call("update", R"({"delta":{"cwd":"/repo/README.md"}})"));
  EXPECT_EQ(code, "invalid_config");
  EXPECT_NE(message.find("/repo/README.md is not a directory"), std::string::npos) << message;
}

TEST_F(UpdateCwd, AnExistingDirectoryIsApplied) {
  auto [code, message] = ErrorOf(d.Call("update", R"({"delta":{"cwd":"/repo/src"}})"));
  EXPECT_EQ(code, "") << message;
  d.Submit("two", 20);
  EXPECT_NE(d.request_bodies().back().find("<cwd>/repo/src</cwd>"), std::string::npos);
}

TEST_F(UpdateCwd, OtherChangesDoNotRecheckAnUnchangedCwd) {
  // The cwd's directory disappears after it was set; an unrelated update still applies, and
  // setting that cwd again is refused.
  ASSERT_EQ(ErrorOf(d.Call("update", R"({"delta":{"cwd":"/repo/src"}})")).first, "");
  ASSERT_TRUE(d.fs()->Remove("/repo/src").has_value());
  EXPECT_EQ(ErrorOf(d.Call("update", R"({"delta":{"approval_policy":"on-request"}})")).first, "");
  EXPECT_EQ(ErrorOf(d.Call("update", R"({"delta":{"cwd":"/repo"}})")).first, "");
  EXPECT_EQ(ErrorOf(d.Call("update", R"({"delta":{"cwd":"/repo/src"}})")).first, "invalid_config");
}

std::string ConfigWithCwd(const std::string& cwd) {
  std::string config = kConfig;
  const std::string from = R"("cwd":"/repo")";
  config.replace(config.find(from), from.size(), R"("cwd":")" + cwd + "\"");
  return config;
}

TEST(StartCwd, AMissingOrFileCwdIsInvalidConfigAndTheHandleCanStartAgain) {
  SessionDriver d;
  ASSERT_TRUE(d.fs()->AddFile("/repo/README.md", "# readme\n").has_value());
  for (const auto& [cwd, words] :
       std::vector<std::pair<std::string, std::string>>{{"/repo/nope", "does not exist"},
                                                        {"/repo/README.md", "is not a directory"},
                                                        {"/repo/README.md/x", "does not exist"}}) {
    SCOPED_TRACE(cwd);
    auto [code, message] = ErrorOf(d.Start(ConfigWithCwd(cwd)));
    EXPECT_EQ(code, "invalid_config");
    EXPECT_NE(message.find("environments[0].cwd " + cwd + " " + words), std::string::npos)
        << message;
    EXPECT_TRUE(d.rollout().empty());  // nothing persisted: no session_meta for a refused start
  }
  // The refusals left the handle unstarted: it starts with a cwd that exists and runs a turn.
  auto [code, message] = ErrorOf(d.Start(kConfig));
  ASSERT_EQ(code, "") << message;
  d.Submit("hello", 10);
  EXPECT_NE(d.request_bodies().back().find("<cwd>/repo</cwd>"), std::string::npos);
}

TEST(StartCwd, EveryEnvironmentsCwdIsChecked) {
  SessionDriver d;
  ASSERT_TRUE(d.fs()->AddDir("/repo").has_value());
  std::string config = kConfig;
  const std::string env = R"({"id":"local","cwd":"/repo","shell":"bash","fs":"workspace"})";
  config.replace(config.find(env), env.size(),
                 env + R"(,{"id":"other","cwd":"/gone","shell":"bash","fs":"workspace"})");
  auto [code, message] = ErrorOf(d.Start(config));
  EXPECT_EQ(code, "invalid_config");
  EXPECT_NE(message.find("environments[1].cwd /gone does not exist"), std::string::npos) << message;
}

}  // namespace
}  // namespace agentctx
