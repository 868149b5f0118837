// SPDX-License-Identifier: MIT
// World state: the section registry, snapshots, the turn-start and step diffs and
// the bundling of fragments into context messages. Pure: values in, values out; the session
// records the messages, sets the baseline and persists snapshots/patches (merge_patch.h).
// Invariants:
//  - Sections render in registry order: model, permissions, developer_instructions, agents_md,
//    skills, environment, tools, task_frontier and context_budget (ours; absent
//    unless enabled), then embedder sections in registration order.
//  - Ids match `[a-z][a-z0-9_]*` and are unique (duplicate → kInvalidConfig
//    `duplicate world-state section ID: <id>`).
//  - A snapshot is an object {id: value}: null sections omitted, object nulls stripped
//    recursively (array nulls stay); callers serialise it with ToSortedJson.
// Algorithm (one render pass):
//  1. per section, prev = Known(baseline[id]) if the baseline has the id; a stored value the
//     section cannot parse → Unknown + warning `snapshot_restore_failed`;
//     otherwise, at turn start only, Unknown if a retained history message with the section's
//     role has an `input_text` part matching its markers; else Absent. No baseline ⇒ every
//     section Absent (full render);
//  2. RenderDiff(prev, inputs) → 0 or 1 fragment;
//  3. with system notices on (a diff against a baseline only: the first render is context,
//     not a change), a fragment's `notice` (section.h) moves to `notices` and the fragment
//     keeps only its `text_without_notice` (dropped when empty);
//  4. bundle: one message per fragment, one `input_text` part per fragment; only
//     the `agents_md` and `skills` fragments of the same pass share a user message (AGENTS.md
//     first). A message's origin is its first fragment's section id.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "agentctx/result.h"
#include "protocol/json_value.h"
#include "protocol/warning.h"
#include "world_state/section.h"
#include "world_state/world_inputs.h"

namespace agentctx {

inline constexpr std::string_view kSnapshotRestoreFailedMessage =
    "failed to restore world-state section snapshot";

/// One context message to record: `role`, one `input_text` part per fragment, origin section id.
struct ContextMessage {
  Role role = Role::kUser;
  std::vector<std::string> parts;
  std::string origin;
};

/// A fragment with the id of the section that rendered it.
struct SectionFragment {
  std::string section_id;
  Fragment fragment;
};

/// A retained history message as the turn-start diff sees it: role ("user", "developer", …)
/// and the texts of its `input_text` parts. Views must outlive the call.
struct HistoryMessageView {
  std::string_view role;
  std::vector<std::string_view> input_texts;
};

struct RenderResult {
  std::vector<ContextMessage> messages;
  std::vector<SectionFragment> notices;  // step 3: the session sends them as system messages
  std::vector<Warning> warnings;
};

/// True for `[a-z][a-z0-9_]*`.
bool IsValidSectionId(std::string_view id);

/// Bundles fragments of one pass into messages (step 3 above).
std::vector<ContextMessage> BundleFragments(std::vector<SectionFragment> fragments);

class WorldStateRegistry {
 public:
  /// An empty registry (no sections).
  WorldStateRegistry() = default;
  /// The built-in sections: the seven upstream ones in order (model ... tools), then
  /// `task_frontier` and `context_budget` (ours).
  static WorldStateRegistry WithBuiltins();

  /// Appends a section. kInvalidConfig on a bad id (`invalid world-state section ID: <id>`) or a
  /// duplicate (`duplicate world-state section ID: <id>`); the registry is then unchanged.
  Result<void> Register(std::shared_ptr<const WorldStateSection> section);

  const std::vector<std::shared_ptr<const WorldStateSection>>& sections() const {
    return sections_;
  }
  /// The section with `id`, or nullptr.
  const WorldStateSection* Find(std::string_view id) const;

  /// The snapshot {id: value} of the current inputs.
  JsonValue BuildSnapshot(const WorldInputs& inputs) const;

  /// The next baseline: `snapshot` plus the members of `baseline` whose id has no registered
  /// section (restored ids without a registration are kept and ignored).
  JsonValue NextBaseline(const JsonValue* baseline, const JsonValue& snapshot) const;

  /// Full render: every section Absent (no baseline).
  RenderResult RenderFull(const WorldInputs& inputs) const;
  /// Turn-start diff; `baseline` nullptr = none (full render). `system_notices`: step 3.
  RenderResult RenderTurnStart(const JsonValue* baseline,
                               const std::vector<HistoryMessageView>& history,
                               const WorldInputs& inputs, bool system_notices = false) const;
  /// Step diff (steps after the turn's first): Known if the baseline has the id, else Absent.
  RenderResult RenderStep(const JsonValue& baseline, const WorldInputs& inputs,
                          bool system_notices = false) const;

 private:
  RenderResult Render(const JsonValue* baseline, const std::vector<HistoryMessageView>* history,
                      const WorldInputs& inputs, bool system_notices) const;

  std::vector<std::shared_ptr<const WorldStateSection>> sections_;
};

}  // namespace agentctx
