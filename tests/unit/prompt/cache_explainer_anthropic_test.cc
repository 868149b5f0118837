// SPDX-License-Identifier: MIT
// The cache explainer under Anthropic's breakpoint rule (cache_explainer.h steps 4–5):
// reads from the previous request's marks (intact, within TTL, over the minimum, within the
// lookback), writes up to this request's longest mark, the 1 h share, and the summary's cost per
// provider rule. Figures are worked out by hand in each test.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "protocol/json_codec.h"
#include "provider/anthropic/breakpoint_planner.h"
#include "provider/cache/cache_explainer.h"

namespace agentctx {
namespace {

constexpr std::int64_t kHour = 3600000;
constexpr std::int64_t kFiveMinutes = 300000;

// Owns the bytes a PromptSegments views: system 400 B, tools 4000 B, then the items.
struct Prompt {
  std::string model = "claude-x";
  std::string system = std::string(400, 's');
  std::string tools = std::string(4000, 't');
  std::vector<std::string> items;
  BreakpointRule rule;

  PromptSegments View() const {
    PromptSegments s;
    s.model = model;
    s.cache_key = "k";
    s.instructions_bytes = system;
    s.tools_bytes = tools;
    for (const auto& i : items) s.items.push_back({i, i.front() == 'c' ? "agents_md" : "user"});
    s.breakpoints = &rule;
    return s;
  }
  std::uint64_t Tokens(std::size_t n_items) const {
    std::uint64_t bytes = system.size() + tools.size();
    for (std::size_t i = 0; i < n_items; ++i) bytes += items[i].size();
    return (bytes + 3) / 4;
  }
  // The planner's marks: system and session context (1 h), the newest item (5 min).
  void Plan(std::int64_t now_ms) {
    rule.now_ms = now_ms;
    rule.marks = {CacheMark{Tokens(0), kHour, false, 0}, CacheMark{Tokens(1), kHour, false, 1},
                  CacheMark{Tokens(items.size()), kFiveMinutes, false, items.size()}};
  }
};

// Context item 2000 B, user 1600 B: 8000 B = 2000 tokens; marks at 1100, 1600, 2000.
Prompt First() {
  Prompt p;
  p.items = {std::string(2000, 'c'), std::string(1600, 'u')};
  p.Plan(0);
  return p;
}

TEST(CacheExplainerAnthropic, ReadsThePreviousNewestMarkAndWritesTheRest) {
  Prompt p = First();
  CacheExplainer ex;
  CacheReport r1 = ex.Explain("req-1", p.View());
  EXPECT_TRUE(r1.breakpoints);
  EXPECT_EQ(r1.predicted_cached_tokens, 0u);
  EXPECT_EQ(r1.predicted_cache_write_tokens, 2000u);     // up to the newest mark
  EXPECT_EQ(r1.predicted_cache_write_1h_tokens, 1600u);  // up to the context mark (1 h)

  // + 2000 B of output and tool result, 10 s later: everything the newest mark wrote is read.
  p.items.push_back(std::string(800, 'a'));
  p.items.push_back(std::string(1200, 'o'));
  p.Plan(10000);
  CacheReport r2 = ex.Explain("req-2", p.View());
  EXPECT_EQ(r2.prompt_tokens, 2500u);
  EXPECT_EQ(r2.predicted_cached_tokens, 2000u);  // OpenAI's rule would say cacheable(2000) = 1920
  EXPECT_EQ(r2.ideal_cached_tokens, 2000u);
  EXPECT_FALSE(r2.cache_break.has_value());
  EXPECT_EQ(r2.predicted_cache_write_tokens, 500u);
  EXPECT_EQ(r2.predicted_cache_write_1h_tokens, 0u);

  // 6 minutes later the 5 min mark has expired: only the 1 h context mark is read. Not a break.
  p.items.push_back(std::string(400, 'u'));
  p.Plan(10000 + 360000);
  CacheReport r3 = ex.Explain("req-3", p.View());
  EXPECT_EQ(r3.predicted_cached_tokens, 1600u);
  EXPECT_EQ(r3.ideal_cached_tokens, 1600u);
  EXPECT_FALSE(r3.cache_break.has_value());
  EXPECT_EQ(r3.predicted_cache_write_tokens, 2600u - 1600u);

  // An edit inside the context item: the system mark still reads; the break costs the rest.
  p.items[0][10] = 'X';
  p.Plan(380000);
  CacheReport r4 = ex.Explain("req-4", p.View());
  EXPECT_EQ(r4.predicted_cached_tokens, 1100u);
  EXPECT_EQ(r4.ideal_cached_tokens, 2600u);
  ASSERT_TRUE(r4.cache_break.has_value());
  EXPECT_EQ(r4.cache_break->reason, "item_edited");
  EXPECT_EQ(r4.cache_break->lost_tokens, 1500u);
  EXPECT_EQ(r4.predicted_cache_write_tokens, 1500u);
  EXPECT_EQ(r4.predicted_cache_write_1h_tokens, 500u);
  EXPECT_EQ(ToJson(CacheReportToJson(r4)).substr(ToJson(CacheReportToJson(r4)).find("\"break\"")),
            R"("break":{"reason":"item_edited","section":"agents_md","item_index":0,)"
            R"("byte_offset":4410,"lost_tokens":1500},"predicted_cache_write_tokens":1500,)"
            R"("predicted_cache_write_1h_tokens":500})");
}

TEST(CacheExplainerAnthropic, ModelChangeReadsNothing) {
  Prompt p = First();
  CacheExplainer ex;
  ex.Explain("req-1", p.View());
  p.model = "claude-y";
  p.Plan(1000);
  CacheReport r = ex.Explain("req-2", p.View());
  EXPECT_EQ(r.predicted_cached_tokens, 0u);
  EXPECT_EQ(r.ideal_cached_tokens, 2000u);
  ASSERT_TRUE(r.cache_break.has_value());
  EXPECT_EQ(r.cache_break->reason, "model_changed");
  EXPECT_EQ(r.cache_break->lost_tokens, 2000u);
  EXPECT_EQ(r.predicted_cache_write_tokens, 2000u);
}

TEST(CacheExplainerAnthropic, AMarkOutsideTheLookbackIsNotRead) {
  Prompt p = First();
  CacheExplainer ex;
  ex.Explain("req-1", p.View());  // newest mark after 2 items (position 3)
  for (int i = 0; i < 25; ++i) p.items.push_back(std::string(40, 'o'));
  p.Plan(1000);  // newest mark after 27 items (position 28): 25 blocks away
  CacheReport r = ex.Explain("req-2", p.View());
  EXPECT_EQ(r.predicted_cached_tokens, 1600u);  // the context mark, read by its own mark
  EXPECT_EQ(r.ideal_cached_tokens, 1600u);
  EXPECT_EQ(r.predicted_cache_write_tokens, p.Tokens(27) - 1600u);
}

TEST(CacheExplainerAnthropic, TheToolsMarkSurvivesAnInstructionsChangeAndTheMinimumHolds) {
  Prompt p = First();
  p.rule.marks.insert(p.rule.marks.begin(), CacheMark{1000, kHour, true, 0});  // tools alone
  p.rule.min_cacheable_tokens = 1000;
  CacheExplainer ex;
  ex.Explain("req-1", p.View());
  p.system[0] = 'X';  // P starts with the system segment: nothing is shared
  CacheReport r = ex.Explain("req-2", p.View());
  EXPECT_EQ(r.shared_prefix_bytes, 0u);
  EXPECT_EQ(r.predicted_cached_tokens, 1000u);
  ASSERT_TRUE(r.cache_break.has_value());
  EXPECT_EQ(r.cache_break->reason, "instructions_changed");
  EXPECT_EQ(r.cache_break->lost_tokens, 2000u - 1000u);
  // A minimum above every mark: nothing was written, nothing is read or written.
  p.rule.min_cacheable_tokens = 4096;
  CacheReport under = ex.Explain("req-3", p.View());
  EXPECT_EQ(under.predicted_cached_tokens, 0u);
  EXPECT_EQ(under.ideal_cached_tokens, 0u);
  EXPECT_EQ(under.predicted_cache_write_tokens, 0u);
}

TEST(CacheExplainerAnthropic, PlanMarksMapToExplainerItems) {
  BreakpointInputs in;
  in.tools_bytes = 4400;
  in.system_bytes = 400;
  in.message_bytes = {2000, 100, 1600};
  in.context_end = 0;
  in.stable_ttl = CacheTtl::k1h;
  BreakpointRule rule = BreakpointRuleOf(PlanBreakpoints(in), 1024, 77);
  EXPECT_EQ(rule.now_ms, 77);
  ASSERT_EQ(rule.marks.size(), 4u);
  EXPECT_TRUE(rule.marks[0].tools_only);
  EXPECT_EQ(rule.marks[0].tokens, 1100u);
  EXPECT_EQ(rule.marks[0].ttl_ms, kHour);
  EXPECT_FALSE(rule.marks[1].tools_only);
  EXPECT_EQ(rule.marks[1].items, 0u);
  EXPECT_EQ(rule.marks[2].items, 1u);  // the session context ends at message 0
  EXPECT_EQ(rule.marks[3].items, 3u);  // the newest message
  EXPECT_EQ(rule.marks[3].ttl_ms, kFiveMinutes);
  EXPECT_EQ(rule.marks[3].tokens, (4400u + 400 + 3700) / 4);
}

TEST(CacheExplainerAnthropic, SummaryCostsEachRequestByItsRule) {
  Prompt p = First();
  CacheExplainer ex;
  ex.Explain("req-1", p.View());
  p.items.push_back(std::string(800, 'a'));
  p.items.push_back(std::string(1200, 'o'));
  p.Plan(10000);
  ex.Explain("req-2", p.View());
  ex.NoteReportedUsage("req-1", ReportedUsage{2000, 0, 2000, 100, std::nullopt});
  ex.NoteReportedUsage("req-2", ReportedUsage{2500, 1900, 600, 50, std::nullopt});
  TypedPrices prices;
  prices.input = 3000000;    // $3 per million: reads $0.30, writes $3.75 (5 min) / $6 (1 h)
  prices.output = 15000000;  // $15
  // Predicted: req-1 400·3.75 + 1600·6 = 11100, req-2 2000·0.3 + 500·3.75 = 2475 (micro-USD).
  // Reported: req-1 the same + 100·15 output; req-2 1900·0.3 + 600·3.75 = 2820 + 50·15.
  EXPECT_EQ(ToJson(ex.Summary(&prices)),
            R"({"requests":2,"prompt_bytes":18000,"shared_prefix_bytes":8000,)"
            R"("max_shared_prefix_bytes":8000,"predicted_cached_tokens":2000,)"
            R"("ideal_cached_tokens":2000,"reported_cached_tokens":1900,"reuse_bp":4444,)"
            R"("max_reuse_bp":4444,"breaks":{},"predicted_cache_write_tokens":2500,)"
            R"("predicted_cache_write_1h_tokens":1600,"reported_cache_write_tokens":2600,)"
            R"("cost":{"pricing":"anthropic","prices_per_million_usd":{"input":3,)"
            R"("cache_read":0.3,"cache_write":3.75,"cache_write_1h":6,"output":15},)"
            R"("predicted_input_usd":0.013575,"reported":{"input_tokens":4500,)"
            R"("cached_tokens":1900,"cache_write_tokens":2600,"output_tokens":150,)"
            R"("input_usd":0.01392,"output_usd":0.00225,"total_usd":0.01617}}})");
  // A usage that splits its writes by TTL is priced by its own split, not the prediction:
  // req-1 wrote all 2000 for 5 min (2000·3.75 = 7500, was 11100), then 500 of them for 1 h.
  ex.NoteReportedUsage("req-1", ReportedUsage{2000, 0, 2000, 100, 0});
  EXPECT_EQ(ToJson(*ex.Summary(&prices).Find("cost")->Find("reported")->Find("input_usd")),
            "0.01032");
  ex.NoteReportedUsage("req-1", ReportedUsage{2000, 0, 2000, 100, 500});
  EXPECT_EQ(ToJson(*ex.Summary(&prices).Find("cost")->Find("reported")->Find("input_usd")),
            "0.011445");  // 1500·3.75 + 500·6 = 8625
  ex.NoteReportedUsage("req-1", ReportedUsage{2000, 0, 2000, 100, 9999});  // clamped to 2000
  EXPECT_EQ(ToJson(*ex.Summary(&prices).Find("cost")->Find("reported")->Find("input_usd")),
            "0.01482");  // 2000·6 = 12000
  // Without prices the summary has no cost; explicit prices replace the multipliers.
  EXPECT_EQ(ex.Summary().Find("cost"), nullptr);
  prices.cache_write = 6000000;
  prices.cached_input = 0;
  prices.cached_input_given = true;
  JsonValue summary = ex.Summary(&prices);
  EXPECT_EQ(ToJson(*summary.Find("cost")->Find("prices_per_million_usd")),
            R"({"input":3,"cache_read":0,"cache_write":6,"cache_write_1h":6,"output":15})");
}

TEST(CacheExplainerAnthropic, OpenAiRequestsKeepTheirShapeAndCost) {
  PromptSegments s;
  s.model = "gpt";
  std::string items(8000, 'x');
  s.items.push_back({items, "user"});
  CacheExplainer ex;
  CacheReport r = ex.Explain("req-1", s);
  EXPECT_FALSE(r.breakpoints);
  EXPECT_EQ(ToJson(CacheReportToJson(r)).find("predicted_cache_write"), std::string::npos);
  ex.NoteReportedUsage("req-1", ReportedUsage{2000, 1024, 0, 10, std::nullopt});
  TypedPrices prices;  // $1.25 / $0.125 / $10
  // Predicted: 2000 uncached · 1.25 = 2500 micro-USD; reported 976·1.25 + 1024·0.125 = 1348.
  EXPECT_EQ(ToJson(*ex.Summary(&prices).Find("cost")),
            R"({"pricing":"openai","prices_per_million_usd":{"input":1.25,"cached_input":0.125,)"
            R"("output":10},"predicted_input_usd":0.0025,"reported":{"input_tokens":2000,)"
            R"("cached_tokens":1024,"cache_write_tokens":0,"output_tokens":10,)"
            R"("input_usd":0.001348,"output_usd":0.0001,"total_usd":0.001448}})");
  EXPECT_EQ(ex.Summary().Find("predicted_cache_write_tokens"), nullptr);
  // Before any request the session's own rule labels the cost.
  CacheExplainer fresh;
  EXPECT_EQ(ToJson(*fresh.Summary(&prices, CachePricing::kAnthropic).Find("cost")->Find("pricing")),
            R"("anthropic")");
}

}  // namespace
}  // namespace agentctx
