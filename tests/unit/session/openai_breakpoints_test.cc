// SPDX-License-Identifier: MIT
// OpenAI breakpoint caching (GPT-5.6+, feature cache_breakpoints; docs/providers.md): which
// items can carry `prompt_cache_breakpoint`, the plan under each mode and its budget, the
// `prompt_cache_options` of every body, bodies that extend each other byte for byte with the
// default mode, and bodies without the feature exactly as before.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "protocol/json_codec.h"
#include "provider/mark_planner.h"
#include "provider/responses/body_builder.h"
#include "provider/responses/openai_cache.h"
#include "provider/responses/request_body.h"
#include "provider/responses/responses_dialect.h"
#include "support/fixtures.h"
#include "support/session_driver.h"

namespace agentctx {
namespace {

using testing::SessionDriver;

constexpr std::string_view kUser =
    R"({"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]})";
constexpr std::string_view kDeveloper =
    R"({"type":"message","role":"developer","content":[{"type":"input_text","text":"ctx"}]})";
constexpr std::string_view kAssistant =
    R"({"type":"message","role":"assistant","content":[{"type":"output_text","text":"ok"}]})";
constexpr std::string_view kCall =
    R"({"type":"function_call","name":"read_file","arguments":"{}","call_id":"c1"})";
constexpr std::string_view kStringOutput =
    R"({"type":"function_call_output","call_id":"c1","output":"text"})";
constexpr std::string_view kPartsOutput =
    R"({"type":"function_call_output","call_id":"c1","output":[{"type":"input_text","text":"t"}]})";

std::size_t Count(const std::string& s, std::string_view what) {
  std::size_t n = 0;
  for (std::size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

TEST(OpenAiBreakpoints, OnlyInputContentBlocksCarryAMark) {
  EXPECT_TRUE(CanCarryBreakpoint(kUser));
  EXPECT_TRUE(CanCarryBreakpoint(kDeveloper));
  EXPECT_TRUE(CanCarryBreakpoint(kPartsOutput));
  EXPECT_FALSE(CanCarryBreakpoint(kAssistant));  // assistant output
  EXPECT_FALSE(CanCarryBreakpoint(kCall));
  EXPECT_FALSE(CanCarryBreakpoint(kStringOutput));  // no content block to carry it
  EXPECT_FALSE(
      CanCarryBreakpoint(R"({"type":"message","role":"user","content":[]})"));  // no block at all
  EXPECT_FALSE(CanCarryBreakpoint("{\"type\":\"message\"}]}"));                 // not JSON
  std::string out;
  AppendWithBreakpoint(&out, kUser);
  EXPECT_EQ(out, R"({"type":"message","role":"user","content":[{"type":"input_text","text":"hi",)"
                 R"("prompt_cache_breakpoint":{"mode":"explicit"}}]})");
  EXPECT_TRUE(ParseJson(out).has_value());
}

// A prompt: two context messages, a compaction summary, a user message, a call, its output.
std::vector<ItemSegment> Prompt(const std::string& big) {
  static std::string context;
  context = R"({"type":"message","role":"developer","content":[{"type":"input_text","text":")" +
            big + R"("}]})";
  return {ItemSegment{kDeveloper, "environment", 1},
          ItemSegment{context, "agents_md", 2},
          ItemSegment{kUser, "compaction", 3},
          ItemSegment{kUser, "user", 4},
          ItemSegment{kCall, "model", 5},
          ItemSegment{kStringOutput, "tool", 6}};
}

TEST(OpenAiBreakpoints, ImplicitModeMarksTheStableBoundariesAndLeavesTheNewestToTheProvider) {
  BodyParams p;
  p.model = "gpt-5.6";
  const std::string big(8000, 'x');
  BreakpointPlan plan = PlanOpenAiBreakpoints(p, "\"instructions\"", Prompt(big));
  ASSERT_EQ(plan.candidates.size(), 3u);
  EXPECT_EQ(plan.candidates[0].reason, "end_of_session_context");
  EXPECT_EQ(plan.candidates[0].message_index, 1u);
  EXPECT_EQ(plan.candidates[1].reason, "end_of_stable_history");
  EXPECT_EQ(plan.candidates[1].message_index, 2u);
  EXPECT_FALSE(plan.candidates[2].placed);
  EXPECT_EQ(plan.candidates[2].reason, "implicit_breakpoint");
  EXPECT_EQ(plan.candidates[2].message_index, 3u);  // the newest markable item: the user message
  EXPECT_EQ(MarkedItems(plan), (std::vector<std::size_t>{1, 2}));
  // A short prefix is not worth a mark.
  BreakpointPlan small = PlanOpenAiBreakpoints(p, "", Prompt("y"));
  EXPECT_EQ(small.placed(), 0u);
  EXPECT_EQ(small.candidates[0].reason, "below_minimum");
}

TEST(OpenAiBreakpoints, ExplicitModeAlsoMarksTheNewestMarkableItem) {
  BodyParams p;
  p.model = "gpt-5.6";
  p.cache_mode = OpenAiCacheMode::kExplicit;
  const std::string big(8000, 'x');
  BreakpointPlan plan = PlanOpenAiBreakpoints(p, "", Prompt(big));
  EXPECT_EQ(plan.placed(), 3u);
  EXPECT_EQ(MarkedItems(plan), (std::vector<std::size_t>{1, 2, 3}));
  // Without markable history the newest mark is absent, never on model output.
  std::vector<ItemSegment> no_history = {ItemSegment{kAssistant, "model", 1}};
  BreakpointPlan none = PlanOpenAiBreakpoints(p, "", no_history);
  EXPECT_EQ(none.placed(), 0u);
  EXPECT_EQ(none.candidates[2].reason, "no_markable_item");
}

TEST(OpenAiBreakpoints, ABudgetThatCannotBeMetDropsTheLeastValuableMark) {
  std::vector<MarkCandidate> c = {
      {BreakpointAt::kContext, {}, 8000, "end_of_session_context", CacheTtl::k5m, 0, 2},
      {BreakpointAt::kStableHistory, {}, 9000, "end_of_stable_history", CacheTtl::k5m, 1, 1},
      {BreakpointAt::kNewest, {}, 10000, "newest_history_item", CacheTtl::k5m, 2, 3}};
  BreakpointPlan two = PlaceMarks(c, 2, 1024);
  EXPECT_EQ(two.placed(), 2u);
  EXPECT_EQ(two.candidates[1].reason, "limit_reached");
  BreakpointPlan one = PlaceMarks(c, 1, 1024);
  EXPECT_EQ(one.placed(), 1u);
  EXPECT_TRUE(one.candidates[2].placed);  // the newest is the last to go
  EXPECT_EQ(one.candidates[0].reason, "limit_reached");
  EXPECT_EQ(PlaceMarks(c, 0, 1024).placed(), 0u);  // no budget: no marks, still a plan
}

TEST(OpenAiBreakpoints, TheSlugRuleNamesGpt56AndLater) {
  for (const char* yes : {"gpt-5.6", "gpt-5.6-mini", "gpt-5.7-codex", "gpt-5.10", "gpt-6"}) {
    EXPECT_TRUE(HasPromptCacheOptions(yes)) << yes;
  }
  for (const char* no : {"gpt-5.5", "gpt-5", "gpt-4.1", "gpt-5.5-pro", "o3", "mock-1", "gpt-"}) {
    EXPECT_FALSE(HasPromptCacheOptions(no)) << no;
  }
  ResponsesDialect d;
  EXPECT_EQ(d.Availability(ProviderFeature::kCacheBreakpoints, "gpt-5.6"),
            FeatureAvailability::kOfficialOnly);
  EXPECT_EQ(d.Availability(ProviderFeature::kCacheBreakpoints, "gpt-5.5"),
            FeatureAvailability::kNone);
}

TEST(OpenAiBreakpoints, TheIncrementalBodyEqualsTheFullRenderingWhenAMarkMoves) {
  const std::vector<std::string> all = {std::string(kDeveloper), std::string(kUser),
                                        std::string(kCall),      std::string(kPartsOutput),
                                        std::string(kAssistant), std::string(kUser)};
  ResponsesBodyBuilder builder;
  BodyParams p;
  p.model = "gpt-5.6";
  p.features.on[ProviderFeature::kCacheBreakpoints] = true;
  p.cache_mode = OpenAiCacheMode::kExplicit;
  // (items, marks) per request: the newest mark moves on, then one is dropped.
  const std::vector<std::pair<std::size_t, std::vector<std::size_t>>> steps = {
      {2, {0, 1}}, {4, {0, 3}}, {6, {0, 3, 5}}, {6, {0, 5}}, {6, {}}};
  std::size_t stable = 0;
  for (const auto& [count, marks] : steps) {
    std::vector<PromptItem> items;
    std::vector<std::string_view> views;
    for (std::size_t i = 0; i < count; ++i) {
      items.push_back(PromptItem{&all[i], i, false, i + 1});
      views.push_back(all[i]);
    }
    p.cache_marks = &marks;
    const std::string incremental(builder.Build(p, items, stable));
    BodyParams whole = p;
    whole.items = &views;
    EXPECT_EQ(incremental, BuildResponsesBody(whole)) << count;
    EXPECT_EQ(Count(incremental, "prompt_cache_breakpoint"), marks.size());
    stable = count;
  }
  EXPECT_EQ(builder.full_builds(), 1u);  // a moved mark rewrites its item, not the body
}

// Base instructions (unset) make the prompt long enough for the minimum. Cache diagnostics,
// which share `prompt_cache_options`, are off: their own tests cover them.
std::string Config(const std::string& slug, const std::string& extra = "",
                   const std::string& features = R"("cache_diagnostics":false)") {
  return R"({"session_id":"oa-1","model":{"slug":")" + slug +
         R"("},"approval_policy":"never","provider_features":{)" + features +
         "},"
         R"()"
         R"("environments":[{"id":"local","cwd":"/repo","shell":"bash","fs":"workspace"}])" +
         extra + "}";
}

void RunTurns(SessionDriver* d) {
  ASSERT_TRUE(d->fs()->AddFile("/repo/a.txt", "one\ntwo\n").has_value());
  ASSERT_TRUE(d->fs()->AddFile("/repo/b.txt", "three\n").has_value());
  d->Submit("Please read a.txt and b.txt.", 1000);
  d->Submit("What is in the folder? #mock-list:/repo", 2000);
  d->Submit("Thanks.", 3000);
}

// The body up to its input's closing `]`.
std::string Input(const std::string& body) { return body.substr(0, body.rfind("],\"tools\"")); }

TEST(OpenAiBreakpoints, Gpt56BodiesCarryOptionsAndMarksAndExtendEachOtherByteForByte) {
  SessionDriver d;
  ASSERT_NE(d.Start(Config("gpt-5.6")).find("\"ok\":true"), std::string::npos);
  RunTurns(&d);
  const auto& bodies = d.request_bodies();
  ASSERT_GE(bodies.size(), 4u);
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    const std::string& b = bodies[i];
    EXPECT_NE(b.find(R"(,"prompt_cache_options":{"mode":"implicit","ttl":"30m"}})"),
              std::string::npos)
        << i;  // the body's last member
    EXPECT_EQ(b.find("prompt_cache_retention"), std::string::npos);
    const std::size_t marks = Count(b, "\"prompt_cache_breakpoint\"");
    EXPECT_GE(marks, 1u) << i;
    EXPECT_LE(marks, 3u) << i;
    auto parsed = ParseJson(b);
    ASSERT_TRUE(parsed.has_value()) << b;
    // Never on instructions or tools.
    EXPECT_EQ(Count(b.substr(0, b.find("\"input\":[")), "prompt_cache_breakpoint"), 0u);
    EXPECT_EQ(Count(b.substr(b.rfind("],\"tools\"")), "prompt_cache_breakpoint"), 0u);
    // Every request after the first extends the previous one's input byte for byte.
    if (i > 0) {
      const std::string before = Input(bodies[i - 1]);
      EXPECT_EQ(b.compare(0, before.size(), before), 0) << "request " << i;
    }
  }
}

TEST(OpenAiBreakpoints, ExplicitModeMarksTheNewestAndStaysWithinFour) {
  SessionDriver d;
  ASSERT_NE(
      d.Start(Config("gpt-5.7-codex", R"(,"openai":{"cache_mode":"explicit","cache_ttl":"12h"})"))
          .find("\"ok\":true"),
      std::string::npos);
  RunTurns(&d);
  for (const std::string& b : d.request_bodies()) {
    EXPECT_NE(b.find(R"("prompt_cache_options":{"mode":"explicit","ttl":"12h"})"),
              std::string::npos);
    const std::size_t marks = Count(b, "\"prompt_cache_breakpoint\"");
    EXPECT_GE(marks, 2u);
    EXPECT_LE(marks, 4u);
    // The newest user message carries one.
    const std::size_t user = b.rfind(R"({"type":"message","role":"user")");
    ASSERT_NE(user, std::string::npos);
    EXPECT_NE(b.find("prompt_cache_breakpoint", user), std::string::npos);
  }
}

TEST(OpenAiBreakpoints, WithoutTheFeatureBodiesAreAsBefore) {
  // Off by config, at another endpoint, or on an older model: nothing of the feature is sent,
  // and the bodies are those of the same session without it.
  std::vector<std::string> reference;
  const std::vector<std::pair<std::string, std::string>> variants = {
      {"", R"("cache_breakpoints":false,"cache_diagnostics":false)"},
      {R"(,"base_url":"https://proxy.example/v1")", R"("cache_diagnostics":false)"}};
  for (const auto& [extra, features] : variants) {
    SessionDriver d;
    d.Start(Config("gpt-5.6", extra, features));
    RunTurns(&d);
    for (const std::string& b : d.request_bodies()) {
      EXPECT_EQ(b.find("prompt_cache_breakpoint"), std::string::npos);
      EXPECT_EQ(b.find("prompt_cache_options"), std::string::npos);
    }
    if (reference.empty()) {
      reference = d.request_bodies();
    } else {
      EXPECT_EQ(d.request_bodies(), reference);
    }
  }
  SessionDriver old;
  old.Start(Config("gpt-5.5"));
  RunTurns(&old);
  for (const std::string& b : old.request_bodies()) {
    EXPECT_EQ(b.find("prompt_cache_options"), std::string::npos);
  }
}

// The bodies of a gpt-5.6 session's first turn with the feature on, in each mode, as a
// TypeScript module that type-checks them against openai@7's request type
// (wasi-host/test/openai_body_types.test.mjs runs tsc over it). The golden keeps the file in
// step with the engine's rendering. One turn: assistant messages are sent back as recorded,
// `output_text` without `annotations`, which the API takes but the SDK's type requires.
TEST(OpenAiBreakpoints, TheGpt56BodiesGoldenIsCurrent) {
  std::string ts =
      "// Generated by tests/unit/session/openai_breakpoints_test.cc (ACTX_UPDATE_GOLDENS=1):\n"
      "// the first turn of gpt-5.6 sessions with provider feature cache_breakpoints on.\n"
      "import type { ResponseCreateParamsStreaming } from "
      "'openai/resources/responses/responses';\n\n"
      "export const bodies = [\n";
  for (const char* mode : {"implicit", "explicit"}) {
    SessionDriver d;
    d.Start(Config("gpt-5.6", std::string(R"(,"openai":{"cache_mode":")") + mode + "\"}", ""));
    ASSERT_TRUE(d.fs()->AddFile("/repo/a.txt", "one\ntwo\n").has_value());
    d.Submit("Please read a.txt.", 1000);
    for (const std::string& b : d.request_bodies()) ts += "  " + b + ",\n";
  }
  ts += "] satisfies ResponseCreateParamsStreaming[];\n";
  const std::string golden = "provider_bodies/gpt56_breakpoints.ts";
  if (testing::UpdateGoldens()) ASSERT_TRUE(testing::WriteFixture(golden, ts));
  auto expected = testing::ReadFixture(golden);
  ASSERT_TRUE(expected.has_value()) << "run with ACTX_UPDATE_GOLDENS=1 to create " << golden;
  EXPECT_EQ(*expected, ts);
}

TEST(OpenAiBreakpoints, ABadCacheModeIsRefusedByName) {
  for (const char* bad : {R"(,"openai":{"cache_mode":"always"})", R"(,"openai":{"cache_ttl":"1h"})",
                          R"(,"openai":3)"}) {
    SessionDriver d;
    const std::string env = d.Start(Config("gpt-5.6", bad));
    EXPECT_NE(env.find("\"ok\":false"), std::string::npos) << bad;
    EXPECT_NE(env.find("invalid_config"), std::string::npos) << env;
    EXPECT_NE(env.find("openai"), std::string::npos) << env;
  }
}

}  // namespace
}  // namespace agentctx
