// SPDX-License-Identifier: MIT
#include "protocol/merge_patch.h"

#include <gtest/gtest.h>

#include <string>

#include "protocol/json_codec.h"

namespace agentctx {
namespace {

JsonValue J(const std::string& text) {
  auto v = ParseJson(text);
  EXPECT_TRUE(v.has_value()) << text;
  return v.has_value() ? *v : JsonValue();
}

std::string Apply(const std::string& target, const std::string& patch) {
  return ToSortedJson(MergePatchApply(J(target), J(patch)));
}

std::string Diff(const std::string& prev, const std::string& cur) {
  return ToSortedJson(MergePatchDiff(J(prev), J(cur)));
}

// Diff, apply(prev) = cur, self-diff empty.
TEST(MergePatch, SpecVectorDiffApplyAndSelfDiff) {
  const std::string prev =
      R"({"kept":{"same":true,"changed":"before","removed":true},"removed_section":{"value":true}})";
  const std::string cur = R"({"kept":{"same":true,"changed":"after"}})";
  JsonValue patch = MergePatchDiff(J(prev), J(cur));
  EXPECT_EQ(ToSortedJson(patch),
            R"({"kept":{"changed":"after","removed":null},"removed_section":null})");
  EXPECT_EQ(MergePatchApply(J(prev), patch), J(cur));
  EXPECT_EQ(ToSortedJson(MergePatchApply(J(prev), patch)), ToSortedJson(J(cur)));
  JsonValue self = MergePatchDiff(J(prev), J(prev));
  EXPECT_TRUE(IsEmptyMergePatch(self));
  EXPECT_EQ(ToJson(self), "{}");
}

TEST(MergePatch, EmptyPatchChangesNothing) {
  EXPECT_EQ(Apply(R"({"a":1,"b":[1,2]})", "{}"), R"({"a":1,"b":[1,2]})");
  EXPECT_FALSE(IsEmptyMergePatch(J(R"({"a":null})")));
  EXPECT_FALSE(IsEmptyMergePatch(J("[]")));
  EXPECT_FALSE(IsEmptyMergePatch(JsonValue()));
}

TEST(MergePatch, DiffArraysReplaceWhole) {
  EXPECT_EQ(Diff(R"({"a":[1,2,3]})", R"({"a":[1,2]})"), R"({"a":[1,2]})");
  EXPECT_EQ(Diff(R"({"a":[1,2]})", R"({"a":[1,2]})"), "{}");
}

TEST(MergePatch, DiffNewKeysAndTypeChangesAreWholeValues) {
  EXPECT_EQ(Diff(R"({})", R"({"n":{"x":{"y":1}}})"), R"({"n":{"x":{"y":1}}})");
  EXPECT_EQ(Diff(R"({"n":"s"})", R"({"n":{"x":1}})"), R"({"n":{"x":1}})");
  EXPECT_EQ(Diff(R"({"n":{"x":1}})", R"({"n":5})"), R"({"n":5})");
}

TEST(MergePatch, DiffNestedOnlyChangedLeaves) {
  EXPECT_EQ(Diff(R"({"environment":{"environments":{"local":{"cwd":"/a","status":"ready"}}}})",
                 R"({"environment":{"environments":{"local":{"cwd":"/b","status":"ready"}}}})"),
            R"({"environment":{"environments":{"local":{"cwd":"/b"}}}})");
}

TEST(MergePatch, DiffOfNonObjectsIsCurOrEmpty) {
  EXPECT_EQ(Diff("1", "2"), "2");
  EXPECT_EQ(Diff("[1]", "[1]"), "{}");
  EXPECT_EQ(Diff(R"({"a":1})", "null"), "null");
}

TEST(MergePatch, DiffIsInsensitiveToMemberOrder) {
  EXPECT_EQ(Diff(R"({"a":1,"b":{"c":2,"d":3}})", R"({"b":{"d":3,"c":2},"a":1})"), "{}");
}

// RFC 7386 Appendix A.
TEST(MergePatch, ApplyRfcAppendixExamples) {
  EXPECT_EQ(Apply(R"({"a":"b"})", R"({"a":"c"})"), R"({"a":"c"})");
  EXPECT_EQ(Apply(R"({"a":"b"})", R"({"b":"c"})"), R"({"a":"b","b":"c"})");
  EXPECT_EQ(Apply(R"({"a":"b"})", R"({"a":null})"), R"({})");
  EXPECT_EQ(Apply(R"({"a":"b","b":"c"})", R"({"a":null})"), R"({"b":"c"})");
  EXPECT_EQ(Apply(R"({"a":["b"]})", R"({"a":"c"})"), R"({"a":"c"})");
  EXPECT_EQ(Apply(R"({"a":"c"})", R"({"a":["b"]})"), R"({"a":["b"]})");
  EXPECT_EQ(Apply(R"({"a":{"b":"c"}})", R"({"a":{"b":"d","c":null}})"), R"({"a":{"b":"d"}})");
  EXPECT_EQ(Apply(R"({"a":[{"b":"c"}]})", R"({"a":[1]})"), R"({"a":[1]})");
  EXPECT_EQ(Apply(R"(["a","b"])", R"(["c","d"])"), R"(["c","d"])");
  EXPECT_EQ(Apply(R"({"a":"b"})", R"(["c"])"), R"(["c"])");
  EXPECT_EQ(Apply(R"({"a":"foo"})", "null"), "null");
  EXPECT_EQ(Apply(R"({"a":"foo"})", R"("bar")"), R"("bar")");
  EXPECT_EQ(Apply(R"({"e":null})", R"({"a":1})"), R"({"a":1,"e":null})");
  EXPECT_EQ(Apply(R"([1,2])", R"({"a":"b","c":null})"), R"({"a":"b"})");
  EXPECT_EQ(Apply(R"({})", R"({"a":{"bb":{"ccc":null}}})"), R"({"a":{"bb":{}}})");
}

TEST(MergePatch, ApplyKeepsTargetMemberOrderAndAppendsNewKeys) {
  JsonValue out = MergePatchApply(J(R"({"z":1,"a":2})"), J(R"({"a":3,"m":4})"));
  EXPECT_EQ(ToJson(out), R"({"z":1,"a":3,"m":4})");
}

// Resume's world-state baseline, the merge-patch part: full, then a patch.
TEST(MergePatch, RoundTripsWorldStateBaseline) {
  JsonValue base = J(R"({"environment":{"status":"starting","cwd":"/workspace"}})");
  JsonValue out = MergePatchApply(base, J(R"({"environment":{"status":"ready"}})"));
  EXPECT_EQ(ToSortedJson(out), R"({"environment":{"cwd":"/workspace","status":"ready"}})");
}

TEST(MergePatch, DiffThenApplyRoundTripsNullFreeValues) {
  const char* pairs[][2] = {
      {R"({"a":{"b":{"c":1}},"d":[1]})", R"({"a":{"b":{"c":2,"e":3}},"f":"x"})"},
      {R"({})", R"({"a":{"b":{}}})"},
      {R"({"a":{"b":{}}})", R"({})"},
      {R"({"model":"m1","skills":[]})", R"({"model":"m2","skills":[{"name":"s"}]})"},
  };
  for (const auto& p : pairs) {
    JsonValue prev = J(p[0]);
    JsonValue cur = J(p[1]);
    EXPECT_EQ(MergePatchApply(prev, MergePatchDiff(prev, cur)), cur) << p[0] << " -> " << p[1];
  }
}

// RFC 7386 apply one key at a time through JsonValue's own Set/Remove/Find: the reference.
JsonValue ApplyKeyByKey(const JsonValue& target, const JsonValue& patch) {
  if (!patch.is_object()) return patch;
  JsonValue result = target.is_object() ? target : JsonValue::Object();
  for (const JsonMember& m : patch.members()) {
    if (m.value.is_null()) {
      result.Remove(m.key);
      continue;
    }
    const JsonValue* existing = result.Find(m.key);
    result.Set(m.key, ApplyKeyByKey(existing != nullptr ? *existing : JsonValue(), m.value));
  }
  return result;
}

// Objects past the size where look-ups are hashed take the same results, in the same member
// order, as the small ones: keys kept, changed, deleted (some deleted and some added in
// between) and added; a nested object changed in place.
TEST(MergePatch, LargeObjectsDiffAndApplyLikeSmallOnes) {
  for (int n : {3, 16, 17, 60, 1000}) {
    JsonValue prev = JsonValue::Object();
    JsonValue cur = JsonValue::Object();
    for (int i = 0; i < n; ++i) {
      const std::string key = "k" + std::to_string(i);
      prev.Set(key, JsonValue::Int(i));
      if (i % 4 == 1) continue;                           // deleted
      cur.Set(key, JsonValue::Int(i % 4 == 2 ? -i : i));  // changed or kept
      if (i % 5 == 0) cur.Set("new" + std::to_string(i), JsonValue::String("x"));
    }
    prev.Set("nested", J(R"({"a":1,"b":2})"));
    cur.Set("nested", J(R"({"a":1,"b":3})"));
    const JsonValue patch = MergePatchDiff(prev, cur);
    const JsonValue applied = MergePatchApply(prev, patch);
    EXPECT_EQ(applied, cur) << n;
    EXPECT_EQ(ToJson(applied), ToJson(ApplyKeyByKey(prev, patch))) << n;  // the same order too
    EXPECT_EQ(ToSortedJson(*patch.Find("nested")), R"({"b":3})") << n;
    EXPECT_TRUE(patch.Find("k1")->is_null()) << n;
    EXPECT_EQ(patch.Find("k0"), nullptr) << n;
    // Equality ignores member order at any size.
    JsonValue reversed = JsonValue::Object();
    for (auto it = cur.members().rbegin(); it != cur.members().rend(); ++it) {
      reversed.Set(it->key, it->value);
    }
    EXPECT_EQ(reversed, cur) << n;
    reversed.members().back().value = JsonValue::Int(12345);
    EXPECT_NE(reversed, cur) << n;
  }
}

// A patch built with a repeated key (JSON text never gives one) applies key by key at any size:
// a later member sees what the earlier one did.
TEST(MergePatch, RepeatedPatchKeysApplyInOrder) {
  for (int n : {4, 40}) {
    JsonValue target = JsonValue::Object();
    JsonValue patch = JsonValue::Object();
    for (int i = 0; i < n; ++i) target.Set("t" + std::to_string(i), JsonValue::Int(i));
    for (int i = 0; i < n; ++i) {
      const std::string key = "t" + std::to_string(i % 3);
      patch.members().push_back(JsonMember{key, i % 2 == 0 ? JsonValue() : JsonValue::Int(-i)});
      patch.members().push_back(JsonMember{"new", JsonValue::Int(i)});
    }
    EXPECT_EQ(ToJson(MergePatchApply(target, patch)), ToJson(ApplyKeyByKey(target, patch))) << n;
  }
}

// An object patch of many keys (an `update` of a hostile host, a rollout's world_state patch)
// is applied with one look-up per key: 200 000 keys onto 200 000 took many minutes key by key.
TEST(MergePatch, ApplyOfManyKeysIsLinear) {
  constexpr int kKeys = 200000;
  JsonValue target = JsonValue::Object();
  JsonValue patch = JsonValue::Object();
  for (int i = 0; i < kKeys; ++i) {
    target.members().push_back(JsonMember{"t" + std::to_string(i), JsonValue::Int(i)});
    patch.members().push_back(JsonMember{"p" + std::to_string(i), JsonValue::Int(i)});
  }
  patch.members().push_back(JsonMember{"t7", JsonValue()});
  const JsonValue out = MergePatchApply(target, patch);
  ASSERT_EQ(out.members().size(), static_cast<std::size_t>(2 * kKeys - 1));
  EXPECT_EQ(out.members()[7].key, "t8");
  EXPECT_EQ(out.members().back().key, "p" + std::to_string(kKeys - 1));
  EXPECT_EQ(MergePatchDiff(out, out), JsonValue::Object());
  // A small target (a config) and the same patch: the keys the patch adds are not searched again.
  const JsonValue small = MergePatchApply(J(R"({"t7":1,"model":"m"})"), patch);
  ASSERT_EQ(small.members().size(), static_cast<std::size_t>(kKeys + 1));
  EXPECT_EQ(small.members()[0].key, "model");
}

}  // namespace
}  // namespace agentctx
