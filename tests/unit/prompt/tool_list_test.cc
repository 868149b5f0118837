// SPDX-License-Identifier: MIT
#include "prompt/tool_list.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "support/sha1.h"

namespace agentctx {
namespace {

HostToolConfig Tool(std::string server, std::string name) {
  HostToolConfig t;
  t.server = std::move(server);
  t.name = std::move(name);
  t.parameters = JsonValue::Object();
  t.parameters.Set("type", JsonValue::String("object"));
  t.parameters.Set("properties", JsonValue::Object());
  return t;
}

std::vector<BuiltinToolSpec> Builtins() {
  return {{"read_file", R"({"name":"read_file"})"},
          {"list_dir", R"({"name":"list_dir"})"},
          {"write_file", R"({"name":"write_file"})"}};
}

std::vector<std::string> Names(const ToolList& list) {
  std::vector<std::string> names;
  for (const auto& t : list.tools) names.push_back(t.advertised_name);
  return names;
}

TEST(ToolList, SanitizesNames) {
  EXPECT_EQ(SanitizeToolName("list files"), "list_files");
  EXPECT_EQ(SanitizeToolName("h\xC3\xA9llo"), "h_llo");
  EXPECT_EQ(SanitizeToolName(""), "_");
  EXPECT_EQ(AdvertisedToolName("my.server", "get-thing"), "mcp__my_server__get-thing");
  EXPECT_EQ(AdvertisedToolName("", std::string(300, 'x')).size(), 128u);
}

TEST(ToolList, CanonicalOrderIgnoresInsertionOrder) {
  std::vector<HostToolConfig> tools = {Tool("b", "x"), Tool("a", "z"), Tool("", "local")};
  ToolList first = BuildToolList(Builtins(), tools);
  EXPECT_EQ(Names(first), (std::vector<std::string>{"read_file", "list_dir", "write_file", "local",
                                                    "mcp__a__z", "mcp__b__x"}));
  std::sort(tools.begin(), tools.end(),
            [](const HostToolConfig& a, const HostToolConfig& b) { return a.name > b.name; });
  do {
    EXPECT_EQ(BuildToolList(Builtins(), tools).array_bytes, first.array_bytes);
  } while (std::next_permutation(
      tools.begin(), tools.end(),
      [](const HostToolConfig& a, const HostToolConfig& b) { return a.name < b.name; }));
}

TEST(ToolList, CollisionsGetAHashSuffixAndAWarning) {
  ToolList list = BuildToolList({}, {Tool("", "a_b"), Tool("", "a b")});
  EXPECT_EQ(Names(list), (std::vector<std::string>{"a_b", "a_b_8dd5dc12"}));
  ASSERT_EQ(list.warnings.size(), 1u);
  EXPECT_EQ(ToWire(list.warnings[0].code), "tool_name_collision");
  ToolList builtin_clash = BuildToolList(Builtins(), {Tool("", "read_file")});
  EXPECT_EQ(builtin_clash.tools.back().advertised_name, "read_file_25d3003e");
}

TEST(ToolList, HostSpecHasFixedKeysAndSortedParameters) {
  HostToolConfig t = Tool("git", "status");
  t.description = "Shows status";
  t.parameters = JsonValue::Object();
  t.parameters.Set("type", JsonValue::String("object"));
  t.parameters.Set("properties", JsonValue::Object());
  t.parameters.Set("additionalProperties", JsonValue::Bool(false));
  ToolList list = BuildToolList({}, {t});
  EXPECT_EQ(list.array_bytes,
            R"([{"type":"function","name":"mcp__git__status","description":"Shows status",)"
            R"("strict":false,"parameters":{"additionalProperties":false,"properties":{},)"
            R"("type":"object"}}])");
  EXPECT_NE(list.FindAdvertised("mcp__git__status"), nullptr);
  EXPECT_EQ(list.FindAdvertised("status"), nullptr);
}

TEST(ToolList, EmptyListIsAnEmptyArray) { EXPECT_EQ(BuildToolList({}, {}).array_bytes, "[]"); }

TEST(ToolList, CarriesTheHashOfItsArray) {
  for (const ToolList& list : {BuildToolList({}, {}), BuildToolList(Builtins(), {})}) {
    EXPECT_EQ(list.array_sha1, Sha1Hex(list.array_bytes));
  }
  EXPECT_NE(BuildToolList({}, {}).array_sha1, BuildToolList(Builtins(), {}).array_sha1);
}

}  // namespace
}  // namespace agentctx
