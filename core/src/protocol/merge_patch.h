// SPDX-License-Identifier: MIT
// RFC 7386 JSON merge patch: diff and apply. Used for world-state snapshot patches
// (persisted `world_state{"full":false}` lines) and for `update(config_delta)` (docs/config.md).
// Invariants:
//  - MergePatchDiff(prev, cur) is an object patch whenever both sides are objects; an empty
//    object `{}` means "no change" (callers persist nothing).
//  - For null-free values (snapshots are StripNulls'ed):
//    MergePatchApply(prev, MergePatchDiff(prev, cur)) == cur.
//  - Arrays and other non-objects are replaced whole; nothing is ever merged inside an array.
//  - Patch member order: cur's keys in cur's order, then deletions in prev's order; patches are
//    serialised with ToSortedJson, so the order never reaches the wire.
// Algorithm (diff): 1. equal → `{}`; 2. either side not an object → cur whole; 3. each key only
// in prev → null; each key of cur: new → whole value, both objects and different → recursive
// diff, other difference → whole value, equal → no entry.
// Algorithm (apply): non-object patch replaces the target; an object patch on a non-object
// target starts from `{}`; a null member deletes; other members apply recursively.
#pragma once

#include "protocol/json_value.h"

namespace agentctx {

/// The merge patch taking `prev` to `cur`; `{}` when they are equal.
JsonValue MergePatchDiff(const JsonValue& prev, const JsonValue& cur);

/// `target` with `patch` applied per RFC 7386.
JsonValue MergePatchApply(const JsonValue& target, const JsonValue& patch);

/// True when `patch` is the empty object patch (no change).
bool IsEmptyMergePatch(const JsonValue& patch);

}  // namespace agentctx
