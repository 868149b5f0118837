// SPDX-License-Identifier: MIT
#include "protocol/json_codec.h"

#include <gtest/gtest.h>

#include "support/fixtures.h"

namespace agentctx {
namespace {

using testing::FixturePath;
using testing::ListFixtureDir;
using testing::ReadFixture;

TEST(JsonCodec, RoundTripsCompactInStoredOrder) {
  auto v = ParseJson(R"( {"b":1, "a":[true,false,null,"x"], "c":{"z":-5,"y":1.5e3}} )");
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(ToJson(*v), R"({"b":1,"a":[true,false,null,"x"],"c":{"z":-5,"y":1.5e3}})");
  EXPECT_EQ(ToSortedJson(*v), R"({"a":[true,false,null,"x"],"b":1,"c":{"y":1.5e3,"z":-5}})");
}

TEST(JsonCodec, EscapesOnlyWhatSpecRequires) {
  // Only `"`, `\` and U+0000-U+001F are escaped: U+001F + "/é" -> "\u001f/é"
  EXPECT_EQ(JsonString("\x1f/\xc3\xa9"), "\"\\u001f/\xc3\xa9\"");
  EXPECT_EQ(JsonString("\b\t\n\f\r\"\\\x01"), R"("\b\t\n\f\r\"\\\u0001")");
}

TEST(JsonCodec, InvalidJsonIsATypedErrorWithOffset) {
  auto v = ParseJson("{\"a\": oops}");
  ASSERT_FALSE(v.has_value());
  EXPECT_EQ(v.error().code, ErrorCode::kInvalidJson);
  ASSERT_EQ(v.error().details.size(), 1u);
  EXPECT_EQ(v.error().details[0].first, "offset");
  EXPECT_EQ(v.error().details[0].second, "6");
}

TEST(JsonCodec, RejectsTrailingGarbageAndEmptyInput) {
  EXPECT_FALSE(ParseJson("{} x").has_value());
  EXPECT_FALSE(ParseJson("").has_value());
  EXPECT_FALSE(ParseJson("   ").has_value());
}

TEST(JsonCodec, ReplacesInvalidUtf8InStrings) {
  auto v = ParseJson("[\"project\xff doc\"]");
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->items()[0].string_value(), "project\xEF\xBF\xBD doc");
}

TEST(JsonCodec, DecodesEscapesIncludingNul) {
  auto v = ParseJson(R"(["a\u0000b","\u00e9\ud83d\ude00"])");
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->items()[0].string_value(), std::string("a\0b", 3));
  EXPECT_EQ(v->items()[1].string_value(), "\xc3\xa9\xf0\x9f\x98\x80");
  EXPECT_EQ(ToJson(*v), "[\"a\\u0000b\",\"\xc3\xa9\xf0\x9f\x98\x80\"]");
}

TEST(JsonCodec, DeepNestingIsAnErrorNotACrash) {
  std::string deep(100000, '[');
  auto v = ParseJson(deep);
  ASSERT_FALSE(v.has_value());
  EXPECT_EQ(v.error().code, ErrorCode::kInvalidJson);
  std::string ok_depth = std::string(200, '[') + std::string(200, ']');
  EXPECT_TRUE(ParseJson(ok_depth).has_value());
}

TEST(JsonCodec, IntegersAndLexemes) {
  auto v = ParseJson(R"([9223372036854775807,-9223372036854775808,9223372036854775808,1.0,-0])");
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->items()[0].int_value(), INT64_MAX);
  EXPECT_EQ(v->items()[1].int_value(), INT64_MIN);
  EXPECT_FALSE(v->items()[2].int_value().has_value());
  EXPECT_FALSE(v->items()[3].int_value().has_value());
  EXPECT_EQ(ToJson(JsonValue::Int(-42)), "-42");
  EXPECT_EQ(ToJson(JsonValue::Int(INT64_MIN)), "-9223372036854775808");
}

TEST(JsonCodec, StripNullsKeepsArrayNulls) {
  // Snapshot form: {"a":{"b":null,"c":[null,1]},"z":null} -> {"a":{"c":[null,1]}}
  auto v = ParseJson(R"({"a":{"b":null,"c":[null,1]},"z":null})");
  ASSERT_TRUE(v.has_value());
  StripNulls(&*v);
  EXPECT_EQ(ToSortedJson(*v), R"({"a":{"c":[null,1]}})");
}

TEST(JsonCodec, CorpusCasesParseOrFailAsLabelled) {
  // tests/fixtures/codec/*.json: names starting "bad_" must fail, the rest round-trip.
  auto names = ListFixtureDir("codec");
  ASSERT_FALSE(names.empty()) << "fixture corpus not reachable at " << FixturePath("codec");
  for (const auto& name : names) {
    auto text = ReadFixture("codec/" + name);
    ASSERT_TRUE(text.has_value()) << name;
    auto v = ParseJson(*text);
    if (name.rfind("bad_", 0) == 0) {
      EXPECT_FALSE(v.has_value()) << name;
    } else {
      ASSERT_TRUE(v.has_value()) << name << ": " << v.error().message;
      auto again = ParseJson(ToJson(*v));
      ASSERT_TRUE(again.has_value()) << name;
      EXPECT_EQ(*again, *v) << name;
    }
  }
}

}  // namespace
}  // namespace agentctx
