// SPDX-License-Identifier: MIT
// Live and replay tell the same story (docs/replay.md): a session that switches provider names
// `provider_changed` in its cache report (best possible 0) and the replay of its rollout names
// the same cause; a session resumed with another model names `model_changed` for its first
// request, and so does the replay.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "protocol/json_codec.h"
#include "rollout/replay.h"
#include "support/session_driver.h"

namespace agentctx {
namespace {

using testing::SessionDriver;

std::string Config(const std::string& model, const std::string& extra = "") {
  return R"({"session_id":"cause-1","model":{"slug":")" + model +
         R"("},"approval_policy":"never",)"
         R"("environments":[{"id":"local","cwd":"/repo","shell":"bash","fs":"workspace"}])" +
         extra + "}";
}

void AddFiles(SessionDriver* d) {
  ASSERT_TRUE(d->fs()->AddFile("/repo/src/a.txt", "one\ntwo\n").has_value());
}

std::vector<const JsonValue*> Reports(const std::vector<JsonValue>& effects) {
  std::vector<const JsonValue*> out;
  for (const auto& e : effects) {
    if (e.GetString("type") == "event" && e.Find("event")->GetString("type") == "cache_report") {
      out.push_back(e.Find("event"));
    }
  }
  return out;
}
// The pointers point into `effects`: never call it on a temporary.
std::vector<const JsonValue*> Reports(std::vector<JsonValue>&&) = delete;

std::string_view BreakReason(const JsonValue& report_or_request) {
  const JsonValue* b = report_or_request.Find("break");
  return b != nullptr && b->is_object() ? b->GetString("reason").value_or("") : "";
}

// The replayed request whose id the session gave it (replay numbers requests the same way for
// an agentctx rollout whose requests all have usage).
const JsonValue* ReplayedRequestAtLine(const JsonValue& report, std::size_t index) {
  const auto& items = report.Find("requests")->items();
  return index < items.size() ? &items[index] : nullptr;
}

TEST(CacheCauseSession, AProviderSwitchIsProviderChangedLiveAndInReplay) {
  SessionDriver d;
  AddFiles(&d);
  ASSERT_NE(d.Start(Config("mock-1")).find("\"ok\":true"), std::string::npos);
  auto first = d.Submit("Hello there.", 1000);
  const std::size_t before = d.request_bodies().size();
  d.Update(R"({"provider":"anthropic"})", 2000);
  auto effects = d.Submit("Again, please.", 3000);
  auto reports = Reports(effects);
  ASSERT_FALSE(reports.empty());
  // Live: the first request to the new provider.
  EXPECT_EQ(BreakReason(*reports[0]), "provider_changed") << ToJson(*reports[0]);
  EXPECT_EQ(reports[0]->GetInt("max_reuse_bp"), 0) << "best possible 0, not 100 %";
  EXPECT_EQ(reports[0]->GetInt("ideal_cached_tokens"), 0);

  // Replay of the same rollout: the same cause for the same request.
  auto report = ReplayReport(d.RolloutText());
  ASSERT_TRUE(report.has_value()) << report.error().message;
  const JsonValue* replayed = ReplayedRequestAtLine(*report, before);
  ASSERT_NE(replayed, nullptr) << ToJson(*report);
  EXPECT_EQ(BreakReason(*replayed), "provider_changed") << ToJson(*replayed);
  const JsonValue* causes = replayed->Find("lost_tokens_by_cause");
  ASSERT_NE(causes, nullptr);
  EXPECT_EQ(causes->Find("server_miss"), nullptr) << ToJson(*replayed);
  EXPECT_EQ(causes->Find("cache_key_changed"), nullptr) << ToJson(*replayed);
  EXPECT_EQ(causes->Find("instructions_changed"), nullptr) << ToJson(*replayed);
  if (replayed->GetInt("lost_tokens").value_or(0) > 0) {
    EXPECT_EQ(replayed->GetString("cause"), "provider_changed") << ToJson(*replayed);
  }
  EXPECT_EQ(replayed->GetInt("ideal_cached_tokens"), 0);
}

TEST(CacheCauseSession, AModelChangeAtAResumeIsModelChangedLiveAndInReplay) {
  SessionDriver original;
  AddFiles(&original);
  ASSERT_NE(original.Start(Config("mock-1")).find("\"ok\":true"), std::string::npos);
  original.Submit("Please read src/a.txt.", 1000);
  original.Submit("Thanks.", 2000);
  const std::string rollout = original.RolloutText();
  const std::size_t before = original.request_bodies().size();

  SessionDriver resumed;
  AddFiles(&resumed);
  std::string env = resumed.Call("session.resume", "{\"config\":" + Config("mock-2") +
                                                       ",\"rollout\":" + JsonString(rollout) +
                                                       ",\"now_ms\":3000}");
  ASSERT_NE(env.find("\"ok\":true"), std::string::npos) << env;
  auto effects = resumed.Submit("One more.", 4000);
  auto reports = Reports(effects);
  ASSERT_FALSE(reports.empty());
  EXPECT_EQ(BreakReason(*reports[0]), "model_changed") << ToJson(*reports[0]);
  EXPECT_GT(*reports[0]->GetInt("max_reuse_bp"), 0);

  auto report = ReplayReport(rollout + resumed.RolloutText());
  ASSERT_TRUE(report.has_value()) << report.error().message;
  const JsonValue* replayed = ReplayedRequestAtLine(*report, before);
  ASSERT_NE(replayed, nullptr);
  EXPECT_EQ(replayed->GetString("model"), "mock-2");
  EXPECT_EQ(BreakReason(*replayed), "model_changed") << ToJson(*replayed);
  const JsonValue* causes = replayed->Find("lost_tokens_by_cause");
  ASSERT_NE(causes, nullptr);
  EXPECT_EQ(causes->Find("server_miss"), nullptr) << ToJson(*replayed);

  // The same model at the resume: nothing to name, as before.
  SessionDriver same;
  AddFiles(&same);
  env = same.Call("session.resume", "{\"config\":" + Config("mock-1") + ",\"rollout\":" +
                                        JsonString(rollout) + ",\"now_ms\":3000}");
  ASSERT_NE(env.find("\"ok\":true"), std::string::npos) << env;
  const std::vector<JsonValue> again_effects = same.Submit("One more.", 4000);
  auto again = Reports(again_effects);
  ASSERT_FALSE(again.empty());
  EXPECT_EQ(BreakReason(*again[0]), "") << ToJson(*again[0]);
}

}  // namespace
}  // namespace agentctx
