// SPDX-License-Identifier: MIT
// The world-state section contract: a named unit of world state with a stable
// id, a role, optional markers, a JSON snapshot value and a diff renderer.
// Invariants:
//  - Section ids and markers are persisted API (rollouts, snapshots): never rename them.
//  - Snapshot() is pure; a null value means "absent" (the section is omitted from the snapshot).
//  - RenderDiff() is pure and returns at most one fragment; it is only given Known values that
//    CanRestore() accepted (anything else was turned into Unknown by the registry).
//  - Rendered text = start marker + body + end marker; renderers build the whole text.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "protocol/json_value.h"
#include "world_state/world_inputs.h"

namespace agentctx {

enum class Role { kDeveloper, kUser };

/// "developer" or "user".
std::string_view RoleName(Role role);

/// A fragment's marker pair. Each section header defines its own (`k<Section>Markers`), the one
/// place that fragment's markers are written; message_kind.cc classifies items with them.
struct Markers {
  std::string_view start;
  std::string_view end;
};

/// The previous state a section renders against (how it is chosen: world_state.h step 1).
struct PreviousState {
  enum class Kind { kAbsent, kUnknown, kKnown };
  Kind kind = Kind::kAbsent;
  JsonValue value;  // only for kKnown

  static PreviousState Absent() { return PreviousState{}; }
  static PreviousState Unknown() { return PreviousState{Kind::kUnknown, JsonValue()}; }
  static PreviousState Known(JsonValue v) { return PreviousState{Kind::kKnown, std::move(v)}; }
  bool is_known() const { return kind == Kind::kKnown; }
};

/// One rendered piece of injected context.
struct Fragment {
  Role role = Role::kUser;
  std::string text;
  /// The harness's own notice `text` carries (AGENTS.md replaced or removed, permissions or
  /// environment changed; "" = none): what goes out as a system message when system notices
  /// are on (world_state.h), never file contents. `text_without_notice` is the fragment then
  /// ("" = nothing is left of it).
  std::string notice;
  std::string text_without_notice;
};

class WorldStateSection {
 public:
  virtual ~WorldStateSection() = default;
  /// Stable id, `[a-z][a-z0-9_]*`.
  virtual std::string_view id() const = 0;
  virtual Role role() const = 0;
  /// Start/end markers, or nullopt for sections without markers (never Unknown).
  virtual std::optional<Markers> markers() const = 0;
  /// The snapshot value; null = absent.
  virtual JsonValue Snapshot(const WorldInputs& inputs) const = 0;
  /// Whether a stored snapshot value has the shape this section reads.
  virtual bool CanRestore(const JsonValue& stored) const = 0;
  /// 0 or 1 fragment for `prev` → current (each section states its rule).
  virtual std::optional<Fragment> RenderDiff(const PreviousState& prev,
                                             const WorldInputs& inputs) const = 0;
};

/// True when `text`, trimmed, starts with `markers.start` and ends with `markers.end`
/// (ASCII case-insensitive), as for contextual messages (message_kind.h).
bool TextMatchesMarkers(std::string_view text, const Markers& markers);

/// The first `n` Unicode scalars of `s` (all of `s` when shorter; `s` is valid UTF-8).
std::string_view FirstChars(std::string_view s, std::size_t n);

/// XML text escaping for fragment values: `& < > " '`.
std::string XmlEscape(std::string_view s);

}  // namespace agentctx
