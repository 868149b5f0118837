// SPDX-License-Identifier: MIT
#include "world_state/sections/skills_section.h"

#include <gtest/gtest.h>

#include "support/utf8.h"
#include "unit/world_state/test_inputs.h"

namespace agentctx {
namespace {

using testing::BaseInputs;

constexpr std::string_view kHeader =
    "<skills_instructions>\n## Skills\nSkills are folders of instructions. When a task matches a "
    "skill's description, read its file with read_file before starting.\n### Available skills\n";

TEST(SkillsBlock, LinesSortedByNameWithAndWithoutDescription) {
  std::vector<SkillInput> skills = {
      {"zeta", std::nullopt, "/s/zeta/SKILL.md"},
      {"alpha", std::string("Does alpha things"), "/s/alpha/SKILL.md"},
      {"mid", std::string(""), "/s/mid/SKILL.md"},
  };
  EXPECT_EQ(RenderSkillsBlock(skills),
            std::string(kHeader) +
                "- alpha: Does alpha things (file: /s/alpha/SKILL.md)\n"
                "- mid: (file: /s/mid/SKILL.md)\n"
                "- zeta: (file: /s/zeta/SKILL.md)\n</skills_instructions>");
}

TEST(SkillsBlock, UnderBudgetKeepsLongDescriptions) {
  std::string desc(100, 'd');
  std::string block = RenderSkillsBlock({{"one", desc, "/p"}});
  EXPECT_NE(block.find("- one: " + desc + " (file: /p)"), std::string::npos);
}

TEST(SkillsBlock, BudgetCutsDescriptionsFirst) {
  std::vector<SkillInput> skills;
  for (int i = 0; i < 10; ++i) {
    // 1000 characters, multi-byte, so the cut counts characters and not bytes.
    std::string desc;
    for (int j = 0; j < 1000; ++j) desc += "é";
    skills.push_back({"s" + std::to_string(i), desc, "/s/" + std::to_string(i)});
  }
  skills.push_back({"short", std::string("tiny"), "/s/short"});
  std::string block = RenderSkillsBlock(skills);
  EXPECT_LE(CountChars(block), kSkillsBudgetChars);
  std::string cut;
  for (int j = 0; j < 80; ++j) cut += "é";
  EXPECT_NE(block.find("- s0: " + cut + "… (file: /s/0)\n"), std::string::npos);
  EXPECT_NE(block.find("- s9: " + cut + "… (file: /s/9)\n"), std::string::npos);
  EXPECT_NE(block.find("- short: tiny (file: /s/short)\n"), std::string::npos);
  EXPECT_EQ(block.find("more skills omitted"), std::string::npos);
}

std::string SkillName(std::size_t i) {
  std::string n = std::to_string(i);
  return "k" + std::string(3 - n.size(), '0') + n;
}

TEST(SkillsBlock, BudgetDropsSkillsFromTheEnd) {
  std::vector<SkillInput> skills;
  for (std::size_t i = 300; i-- > 0;) {  // reverse order: rendering sorts by name
    std::string name = SkillName(i);
    skills.push_back({name, std::string(120, 'x'), "/skills/" + name + "/SKILL.md"});
  }
  std::string block = RenderSkillsBlock(skills);
  std::uint64_t chars = CountChars(block);
  EXPECT_LE(chars, kSkillsBudgetChars);
  // Descriptions were cut first.
  EXPECT_NE(block.find("- k000: " + std::string(80, 'x') + "… (file: /skills/k000/SKILL.md)\n"),
            std::string::npos);
  // The omitted line closes the list; kept + omitted = 300.
  std::size_t pos = block.find("\n- … ");
  ASSERT_NE(pos, std::string::npos);
  std::size_t kept = 0;
  for (std::size_t p = block.find("\n- k"); p != std::string::npos;
       p = block.find("\n- k", p + 1)) {
    ++kept;
  }
  EXPECT_EQ(block.substr(pos),
            "\n- … " + std::to_string(300 - kept) + " more skills omitted\n</skills_instructions>");
  // The last kept skill is k(kept-1): dropping happens from the end.
  EXPECT_NE(block.find("(file: /skills/" + SkillName(kept - 1) + "/SKILL.md)\n- … "),
            std::string::npos);
  // One more skill would not have fitted.
  const std::uint64_t line_chars =
      CountChars("- k000: " + std::string(80, 'x') + "… (file: /skills/k000/SKILL.md)\n");
  EXPECT_GT(chars + line_chars, kSkillsBudgetChars);
}

TEST(SkillsSection, SnapshotSortedByName) {
  WorldInputs in = BaseInputs();
  in.skills = {{"b", std::nullopt, "/b"}, {"a", std::string("A"), "/a"}};
  EXPECT_EQ(ToSortedJson(SkillsSection().Snapshot(in)),
            "[{\"description\":\"A\",\"name\":\"a\",\"path\":\"/a\"},{\"name\":\"b\",\"path\":"
            "\"/b\"}]");
  in.skills.clear();
  EXPECT_EQ(ToSortedJson(SkillsSection().Snapshot(in)), "[]");
}

TEST(SkillsSection, DiffRules) {
  SkillsSection section;
  WorldInputs in = BaseInputs();
  in.skills = {{"a", std::string("A"), "/a"}};
  JsonValue before = section.Snapshot(in);
  // Absent/Unknown with skills → full block.
  for (const PreviousState& prev : {PreviousState::Absent(), PreviousState::Unknown()}) {
    auto f = section.RenderDiff(prev, in);
    ASSERT_TRUE(f);
    EXPECT_EQ(f->role, Role::kUser);
    EXPECT_EQ(f->text, RenderSkillsBlock(in.skills));
  }
  // Known, unchanged → nothing (also when given in another order).
  EXPECT_FALSE(section.RenderDiff(PreviousState::Known(before), in));
  // Changed → full block.
  in.skills.push_back({"b", std::nullopt, "/b"});
  auto changed = section.RenderDiff(PreviousState::Known(before), in);
  ASSERT_TRUE(changed);
  EXPECT_EQ(changed->text, RenderSkillsBlock(in.skills));
  // Empty while Known non-empty → removal line; empty otherwise → nothing.
  in.skills.clear();
  auto removed = section.RenderDiff(PreviousState::Known(before), in);
  ASSERT_TRUE(removed);
  EXPECT_EQ(removed->text,
            "<skills_instructions>\nNo skills are available anymore.\n</skills_instructions>");
  EXPECT_FALSE(section.RenderDiff(PreviousState::Known(JsonValue::Array()), in));
  EXPECT_FALSE(section.RenderDiff(PreviousState::Absent(), in));
  EXPECT_FALSE(section.RenderDiff(PreviousState::Unknown(), in));
}

TEST(SkillsSection, RestoreShape) {
  SkillsSection section;
  JsonValue ok = JsonValue::Array();
  JsonValue item = JsonValue::Object();
  item.Set("name", JsonValue::String("a"));
  item.Set("path", JsonValue::String("/a"));
  ok.Push(item);
  EXPECT_TRUE(section.CanRestore(ok));
  EXPECT_TRUE(section.CanRestore(JsonValue::Array()));
  EXPECT_FALSE(section.CanRestore(JsonValue::Object()));
  JsonValue bad = JsonValue::Array();
  bad.Push(JsonValue::String("a"));
  EXPECT_FALSE(section.CanRestore(bad));
}

}  // namespace
}  // namespace agentctx
