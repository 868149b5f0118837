// SPDX-License-Identifier: MIT
#include "protocol/sse_parser.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace agentctx {
namespace {

// Feeds `text` in chunks of at most `step` bytes (0 = whole), then Finish().
SseOutput FeedAll(const std::string& text, std::size_t step = 0) {
  SseParser parser;
  SseOutput out;
  if (step == 0) {
    parser.Feed(text, &out);
  } else {
    for (std::size_t i = 0; i < text.size(); i += step) {
      parser.Feed(std::string_view(text).substr(i, step), &out);
    }
  }
  parser.Finish();
  return out;
}

std::vector<std::string> Events(const SseOutput& out) {
  std::vector<std::string> json;
  for (const auto& e : out.events) json.push_back(ToJson(e));
  return json;
}

constexpr char kCreated[] =
    "event: response.created\ndata: "
    "{\"type\":\"response.created\",\"response\":{\"id\":\"resp_1\"}}"
    "\n\n";

// Regression: a huge event is dropped as it streams (bounded memory) with one warning; the
// events around it are kept.
TEST(Regression, Issue17OversizedSseEventIsDroppedWithAWarning) {
  const std::string big(kMaxSseEventBytes + 10, 'a');
  const std::string text =
      "data: {\"type\":\"before\"}\n\n"
      "data: {\"type\":\"x\",\"t\":\"" +
      big +
      "\"}\n\n"
      "data: {\"type\":\"after\"}\n\n";
  for (std::size_t step : {std::size_t{0}, std::size_t{1} << 20}) {
    SseOutput out = FeedAll(text, step);
    EXPECT_EQ(Events(out),
              (std::vector<std::string>{R"({"type":"before"})", R"({"type":"after"})"}))
        << step;
    ASSERT_EQ(out.warnings.size(), 1u);
    EXPECT_EQ(ToWire(out.warnings[0].code), "sse_event_too_large");
  }
}

// Split after every byte → one response.created.
TEST(SseParser, SplitAfterEveryByteGivesOneEvent) {
  SseOutput out = FeedAll(kCreated, 1);
  ASSERT_EQ(out.events.size(), 1u);
  EXPECT_EQ(ToJson(out.events[0]), R"({"type":"response.created","response":{"id":"resp_1"}})");
  EXPECT_TRUE(out.warnings.empty());
}

// Data lines joined by \n, CRLF line ends.
TEST(SseParser, JoinsDataLinesWithNewlineAcrossCrlf) {
  SseOutput out = FeedAll("data: {\"type\":\r\ndata: \"response.created\"}\r\n\r\n");
  ASSERT_EQ(out.events.size(), 1u);
  EXPECT_EQ(out.events[0].GetString("type").value_or(""), "response.created");
}

// A comment yields nothing; invalid JSON warns and is skipped.
TEST(SseParser, CommentYieldsNothing) {
  SseOutput out = FeedAll(": keepalive\n\n");
  EXPECT_TRUE(out.events.empty());
  EXPECT_TRUE(out.warnings.empty());
}

TEST(SseParser, InvalidJsonWarnsAndSkips) {
  SseOutput out = FeedAll("data: {oops}\n\ndata: {\"type\":\"ok\"}\n\n");
  ASSERT_EQ(out.warnings.size(), 1u);
  EXPECT_EQ(ToWire(out.warnings[0].code), "sse_parse_error");
  EXPECT_NE(out.warnings[0].message.find("invalid JSON"), std::string::npos);
  ASSERT_EQ(out.events.size(), 1u);
  EXPECT_EQ(ToJson(out.events[0]), R"({"type":"ok"})");
}

TEST(SseParser, NonObjectDataWarns) {
  SseOutput out = FeedAll("data: 5\n\n");
  EXPECT_TRUE(out.events.empty());
  ASSERT_EQ(out.warnings.size(), 1u);
  EXPECT_EQ(ToWire(out.warnings[0].code), "sse_parse_error");
}

TEST(SseParser, AllLineEndingsAndEverySplitGiveTheSameEvents) {
  const std::string base =
      ": hi\nevent: a\ndata: {\"x\":1}\n\nid: 7\nretry: 10\ndata: {\"type\":\"b\",\"s\":\"\xC3\xA9"
      "\xF0\x9F\x98\x80\"}\n\ndata:{\"type\":\"c\"}\n\n";
  for (const char* eol : {"\n", "\r\n", "\r"}) {
    std::string text;
    for (char c : base) {
      if (c == '\n') {
        text += eol;
      } else {
        text.push_back(c);
      }
    }
    std::vector<std::string> whole = Events(FeedAll(text));
    ASSERT_EQ(whole.size(), 3u) << "eol " << int(eol[0]);
    EXPECT_EQ(whole[0], R"({"type":"a","x":1})");
    EXPECT_EQ(whole[1], "{\"type\":\"b\",\"s\":\"\xC3\xA9\xF0\x9F\x98\x80\"}");
    EXPECT_EQ(whole[2], R"({"type":"c"})");
    for (std::size_t step = 1; step <= 7; ++step) {
      EXPECT_EQ(Events(FeedAll(text, step)), whole) << "step " << step;
    }
  }
}

TEST(SseParser, CrAtChunkEndFollowedByLfIsOneLineEnd) {
  SseParser parser;
  SseOutput out;
  parser.Feed("data: {\"type\":\"a\"}\r", &out);
  parser.Feed("\n\r", &out);
  EXPECT_EQ(out.events.size(), 1u);  // "\r\n" ended the data line, "\r" is the blank line
  parser.Feed("\ndata: {\"type\":\"b\"}\r\r", &out);
  ASSERT_EQ(out.events.size(), 2u);  // the "\n" after "\r" was swallowed, not a 2nd blank line
  EXPECT_EQ(ToJson(out.events[1]), R"({"type":"b"})");
  EXPECT_TRUE(out.warnings.empty());
}

TEST(SseParser, EventFieldUsedOnlyWhenTypeMissing) {
  SseOutput out =
      FeedAll("event: from_event\ndata: {\"a\":1}\n\nevent: ignored\ndata: {\"type\":\"own\"}\n\n");
  ASSERT_EQ(out.events.size(), 2u);
  EXPECT_EQ(ToJson(out.events[0]), R"({"type":"from_event","a":1})");
  EXPECT_EQ(ToJson(out.events[1]), R"({"type":"own"})");
}

TEST(SseParser, EventTypeDoesNotLeakIntoNextEvent) {
  SseOutput out = FeedAll("event: first\n\ndata: {\"a\":1}\n\n");
  ASSERT_EQ(out.events.size(), 1u);
  EXPECT_EQ(ToJson(out.events[0]), R"({"a":1})");
}

TEST(SseParser, DoneIsIgnored) {
  SseOutput out = FeedAll("data: [DONE]\n\n");
  EXPECT_TRUE(out.events.empty());
  EXPECT_TRUE(out.warnings.empty());
}

TEST(SseParser, StripsOnlyOneLeadingSpace) {
  SseOutput out = FeedAll("data:  {\"type\":\"x\"}\n\ndata:{\"type\":\"y\"}\n\n");
  ASSERT_EQ(out.events.size(), 2u);
  EXPECT_EQ(ToJson(out.events[1]), R"({"type":"y"})");
  // Leading whitespace before JSON is allowed by the JSON grammar.
  EXPECT_EQ(ToJson(out.events[0]), R"({"type":"x"})");
  SseOutput strings = FeedAll("data:  \"a\"\n\n");
  EXPECT_EQ(strings.warnings.size(), 1u);  // a string is not an event object
}

TEST(SseParser, UndispatchedEventAtEndIsDiscarded) {
  SseParser parser;
  SseOutput out;
  parser.Feed("data: {\"type\":\"a\"}\n", &out);
  EXPECT_TRUE(parser.HasPendingEvent());
  parser.Finish();
  EXPECT_FALSE(parser.HasPendingEvent());
  EXPECT_TRUE(out.events.empty());
  // After Finish() the parser starts clean.
  parser.Feed("data: {\"type\":\"b\"}\n\n", &out);
  ASSERT_EQ(out.events.size(), 1u);
  EXPECT_EQ(ToJson(out.events[0]), R"({"type":"b"})");
}

TEST(SseParser, PartialLineAtEndIsDiscarded) {
  SseOutput out = FeedAll("data: {\"type\":\"a\"}");
  EXPECT_TRUE(out.events.empty());
  EXPECT_TRUE(out.warnings.empty());
}

TEST(SseParser, EmptyDataLinesAndFieldWithoutColon) {
  // "data" without a colon is a data field with an empty value.
  SseOutput out = FeedAll("data: {\"type\":\ndata\ndata: \"x\"}\n\n");
  ASSERT_EQ(out.events.size(), 1u);
  EXPECT_EQ(ToJson(out.events[0]), R"({"type":"x"})");
  // Blank lines with no data dispatch nothing.
  EXPECT_TRUE(FeedAll("\n\n\n").events.empty());
}

TEST(SseParser, LeadingBomIsDropped) {
  SseOutput out = FeedAll(
      "\xEF\xBB\xBF"
      "data: {\"type\":\"a\"}\n\n",
      1);
  ASSERT_EQ(out.events.size(), 1u);
  EXPECT_TRUE(out.warnings.empty());
}

TEST(SseParser, InvalidUtf8InDataIsReplaced) {
  SseOutput out = FeedAll(
      "data: {\"type\":\"d\",\"s\":\"a\xFF"
      "b\"}\n\n");
  ASSERT_EQ(out.events.size(), 1u);
  EXPECT_EQ(out.events[0].GetString("s").value_or(""),
            "a\xEF\xBF\xBD"
            "b");
}

TEST(SseParser, UnknownFieldsIgnored) {
  SseOutput out = FeedAll("foo: bar\nid\nretry: x\ndata: {\"type\":\"a\"}\n\n");
  ASSERT_EQ(out.events.size(), 1u);
}

}  // namespace
}  // namespace agentctx
