// SPDX-License-Identifier: MIT
// RFC 7386 merge patch; see merge_patch.h for the algorithm.
#include "protocol/merge_patch.h"

#include <utility>

namespace agentctx {

JsonValue MergePatchDiff(const JsonValue& prev, const JsonValue& cur) {
  if (prev == cur) return JsonValue::Object();
  if (!prev.is_object() || !cur.is_object()) return cur;
  JsonValue patch = JsonValue::Object();
  for (const JsonMember& m : cur.members()) {
    const JsonValue* before = prev.Find(m.key);
    if (before == nullptr) {
      patch.Set(m.key, m.value);
    } else if (*before != m.value) {
      if (before->is_object() && m.value.is_object()) {
        patch.Set(m.key, MergePatchDiff(*before, m.value));
      } else {
        patch.Set(m.key, m.value);
      }
    }
  }
  for (const JsonMember& m : prev.members()) {
    if (cur.Find(m.key) == nullptr) patch.Set(m.key, JsonValue());
  }
  return patch;
}

JsonValue MergePatchApply(const JsonValue& target, const JsonValue& patch) {
  if (!patch.is_object()) return patch;
  JsonValue result = target.is_object() ? target : JsonValue::Object();
  for (const JsonMember& m : patch.members()) {
    if (m.value.is_null()) {
      result.Remove(m.key);
      continue;
    }
    const JsonValue* existing = result.Find(m.key);
    JsonValue merged = MergePatchApply(existing != nullptr ? *existing : JsonValue(), m.value);
    result.Set(m.key, std::move(merged));
  }
  return result;
}

bool IsEmptyMergePatch(const JsonValue& patch) {
  return patch.is_object() && patch.members().empty();
}

}  // namespace agentctx
