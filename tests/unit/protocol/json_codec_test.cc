// SPDX-License-Identifier: MIT
#include "protocol/json_codec.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

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

// What JsonValue::Set makes of the same members: the reference for duplicate keys.
JsonValue SetOneByOne(const std::vector<std::pair<std::string, int>>& members) {
  JsonValue object = JsonValue::Object();
  for (const auto& [key, value] : members) object.Set(key, JsonValue::Int(value));
  return object;
}

std::string ObjectText(const std::vector<std::pair<std::string, int>>& members) {
  std::string text = "{";
  for (const auto& [key, value] : members) {
    if (text.size() > 1) text += ",";
    text += JsonString(key) + ":" + std::to_string(value);
  }
  return text + "}";
}

TEST(JsonCodec, DuplicateKeysLastValueWinsAtTheFirstPlace) {
  // Small objects and large ones (which take another path) alike, nested in arrays too.
  for (int n : {2, 5, 16, 17, 40, 3000}) {
    std::vector<std::pair<std::string, int>> members;
    for (int i = 0; i < n; ++i) {
      // Every third key repeats one from earlier (a few repeat more than once).
      std::string key = i % 3 == 2 ? "k" + std::to_string(i / 7) : "k" + std::to_string(i);
      members.emplace_back(key, i);
    }
    auto parsed = ParseJson("[" + ObjectText(members) + ",[" + ObjectText(members) + "]]");
    ASSERT_TRUE(parsed.has_value()) << n;
    const JsonValue expected = SetOneByOne(members);
    EXPECT_EQ(ToJson(parsed->items()[0]), ToJson(expected)) << n;
    EXPECT_EQ(ToJson(parsed->items()[1].items()[0]), ToJson(expected)) << n;
  }
  auto same = ParseJson(R"({"a":1,"b":2,"a":3,"a":{"x":[4]}})");
  ASSERT_TRUE(same.has_value());
  EXPECT_EQ(ToJson(*same), R"({"a":{"x":[4]},"b":2})");
}

TEST(JsonCodec, AnObjectOfManyKeysParsesInLinearWork) {
  // 400 000 distinct keys (5.6 MB): each key checked against all earlier ones took many minutes
  // (docs/RELIABILITY.md); now a sort. Every key is kept, in order.
  constexpr int kKeys = 400000;
  std::string text = "{";
  for (int i = 0; i < kKeys; ++i) {
    if (i > 0) text += ",";
    text += "\"key" + std::to_string(i) + "\":" + std::to_string(i);
  }
  text += "}";
  auto parsed = ParseJson(text);
  ASSERT_TRUE(parsed.has_value());
  ASSERT_EQ(parsed->members().size(), static_cast<std::size_t>(kKeys));
  EXPECT_EQ(parsed->members()[12345].key, "key12345");
  EXPECT_EQ(parsed->members()[kKeys - 1].value.int_value(), kKeys - 1);
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
