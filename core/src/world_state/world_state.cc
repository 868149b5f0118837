// SPDX-License-Identifier: MIT
#include "world_state/world_state.h"

#include <utility>

#include "world_state/sections/agents_md_section.h"
#include "world_state/sections/context_budget_section.h"
#include "world_state/sections/developer_instructions_section.h"
#include "world_state/sections/environment_section.h"
#include "world_state/sections/model_section.h"
#include "world_state/sections/permissions_section.h"
#include "world_state/sections/skills_section.h"
#include "world_state/sections/task_frontier_section.h"
#include "world_state/sections/tools_section.h"

namespace agentctx {
namespace {

bool HistoryMatches(const WorldStateSection& section,
                    const std::vector<HistoryMessageView>& history) {
  std::optional<Markers> markers = section.markers();
  if (!markers) return false;
  std::string_view role = RoleName(section.role());
  for (const HistoryMessageView& message : history) {
    if (message.role != role) continue;
    for (std::string_view text : message.input_texts) {
      if (TextMatchesMarkers(text, *markers)) return true;
    }
  }
  return false;
}

}  // namespace

bool IsValidSectionId(std::string_view id) {
  if (id.empty() || id[0] < 'a' || id[0] > 'z') return false;
  for (char c : id) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return true;
}

std::vector<ContextMessage> BundleFragments(std::vector<SectionFragment> fragments) {
  std::vector<ContextMessage> messages;
  for (std::size_t i = 0; i < fragments.size(); ++i) {
    SectionFragment& f = fragments[i];
    ContextMessage message{f.fragment.role, {std::move(f.fragment.text)}, f.section_id};
    if (f.section_id == kAgentsMdSectionId && i + 1 < fragments.size() &&
        fragments[i + 1].section_id == kSkillsSectionId &&
        fragments[i + 1].fragment.role == f.fragment.role) {
      message.parts.push_back(std::move(fragments[i + 1].fragment.text));
      ++i;
    }
    messages.push_back(std::move(message));
  }
  return messages;
}

WorldStateRegistry WorldStateRegistry::WithBuiltins() {
  WorldStateRegistry registry;
  registry.sections_ = {
      std::make_shared<ModelSection>(),
      std::make_shared<PermissionsSection>(),
      std::make_shared<DeveloperInstructionsSection>(),
      std::make_shared<AgentsMdSection>(),
      std::make_shared<SkillsSection>(),
      std::make_shared<EnvironmentSection>(),
      std::make_shared<ToolsSection>(),
      std::make_shared<TaskFrontierSection>(),
      std::make_shared<ContextBudgetSection>(),
  };
  return registry;
}

Result<void> WorldStateRegistry::Register(std::shared_ptr<const WorldStateSection> section) {
  if (section == nullptr) return Fail(ErrorCode::kInvalidConfig, "missing world-state section");
  std::string id(section->id());
  if (!IsValidSectionId(id)) {
    return Fail(ErrorCode::kInvalidConfig, "invalid world-state section ID: " + id);
  }
  if (Find(id) != nullptr) {
    return Fail(ErrorCode::kInvalidConfig, "duplicate world-state section ID: " + id);
  }
  sections_.push_back(std::move(section));
  return {};
}

const WorldStateSection* WorldStateRegistry::Find(std::string_view id) const {
  for (const auto& section : sections_) {
    if (section->id() == id) return section.get();
  }
  return nullptr;
}

JsonValue WorldStateRegistry::BuildSnapshot(const WorldInputs& inputs) const {
  JsonValue snapshot = JsonValue::Object();
  for (const auto& section : sections_) {
    JsonValue value = section->Snapshot(inputs);
    StripNulls(&value);
    if (value.is_null()) continue;
    snapshot.Set(section->id(), std::move(value));
  }
  return snapshot;
}

JsonValue WorldStateRegistry::NextBaseline(const JsonValue* baseline,
                                           const JsonValue& snapshot) const {
  JsonValue next = snapshot;
  if (baseline == nullptr || !baseline->is_object()) return next;
  for (const JsonMember& m : baseline->members()) {
    if (Find(m.key) == nullptr && next.Find(m.key) == nullptr) next.Set(m.key, m.value);
  }
  return next;
}

RenderResult WorldStateRegistry::RenderFull(const WorldInputs& inputs) const {
  return Render(nullptr, nullptr, inputs, false);
}

RenderResult WorldStateRegistry::RenderTurnStart(const JsonValue* baseline,
                                                 const std::vector<HistoryMessageView>& history,
                                                 const WorldInputs& inputs,
                                                 bool system_notices) const {
  if (baseline == nullptr) return Render(nullptr, nullptr, inputs, false);
  return Render(baseline, &history, inputs, system_notices);
}

RenderResult WorldStateRegistry::RenderStep(const JsonValue& baseline, const WorldInputs& inputs,
                                            bool system_notices) const {
  return Render(&baseline, nullptr, inputs, system_notices);
}

RenderResult WorldStateRegistry::Render(const JsonValue* baseline,
                                        const std::vector<HistoryMessageView>* history,
                                        const WorldInputs& inputs, bool system_notices) const {
  RenderResult result;
  std::vector<SectionFragment> fragments;
  for (const auto& section : sections_) {
    PreviousState prev;
    const JsonValue* stored =
        (baseline != nullptr && baseline->is_object()) ? baseline->Find(section->id()) : nullptr;
    if (stored != nullptr) {
      if (section->CanRestore(*stored)) {
        prev = PreviousState::Known(*stored);
      } else {
        prev = PreviousState::Unknown();
        result.warnings.push_back(Warning{WarningCode::kSnapshotRestoreFailed,
                                          std::string(kSnapshotRestoreFailedMessage)});
      }
    } else if (history != nullptr && HistoryMatches(*section, *history)) {
      prev = PreviousState::Unknown();
    }
    std::optional<Fragment> fragment = section->RenderDiff(prev, inputs);
    if (!fragment) continue;
    if (system_notices && baseline != nullptr && !fragment->notice.empty()) {
      result.notices.push_back(
          SectionFragment{std::string(section->id()),
                          Fragment{fragment->role, std::move(fragment->notice), {}, {}}});
      if (fragment->text_without_notice.empty()) continue;
      fragment->text = std::move(fragment->text_without_notice);
    }
    fragments.push_back(SectionFragment{std::string(section->id()), std::move(*fragment)});
  }
  result.messages = BundleFragments(std::move(fragments));
  return result;
}

}  // namespace agentctx
