// SPDX-License-Identifier: MIT
#include "world_state/sections/skills_section.h"

#include <algorithm>

#include "support/utf8.h"

namespace agentctx {
namespace {

constexpr std::string_view kHeaderLines[] = {
    "## Skills",
    "Skills are folders of instructions. When a task matches a skill's description, read its "
    "file with read_file before starting.",
    "### Available skills",
};
constexpr std::size_t kDescriptionCutChars = 80;

void SortSkills(std::vector<SkillInput>* skills) {
  std::stable_sort(skills->begin(), skills->end(), [](const SkillInput& a, const SkillInput& b) {
    if (a.name != b.name) return a.name < b.name;
    return a.path < b.path;
  });
}

bool HasDescription(const SkillInput& skill) {
  return skill.description.has_value() && !skill.description->empty();
}

std::string SkillLine(const SkillInput& skill) {
  std::string line = "- " + skill.name + ":";
  if (HasDescription(skill)) line += " " + *skill.description;
  line += " (file: " + skill.path + ")";
  return line;
}

std::string Assemble(const std::vector<std::string>& skill_lines, std::size_t keep,
                     std::size_t omitted) {
  std::string out(kSkillsMarkers.start);
  for (std::string_view line : kHeaderLines) {
    out += '\n';
    out.append(line);
  }
  for (std::size_t i = 0; i < keep; ++i) out += '\n' + skill_lines[i];
  if (omitted > 0) out += "\n- … " + std::to_string(omitted) + " more skills omitted";
  out += '\n';
  out.append(kSkillsMarkers.end);
  return out;
}

}  // namespace

std::string RenderSkillsBlock(std::vector<SkillInput> skills) {
  SortSkills(&skills);
  std::vector<std::string> lines;
  lines.reserve(skills.size());
  for (const SkillInput& skill : skills) lines.push_back(SkillLine(skill));
  std::string full = Assemble(lines, lines.size(), 0);
  if (CountChars(full) <= kSkillsBudgetChars) return full;

  // Step 1: cut long descriptions.
  for (std::size_t i = 0; i < skills.size(); ++i) {
    if (!HasDescription(skills[i])) continue;
    std::string_view d = *skills[i].description;
    std::string_view cut = FirstChars(d, kDescriptionCutChars);
    if (cut.size() == d.size()) continue;
    SkillInput shortened = skills[i];
    shortened.description = std::string(cut) + "…";
    lines[i] = SkillLine(shortened);
  }
  std::string cut_all = Assemble(lines, lines.size(), 0);
  if (CountChars(cut_all) <= kSkillsBudgetChars) return cut_all;

  // Step 2: drop from the end. Count characters instead of re-rendering each candidate.
  std::uint64_t base = CountChars(Assemble(lines, 0, 0));
  std::vector<std::uint64_t> prefix(lines.size() + 1, 0);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    prefix[i + 1] = prefix[i] + CountChars(lines[i]) + 1;  // + the joining "\n"
  }
  std::size_t keep = lines.size();
  while (keep > 0) {
    --keep;
    std::size_t omitted = lines.size() - keep;
    std::uint64_t omitted_line =
        CountChars("\n- … " + std::to_string(omitted) + " more skills omitted");
    if (base + prefix[keep] + omitted_line <= kSkillsBudgetChars) break;
  }
  return Assemble(lines, keep, lines.size() - keep);
}

std::optional<Markers> SkillsSection::markers() const { return kSkillsMarkers; }

JsonValue SkillsSection::Snapshot(const WorldInputs& inputs) const {
  std::vector<SkillInput> skills = inputs.skills;
  SortSkills(&skills);
  JsonValue v = JsonValue::Array();
  for (const SkillInput& skill : skills) {
    JsonValue item = JsonValue::Object();
    item.Set("name", JsonValue::String(skill.name));
    if (skill.description.has_value()) {
      item.Set("description", JsonValue::String(*skill.description));
    }
    item.Set("path", JsonValue::String(skill.path));
    v.Push(std::move(item));
  }
  return v;
}

bool SkillsSection::CanRestore(const JsonValue& stored) const {
  if (!stored.is_array()) return false;
  for (const JsonValue& item : stored.items()) {
    if (!item.is_object() || !item.GetString("name") || !item.GetString("path")) return false;
    const JsonValue* description = item.Find("description");
    if (description != nullptr && !description->is_string() && !description->is_null()) {
      return false;
    }
  }
  return true;
}

std::optional<Fragment> SkillsSection::RenderDiff(const PreviousState& prev,
                                                  const WorldInputs& inputs) const {
  if (inputs.skills.empty()) {
    if (prev.is_known() && prev.value.is_array() && !prev.value.items().empty()) {
      return Fragment{Role::kUser, std::string(kSkillsRemovedText)};
    }
    return std::nullopt;
  }
  if (prev.is_known() && prev.value == Snapshot(inputs)) return std::nullopt;
  return Fragment{Role::kUser, RenderSkillsBlock(inputs.skills)};
}

}  // namespace agentctx
