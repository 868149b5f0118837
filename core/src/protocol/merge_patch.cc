// SPDX-License-Identifier: MIT
// RFC 7386 merge patch; see merge_patch.h for the algorithm.
#include "protocol/merge_patch.h"

#include <cstddef>
#include <utility>
#include <vector>

namespace agentctx {

JsonValue MergePatchDiff(const JsonValue& prev, const JsonValue& cur) {
  if (prev == cur) return JsonValue::Object();
  if (!prev.is_object() || !cur.is_object()) return cur;
  // Both sides' keys are looked up through MemberLookup and the patch is appended to (its keys
  // are cur's, then prev's missing ones, each once), so large objects cost linear work.
  JsonValue patch = JsonValue::Object();
  std::vector<JsonMember>& out = patch.members();
  const MemberLookup before_keys(prev.members());
  const MemberLookup after_keys(cur.members());
  for (const JsonMember& m : cur.members()) {
    const std::size_t b = before_keys.Find(m.key);
    if (b == MemberLookup::kNone) {
      out.push_back(JsonMember{m.key, m.value});
      continue;
    }
    const JsonValue& before = prev.members()[b].value;
    if (before == m.value) continue;
    if (before.is_object() && m.value.is_object()) {
      out.push_back(JsonMember{m.key, MergePatchDiff(before, m.value)});
    } else {
      out.push_back(JsonMember{m.key, m.value});
    }
  }
  for (const JsonMember& m : prev.members()) {
    if (after_keys.Find(m.key) == MemberLookup::kNone)
      out.push_back(JsonMember{m.key, JsonValue()});
  }
  return patch;
}

JsonValue MergePatchApply(const JsonValue& target, const JsonValue& patch) {
  if (!patch.is_object()) return patch;
  JsonValue result = target.is_object() ? target : JsonValue::Object();
  std::vector<JsonMember>& members = result.members();
  // Deleted members are marked and dropped at the end, and room for every patch key is reserved
  // up front (MemberLookup needs members that stay put), so a patch of many keys costs linear
  // work, not one scan of the target per key.
  members.reserve(members.size() + patch.members().size());
  MemberLookup keys(members);
  std::vector<bool> deleted;
  for (const JsonMember& m : patch.members()) {
    const std::size_t at = keys.Find(m.key);
    if (m.value.is_null()) {
      if (at == MemberLookup::kNone) continue;
      keys.Forget(m.key);
      if (deleted.size() <= at) deleted.resize(members.size(), false);
      deleted[at] = true;
      continue;
    }
    if (at != MemberLookup::kNone) {
      JsonValue merged = MergePatchApply(members[at].value, m.value);
      members[at].value = std::move(merged);
    } else {
      members.push_back(JsonMember{m.key, MergePatchApply(JsonValue(), m.value)});
      keys.Append();
    }
  }
  if (!deleted.empty()) {
    std::size_t kept = 0;
    for (std::size_t i = 0; i < members.size(); ++i) {
      if (i < deleted.size() && deleted[i]) continue;
      if (kept != i) members[kept] = std::move(members[i]);
      ++kept;
    }
    members.resize(kept);
  }
  return result;
}

bool IsEmptyMergePatch(const JsonValue& patch) {
  return patch.is_object() && patch.members().empty();
}

}  // namespace agentctx
