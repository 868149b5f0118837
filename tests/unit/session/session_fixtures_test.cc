// SPDX-License-Identifier: MIT
// The session fixture corpus (tests/fixtures/sessions/<case>/): each script.json is replayed
// through the Engine facade against the embedded mock model and every output is compared byte
// for byte with expected/{requests,effects,rollout}.jsonl and expected/summary.json. The same
// binary runs natively, under Emscripten and under WASI, and the Node package and WASI host
// runners compare against the same files, so passing everywhere means byte-identical bodies,
// effects and rollouts on every build.
// Goldens are rewritten only natively, with ACTX_UPDATE_GOLDENS=1.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdio>

#include "support/fixtures.h"
#include "support/session_script.h"

namespace agentctx {
namespace {

using testing::ListFixtureDir;
using testing::ReadFixture;
using testing::RunSessionScript;

// Every case in the corpus; CorpusListsEveryCase keeps this in step with the directory.
const char* const kCases[] = {
    "compaction",           "defer_tool_added", "fifty_turns_probe", "host_tools_reverse",
    "interrupt_one_of_two", "layout_per_role",  "model_switch",      "multi_turn_tools",
    "provider_anthropic",   "provider_chat",    "retry_after_cut",   "spec_vectors",
};

// Position and context of the first differing byte, for readable failures.
std::string FirstDifference(const std::string& expected, const std::string& actual) {
  std::size_t i = 0;
  while (i < expected.size() && i < actual.size() && expected[i] == actual[i]) ++i;
  std::size_t line = 1;
  for (std::size_t k = 0; k < i; ++k) line += expected[k] == '\n' ? 1 : 0;
  std::size_t from = i < 80 ? 0 : i - 80;
  return "first difference at byte " + std::to_string(i) + " (line " + std::to_string(line) +
         ")\n  expected: …" + expected.substr(from, 200) + "\n  actual:   …" +
         actual.substr(from, 200);
}

void Compare(const std::string& name, const std::string& file, const std::string& actual) {
  std::string relative = "sessions/" + name + "/expected/" + file;
  if (testing::UpdateGoldens()) {
    ::mkdir(testing::FixturePath("sessions/" + name + "/expected").c_str(), 0755);
    ASSERT_TRUE(testing::WriteFixture(relative, actual)) << relative;
    return;
  }
  auto expected = ReadFixture(relative);
  ASSERT_TRUE(expected.has_value()) << relative << " is missing (ACTX_UPDATE_GOLDENS=1 writes it)";
  EXPECT_TRUE(*expected == actual) << relative << ": " << FirstDifference(*expected, actual);
}

void RunCase(const std::string& name) {
  auto script = ReadFixture("sessions/" + name + "/script.json");
  ASSERT_TRUE(script.has_value()) << name;
  auto result = RunSessionScript(*script);
  ASSERT_EQ(result.error, "") << name;
  Compare(name, "requests.jsonl", result.requests);
  Compare(name, "effects.jsonl", result.effects);
  Compare(name, "rollout.jsonl", result.rollout);
  Compare(name, "summary.json", result.summary);
}

TEST(SessionFixtures, CorpusListsEveryCase) {
  std::vector<std::string> listed;
  for (const auto& name : ListFixtureDir("sessions")) {
    if (name != "README.md") listed.push_back(name);
  }
  std::vector<std::string> known(std::begin(kCases), std::end(kCases));
  EXPECT_EQ(listed, known);
}

TEST(SessionFixtures, MultiTurnTools) { RunCase("multi_turn_tools"); }
TEST(SessionFixtures, FiftyTurnsProbe) {
  RunCase("fifty_turns_probe");
  if (auto summary = ReadFixture("sessions/fifty_turns_probe/expected/summary.json")) {
    // The simulator's cached share for the 50-turn session, also in summary.json.
    std::printf("fifty_turns_probe summary: %s", summary->c_str());
  }
}
TEST(SessionFixtures, HostToolsReverse) { RunCase("host_tools_reverse"); }
TEST(SessionFixtures, RetryAfterCut) { RunCase("retry_after_cut"); }
TEST(SessionFixtures, InterruptOneOfTwo) { RunCase("interrupt_one_of_two"); }
TEST(SessionFixtures, DeferToolAdded) { RunCase("defer_tool_added"); }
TEST(SessionFixtures, ModelSwitch) { RunCase("model_switch"); }
TEST(SessionFixtures, SpecVectors) { RunCase("spec_vectors"); }
TEST(SessionFixtures, Compaction) { RunCase("compaction"); }
// The same conversation for each provider, and the Codex 0.169 per_role layout.
TEST(SessionFixtures, ProviderChat) { RunCase("provider_chat"); }
TEST(SessionFixtures, ProviderAnthropic) { RunCase("provider_anthropic"); }
TEST(SessionFixtures, LayoutPerRole) { RunCase("layout_per_role"); }

// Resuming each case's rollout (same workspace, current config) gives the same
// next request body as the uninterrupted session.
TEST(SessionFixtures, ResumingEveryRolloutGivesTheSameNextBody) {
  for (const char* name : kCases) {
    SCOPED_TRACE(name);
    auto script = ReadFixture(std::string("sessions/") + name + "/script.json");
    ASSERT_TRUE(script.has_value());
    auto r = testing::ReplayThenResume(*script, "One more question after the resume.");
    ASSERT_EQ(r.error, "");
    EXPECT_NE(r.resume_envelope.find("\"ok\":true"), std::string::npos) << r.resume_envelope;
    ASSERT_NE(r.original_body, "");
    EXPECT_TRUE(r.resumed_body == r.original_body)
        << FirstDifference(r.original_body, r.resumed_body);
  }
}

TEST(SessionFixtures, MalformedScriptsAreReported) {
  EXPECT_NE(RunSessionScript("{").error, "");
  EXPECT_NE(RunSessionScript("{\"steps\":[]}").error, "");
  EXPECT_NE(RunSessionScript(R"({"config":{},"files":{"/etc/x":"y"},"steps":[]})").error, "");
  EXPECT_NE(RunSessionScript(R"({"config":{},"steps":[{"op":"fly"}]})").error, "");
}

}  // namespace
}  // namespace agentctx
