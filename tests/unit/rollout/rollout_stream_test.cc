// SPDX-License-Identifier: MIT
// The one-line-at-a-time rollout reader (rollout_reader.h, ForEachRolloutRecord) that replay
// reads with: the same records, line numbers, warnings and errors as ParseRollout on every
// fixture rollout and on the edge cases (BOM, CRLF, blank lines, torn last line, corrupt line,
// oversized line); and the pre-scan for rare lines (ForEachRolloutLineContaining).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "protocol/json_codec.h"
#include "rollout/replay_usage.h"
#include "rollout/rollout_reader.h"
#include "support/fixtures.h"

namespace agentctx {
namespace {

using testing::ListFixtureDir;
using testing::ReadFixture;

std::string WarningsText(const std::vector<Warning>& warnings) {
  std::string out;
  for (const Warning& w : warnings) out += std::string(ToWire(w.code)) + ": " + w.message + "\n";
  return out;
}

// Streams `text` and compares every record, warning and error with ParseRollout's; then again
// with every line checked only (validate_only), which must count and fail the same way.
void ExpectSameAsParse(const std::string& text, std::size_t max_line = kMaxRolloutLineBytes) {
  auto parsed = ParseRollout(text, max_line);
  {
    std::vector<Warning> warnings;
    std::uint64_t visited = 0;
    auto checked = ForEachRolloutRecord(
        text, [&visited](RolloutRecord&&) { ++visited; }, &warnings, max_line,
        [](std::string_view) { return true; });
    ASSERT_EQ(parsed.has_value(), checked.has_value());
    EXPECT_EQ(visited, 0u);
    if (parsed) {
      EXPECT_EQ(*checked, parsed->records.size());
      EXPECT_EQ(WarningsText(warnings), WarningsText(parsed->warnings));
    } else {
      EXPECT_EQ(parsed.error().message, checked.error().message);
    }
  }
  std::vector<RolloutRecord> seen;
  std::vector<Warning> warnings;
  auto streamed = ForEachRolloutRecord(
      text, [&seen](RolloutRecord&& r) { seen.push_back(std::move(r)); }, &warnings, max_line);
  ASSERT_EQ(parsed.has_value(), streamed.has_value());
  if (!parsed) {
    EXPECT_EQ(parsed.error().message, streamed.error().message);
    return;
  }
  EXPECT_EQ(*streamed, parsed->records.size());
  ASSERT_EQ(seen.size(), parsed->records.size());
  for (std::size_t i = 0; i < seen.size(); ++i) {
    EXPECT_EQ(seen[i].line_number, parsed->records[i].line_number);
    EXPECT_EQ(ToJson(seen[i].line), ToJson(parsed->records[i].line));
  }
  EXPECT_EQ(WarningsText(warnings), WarningsText(parsed->warnings));
}

TEST(RolloutStream, SameAsParseOnEveryFixtureRollout) {
  std::size_t files = 0;
  for (const std::string& dir : {std::string("rollouts"), std::string("compaction")}) {
    for (const std::string& name : ListFixtureDir(dir)) {
      std::string rel = dir + "/" + name;
      if (dir == "compaction") rel += "/rollout.jsonl";
      if (rel.size() < 6 || rel.substr(rel.size() - 6) != ".jsonl") continue;
      std::optional<std::string> text = ReadFixture(rel);
      if (!text) continue;
      SCOPED_TRACE(rel);
      ExpectSameAsParse(*text);
      ++files;
    }
  }
  EXPECT_GE(files, 5u);
}

TEST(RolloutStream, SameAsParseOnTheEdgeCases) {
  const std::string a = R"({"type":"event_msg","payload":{"type":"a"}})";
  const std::string b = R"({"type":"event_msg","payload":{"type":"b"}})";
  const std::vector<std::string> cases = {
      std::string(),
      "\n",
      a,
      a + "\n",
      "\xEF\xBB\xBF" + a + "\n" + b + "\n",
      a + "\r\n" + b + "\r\n",
      a + "\n\n  \n" + b + "\n\n",
      a + "\n" + b + "\n{\"torn\":",
      a + "\n{\"torn\":\n" + b + "\n",  // corrupt in the middle
      a + "\n[1]\n",                    // not an object, last: torn
      a + "\n[1]\n" + b + "\n",         // not an object, in the middle: corrupt
      a + "\n{\"torn\":\n   \n",        // a blank line after it: still the middle
  };
  for (const std::string& text : cases) {
    SCOPED_TRACE(text);
    ExpectSameAsParse(text);
  }
  ExpectSameAsParse(
      a + "\n" + R"({"type":"event_msg","payload":{"type":"xxxxxxxxxx"}})" + "\n" + b + "\n",
      50);  // the middle line over the limit: skipped with a warning
}

TEST(RolloutStream, ValidateJsonGivesParseJsonsVerdict) {
  std::string deep = std::string(600, '[') + std::string(600, ']');
  for (const std::string& text : std::vector<std::string>{
           "{}", "[]", "1", "\"s\"", "{\"a\":[1,{\"b\":null}]}", "{\"a\":1,}", "{\"a\"", "", "  ",
           "{} x", "{\"k\":\"\xff\"}", deep, "{\"a\":1,\"a\":2}", "nan", "{\"n\":-1.5e3}"}) {
    SCOPED_TRACE(text);
    auto parsed = ParseJson(text);
    bool object = false;
    auto checked = ValidateJson(text, &object);
    ASSERT_EQ(parsed.has_value(), checked.has_value());
    if (parsed) {
      EXPECT_EQ(object, parsed->is_object());
    } else {
      EXPECT_EQ(parsed.error().message, checked.error().message);
    }
  }
}

TEST(RolloutStream, ACorruptLineStopsThePassAfterTheLinesBeforeIt) {
  std::vector<std::uint64_t> lines;
  std::vector<Warning> warnings;
  auto r = ForEachRolloutRecord(
      "{\"a\":1}\n{\"b\":2}\nnot json\n{\"c\":3}\n",
      [&lines](RolloutRecord&& rec) { lines.push_back(rec.line_number); }, &warnings);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code, ErrorCode::kRolloutCorrupt);
  EXPECT_EQ(r.error().message.rfind("rollout line 3 is invalid", 0), 0u) << r.error().message;
  EXPECT_EQ(lines, (std::vector<std::uint64_t>{1, 2}));
}

TEST(RolloutStream, LinesContainingANeedleAreTheOnlyOnesParsed) {
  const std::string text =
      "\xEF\xBB\xBF{\"type\":\"token_usage_record\",\"usage\":{}}\r\n"
      "{\"type\":\"event_msg\",\"payload\":{\"type\":\"agent_message\",\"message\":"
      "\"token_usage_record\"}}\n"
      "broken token_usage_record line\n"
      "{\"type\":\"token_usage_record\"}";
  std::vector<std::string> types;
  ForEachRolloutLineContaining(text, "token_usage_record", [&types](const RolloutRecord& r) {
    types.emplace_back(r.type());
    return true;
  });
  EXPECT_EQ(types,
            (std::vector<std::string>{"token_usage_record", "event_msg", "token_usage_record"}));
  // A message that only mentions the type is no usage record.
  EXPECT_TRUE(UsageReader::HasUsageRecords(text));
  EXPECT_FALSE(UsageReader::HasUsageRecords(
      "{\"type\":\"event_msg\",\"payload\":{\"message\":\"token_usage_record\"}}\n"));
  // Stopping early.
  std::size_t calls = 0;
  ForEachRolloutLineContaining(text, "token_usage_record", [&calls](const RolloutRecord&) {
    ++calls;
    return false;
  });
  EXPECT_EQ(calls, 1u);
}

}  // namespace
}  // namespace agentctx
