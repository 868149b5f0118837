// SPDX-License-Identifier: MIT
// The `agents_md` config object (docs/config.md): defaults, validation, unknown keys, JSON form.
#include "agents_md/config.h"

#include <gtest/gtest.h>

#include "protocol/json_codec.h"

namespace agentctx {
namespace {

Result<AgentsMdConfig> Parse(std::string_view json, std::vector<std::string>* unknown = nullptr) {
  Result<JsonValue> v = ParseJson(json);
  EXPECT_TRUE(v.has_value());
  return AgentsMdConfigFromJson(*v, unknown);
}

TEST(AgentsMdConfig, Defaults) {
  AgentsMdConfig c = *Parse("null");
  EXPECT_FALSE(c.home_dir.has_value());
  EXPECT_EQ(c.max_bytes, 32768u);
  EXPECT_EQ(c.root_markers, std::vector<std::string>{".git"});
  EXPECT_TRUE(c.fallback_filenames.empty());
  EXPECT_EQ(c.refresh, AgentsMdRefresh::kSelection);
  EXPECT_EQ(*Parse("{}"), c);
  EXPECT_EQ(*Parse(R"({"home_dir":null,"max_bytes":null,"refresh":null})"), c);
}

TEST(AgentsMdConfig, ParsesEveryKey) {
  AgentsMdConfig c = *Parse(
      R"({"home_dir":"/home/u/.codex/","max_bytes":7,"root_markers":[],"fallback_filenames":["EXAMPLE.md"],"refresh":"probe"})");
  EXPECT_EQ(c.home_dir, "/home/u/.codex");
  EXPECT_EQ(c.max_bytes, 7u);
  EXPECT_TRUE(c.root_markers.empty());
  EXPECT_EQ(c.fallback_filenames, std::vector<std::string>{"EXAMPLE.md"});
  EXPECT_EQ(c.refresh, AgentsMdRefresh::kProbe);
}

TEST(AgentsMdConfig, RejectsBadValues) {
  for (std::string_view bad :
       {R"([])", R"({"home_dir":"relative"})", R"({"home_dir":5})", R"({"max_bytes":-1})",
        R"({"max_bytes":1.5})", R"({"max_bytes":"1"})", R"({"root_markers":".git"})",
        R"({"fallback_filenames":[1]})", R"({"refresh":"always"})"}) {
    auto r = Parse(bad);
    ASSERT_FALSE(r.has_value()) << bad;
    EXPECT_EQ(r.error().code, ErrorCode::kInvalidConfig) << bad;
  }
  EXPECT_EQ(Parse(R"({"refresh":"always"})").error().message,
            "agents_md.refresh must be selection or probe");
}

TEST(AgentsMdConfig, ReportsUnknownKeys) {
  std::vector<std::string> unknown;
  ASSERT_TRUE(Parse(R"({"max_bytes":1,"colour":"red","extra":null})", &unknown).has_value());
  EXPECT_EQ(unknown, (std::vector<std::string>{"agents_md.colour", "agents_md.extra"}));
}

TEST(AgentsMdConfig, JsonForm) {
  AgentsMdConfig c;
  EXPECT_EQ(
      ToJson(AgentsMdConfigToJson(c)),
      R"({"home_dir":null,"max_bytes":32768,"root_markers":[".git"],"fallback_filenames":[],"refresh":"selection"})");
  c.home_dir = "/h";
  c.refresh = AgentsMdRefresh::kProbe;
  EXPECT_EQ(*Parse(ToJson(AgentsMdConfigToJson(c))), c);
}

TEST(AgentsMdConfig, EqualityCoversEveryField) {
  AgentsMdConfig a;
  AgentsMdConfig b;
  EXPECT_EQ(a, b);
  b.fallback_filenames.push_back("X.md");
  EXPECT_NE(a, b);
  b = a;
  b.max_bytes = 1;
  EXPECT_NE(a, b);
  b = a;
  b.root_markers.clear();
  EXPECT_NE(a, b);
  b = a;
  b.home_dir = "/h";
  EXPECT_NE(a, b);
  b = a;
  b.refresh = AgentsMdRefresh::kProbe;
  EXPECT_NE(a, b);
}

}  // namespace
}  // namespace agentctx
