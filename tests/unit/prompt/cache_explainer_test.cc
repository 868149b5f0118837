// SPDX-License-Identifier: MIT
// Tests for the cache-break explainer: every reference vector, plus segment-boundary and
// summary behaviour.
#include "provider/cache/cache_explainer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace agentctx {
namespace {

// Owns the bytes a PromptSegments views.
struct Prompt {
  std::string model = "m1";
  std::string key = "s-1";
  std::string instructions;
  std::string tools = "[]";
  std::vector<std::string> items;
  std::vector<std::string> origins;

  void Add(std::string bytes, std::string origin = "user") {
    items.push_back(std::move(bytes));
    origins.push_back(std::move(origin));
  }
  PromptSegments View() const {
    PromptSegments s;
    s.model = model;
    s.cache_key = key;
    s.instructions_bytes = instructions;
    s.tools_bytes = tools;
    for (std::size_t i = 0; i < items.size(); ++i) s.items.push_back({items[i], origins[i]});
    return s;
  }
  std::size_t Size() const {
    std::size_t n = instructions.size() + tools.size();
    for (const auto& i : items) n += i.size();
    return n;
  }
};

std::string Message(const std::string& role, const std::string& text) {
  return std::string(R"({"type":"message","role":")") + role +
         R"(","content":[{"type":"input_text","text":)" + JsonString(text) + "}]}";
}

// The prompt bytes of the 916-byte example body (702 bytes; tests/support/spec_bodies.h).
Prompt Spec8Example() {
  Prompt p;
  p.model = "mock-1";
  p.instructions = JsonString("You are a helpful coding agent.");
  p.Add(Message("developer",
                "<permissions instructions>\nFilesystem sandboxing defines which files can be read "
                "or written. `sandbox_mode` is `read-only`: The sandbox only permits reading "
                "files. Network access is restricted.\nApproval policy is currently never. Do "
                "not provide the `sandbox_permissions` for any reason, commands will be "
                "rejected.\n</permissions instructions>"),
        "permissions");
  p.Add(Message("user",
                "<environment_context>\n  <cwd>/repo</cwd>\n  <shell>bash</shell>\n"
                "</environment_context>"),
        "environment");
  p.Add(Message("user", "hi"), "user");
  return p;
}

// 40 000 bytes: instructions 100 B, tools 900 B, five items of 7 800 B (item 3 covers
// bytes 24 400..32 199).
Prompt Big() {
  Prompt p;
  p.instructions = "\"" + std::string(98, 'i') + "\"";
  p.tools = "[" + std::string(898, 't') + "]";
  for (int i = 0; i < 5; ++i) p.Add(std::string(7800, static_cast<char>('a' + i)), "user");
  p.origins[3] = "agents_md";
  return p;
}

TEST(CacheExplainer, CacheableVector) {
  EXPECT_EQ(Cacheable(1023), 0u);
  EXPECT_EQ(Cacheable(1024), 1024u);
  EXPECT_EQ(Cacheable(1151), 1024u);
  EXPECT_EQ(Cacheable(1152), 1152u);
  EXPECT_EQ(Cacheable(5000), 4992u);
  EXPECT_EQ(TokensForBytes(702), 176u);
  EXPECT_EQ(BasisPoints(1, 0), 0u);
}

TEST(CacheExplainer, FirstRequestHasNoBreak) {
  Prompt p = Spec8Example();
  ASSERT_EQ(p.Size(), 702u);
  CacheExplainer ex;
  EXPECT_EQ(ToJson(ex.ExplainJson("req-1", p.View())),
            R"({"request_id":"req-1","prompt_bytes":702,"prompt_tokens":176,)"
            R"("shared_prefix_bytes":0,"reuse_bp":0,"max_reuse_bp":0,)"
            R"("predicted_cached_tokens":0,"ideal_cached_tokens":0,"break":null})");
}

TEST(CacheExplainer, AppendedItemIsFullReuse) {
  Prompt p = Spec8Example();
  CacheExplainer ex;
  (void)ex.Explain("req-1", p.View());
  p.Add(Message("user", std::string(22, 'x')));
  ASSERT_EQ(p.Size(), 800u);
  CacheReport r = ex.Explain("req-2", p.View());
  EXPECT_EQ(r.shared_prefix_bytes, 702u);
  EXPECT_EQ(r.reuse_bp, 8775u);
  EXPECT_EQ(r.max_reuse_bp, 8775u);
  EXPECT_FALSE(r.cache_break.has_value());
}

TEST(CacheExplainer, ModelChanged) {
  Prompt p = Big();
  ASSERT_EQ(p.Size(), 40000u);
  CacheExplainer ex;
  (void)ex.Explain("req-1", p.View());
  p.model = "m2";
  p.Add(std::string(1000, 'z'));
  CacheReport r = ex.Explain("req-2", p.View());
  EXPECT_EQ(r.prompt_bytes, 41000u);
  EXPECT_EQ(r.shared_prefix_bytes, 0u);
  ASSERT_TRUE(r.cache_break.has_value());
  EXPECT_EQ(ToJson(CacheReportToJson(r)),
            R"({"request_id":"req-2","prompt_bytes":41000,"prompt_tokens":10250,)"
            R"("shared_prefix_bytes":0,"reuse_bp":0,"max_reuse_bp":9756,)"
            R"("predicted_cached_tokens":0,"ideal_cached_tokens":9984,)"
            R"("break":{"reason":"model_changed","section":"model","byte_offset":0,)"
            R"("lost_tokens":9984}})");
}

TEST(CacheExplainer, CacheKeyChanged) {
  Prompt p = Big();
  CacheExplainer ex;
  (void)ex.Explain("req-1", p.View());
  p.key = "other";
  CacheReport r = ex.Explain("req-2", p.View());
  ASSERT_TRUE(r.cache_break.has_value());
  EXPECT_EQ(r.cache_break->reason, "cache_key_changed");
  EXPECT_EQ(r.cache_break->section, "cache_key");
  EXPECT_EQ(r.shared_prefix_bytes, 0u);
  EXPECT_EQ(r.cache_break->lost_tokens, 9984u);
}

TEST(CacheExplainer, InstructionsChanged) {
  Prompt p = Big();
  CacheExplainer ex;
  (void)ex.Explain("req-1", p.View());
  p.instructions[10] = 'X';
  CacheReport r = ex.Explain("req-2", p.View());
  ASSERT_TRUE(r.cache_break.has_value());
  EXPECT_EQ(r.shared_prefix_bytes, 10u);
  EXPECT_EQ(ToJson(CacheReportToJson(r)).substr(ToJson(CacheReportToJson(r)).find("\"break\"")),
            R"("break":{"reason":"instructions_changed","section":"instructions",)"
            R"("byte_offset":10,"lost_tokens":9984}})");
}

TEST(CacheExplainer, ToolsChanged) {
  Prompt p = Big();
  CacheExplainer ex;
  (void)ex.Explain("req-1", p.View());
  p.tools[100] = 'X';  // byte 200 of P
  CacheReport r = ex.Explain("req-2", p.View());
  ASSERT_TRUE(r.cache_break.has_value());
  EXPECT_EQ(r.cache_break->reason, "tools_changed");
  EXPECT_EQ(r.cache_break->section, "tools");
  EXPECT_FALSE(r.cache_break->item_index.has_value());
  EXPECT_EQ(r.cache_break->byte_offset, 200u);
  EXPECT_EQ(r.cache_break->lost_tokens, 9984u);
}

TEST(CacheExplainer, ItemEdited) {
  Prompt p = Big();
  CacheExplainer ex;
  (void)ex.Explain("req-1", p.View());
  p.items[3][30000 - 24400] = 'X';
  CacheReport r = ex.Explain("req-2", p.View());
  EXPECT_EQ(r.shared_prefix_bytes, 30000u);
  EXPECT_EQ(r.predicted_cached_tokens, 7424u);
  EXPECT_EQ(r.ideal_cached_tokens, 9984u);
  ASSERT_TRUE(r.cache_break.has_value());
  EXPECT_EQ(ToJson(CacheReportToJson(r)).substr(ToJson(CacheReportToJson(r)).find("\"break\"")),
            R"("break":{"reason":"item_edited","section":"agents_md","item_index":3,)"
            R"("byte_offset":30000,"lost_tokens":2560}})");
}

TEST(CacheExplainer, HistoryRewrittenByCompaction) {
  Prompt p = Big();
  CacheExplainer ex;
  (void)ex.Explain("req-1", p.View());
  ex.NoteCompaction();
  p.items[3][30000 - 24400] = 'X';
  CacheReport r = ex.Explain("req-2", p.View());
  ASSERT_TRUE(r.cache_break.has_value());
  EXPECT_EQ(r.cache_break->reason, "history_rewritten_by_compaction");
  EXPECT_EQ(r.cache_break->item_index, 3u);
  EXPECT_EQ(r.cache_break->lost_tokens, 2560u);
  // The compaction note is consumed by one request.
  p.items[3][30000 - 24400] = 'Y';
  r = ex.Explain("req-3", p.View());
  ASSERT_TRUE(r.cache_break.has_value());
  EXPECT_EQ(r.cache_break->reason, "item_edited");
}

TEST(CacheExplainer, DeferredToolNoticeIsNoBreak) {
  // `defer`: the tools bytes stay frozen and a developer <tools> notice is appended.
  Prompt p = Spec8Example();
  p.tools = R"([{"type":"function","name":"a"}])";
  CacheExplainer ex;
  (void)ex.Explain("req-1", p.View());
  p.Add(Message("developer",
                "<tools>\nThe following tools were added or changed and will become callable "
                "after the next context compaction:\n- fmt: Formats code\n</tools>"),
        "tools");
  CacheReport r = ex.Explain("req-2", p.View());
  EXPECT_FALSE(r.cache_break.has_value());
  EXPECT_EQ(r.reuse_bp, r.max_reuse_bp);
}

TEST(CacheExplainer, PrefixIsByteLevelAcrossSegments) {
  // The same bytes split differently into segments share everything.
  Prompt a;
  a.instructions = "ab";
  a.tools = "cd";
  a.Add("ef");
  Prompt b;
  b.instructions = "abc";
  b.tools = "d";
  b.Add("e");
  b.Add("fg");
  CacheExplainer ex;
  (void)ex.Explain("req-1", a.View());
  CacheReport r = ex.Explain("req-2", b.View());
  EXPECT_EQ(r.shared_prefix_bytes, 6u);
  EXPECT_FALSE(r.cache_break.has_value());
}

TEST(CacheExplainer, StoredCopyFollowsShiftedSegments) {
  // Equal-size segments at different offsets must not be mistaken for unchanged ones.
  Prompt a;
  a.tools = "";
  a.Add("a");
  a.Add("bc");
  a.Add("d");
  Prompt b;
  b.tools = "";
  b.Add("ab");
  b.Add("cd");
  b.Add("e");
  CacheExplainer ex;
  (void)ex.Explain("req-1", a.View());
  (void)ex.Explain("req-2", b.View());
  CacheReport r = ex.Explain("req-3", b.View());
  EXPECT_EQ(r.shared_prefix_bytes, 5u);
  EXPECT_FALSE(r.cache_break.has_value());
  b.items[1] = "cX";
  r = ex.Explain("req-4", b.View());
  ASSERT_TRUE(r.cache_break.has_value());
  EXPECT_EQ(r.cache_break->item_index, 1u);
  EXPECT_EQ(r.shared_prefix_bytes, 3u);
}

TEST(CacheExplainer, ShorterPrefixPromptIsABreak) {
  // shared < |P_prev| even though P is a prefix of P_prev (a break is shared < |P_prev|).
  Prompt p = Big();
  CacheExplainer ex;
  (void)ex.Explain("req-1", p.View());
  ex.NoteCompaction();
  p.items.resize(2);
  p.origins.resize(2);
  CacheReport r = ex.Explain("req-2", p.View());
  EXPECT_EQ(r.shared_prefix_bytes, 16600u);
  EXPECT_EQ(r.reuse_bp, 10000u);
  EXPECT_EQ(r.max_reuse_bp, 10000u);
  ASSERT_TRUE(r.cache_break.has_value());
  EXPECT_EQ(r.cache_break->reason, "history_rewritten_by_compaction");
  EXPECT_EQ(r.cache_break->item_index, 2u);
}

TEST(CacheExplainer, SummaryTotalsAndBreaksByReason) {
  Prompt p = Big();
  CacheExplainer ex;
  (void)ex.Explain("req-1", p.View());
  p.items[3][30000 - 24400] = 'X';
  (void)ex.Explain("req-2", p.View());  // item_edited, lost 2560
  p.tools[100] = 'X';
  (void)ex.Explain("req-3", p.View());  // tools_changed, lost 9984
  p.items[4][0] = 'Q';
  (void)ex.Explain("req-4", p.View());  // item_edited at 32200: lost 9984 - 7936 = 2048
  ex.NoteReportedUsage("req-2", ReportedUsage{9000, 100, 0, 5, std::nullopt});
  ex.NoteReportedUsage("req-3", ReportedUsage{9000, 7, 0, 5, std::nullopt});
  ex.NoteReportedUsage("req-2", ReportedUsage{9000, 200, 0, 5, std::nullopt});  // replaces
  EXPECT_EQ(ToJson(ex.Summary()),
            R"({"requests":4,"prompt_bytes":160000,"shared_prefix_bytes":62400,)"
            R"("max_shared_prefix_bytes":120000,"predicted_cached_tokens":15360,)"
            R"("ideal_cached_tokens":29952,"reported_cached_tokens":207,"reuse_bp":3900,)"
            R"("max_reuse_bp":7500,"breaks":{"item_edited":{"count":2,"lost_tokens":4608},)"
            R"("tools_changed":{"count":1,"lost_tokens":9984}}})");
}

TEST(CacheExplainer, EmptySummary) {
  CacheExplainer ex;
  EXPECT_EQ(ToJson(ex.Summary()),
            R"({"requests":0,"prompt_bytes":0,"shared_prefix_bytes":0,)"
            R"("max_shared_prefix_bytes":0,"predicted_cached_tokens":0,"ideal_cached_tokens":0,)"
            R"("reported_cached_tokens":0,"reuse_bp":0,"max_reuse_bp":0,"breaks":{}})");
}

}  // namespace
}  // namespace agentctx

namespace agentctx {
namespace {

// Regression: under `defer` the new tools are released at a compaction; the break of the next
// request is the compaction's, not tools_changed (which stays for a change without one).
TEST(Regression, Issue13BreakAfterCompactionIsTheCompactionEvenInTools) {
  const std::string items(40000, 'i');
  PromptSegments before;
  before.model = "m";
  before.cache_key = "k";
  before.tools_bytes = "[\"a\"]";
  before.items.push_back(ItemSegment{items, "user", 0});
  PromptSegments after = before;
  after.tools_bytes = "[\"a\",\"b\"]";
  after.items = {ItemSegment{"summary", "compaction", 0}};

  CacheExplainer compacted;
  compacted.Explain("req-1", before);
  compacted.NoteCompaction();
  CacheReport r = compacted.Explain("req-2", after);
  ASSERT_TRUE(r.cache_break.has_value());
  EXPECT_EQ(r.cache_break->reason, "history_rewritten_by_compaction");
  EXPECT_EQ(r.cache_break->section, "tools");

  CacheExplainer plain;
  plain.Explain("req-1", before);
  PromptSegments changed = before;
  changed.tools_bytes = "[\"a\",\"b\"]";
  EXPECT_EQ(plain.Explain("req-2", changed).cache_break->reason, "tools_changed");
}

}  // namespace
}  // namespace agentctx
