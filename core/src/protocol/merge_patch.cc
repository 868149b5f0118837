// SPDX-License-Identifier: MIT
// RFC 7386 merge patch; see merge_patch.h for the algorithm.
#include "protocol/merge_patch.h"

#include <cstddef>
#include <cstdint>
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

namespace {

// True when two of `members` share a key (a parsed patch never has one: the JSON reader keeps
// one member per key; code can build one).
bool HasDuplicateKeys(const std::vector<JsonMember>& members,
                      const std::vector<std::uint32_t>& by_key) {
  for (std::size_t i = 1; i < by_key.size(); ++i) {
    if (members[by_key[i]].key == members[by_key[i - 1]].key) return true;
  }
  return false;
}

// RFC 7386 one key at a time, through JsonValue's own Set/Remove/Find.
JsonValue ApplyKeyByKey(JsonValue result, const JsonValue& patch) {
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

}  // namespace

JsonValue MergePatchApply(const JsonValue& target, const JsonValue& patch) {
  if (!patch.is_object()) return patch;
  JsonValue result = target.is_object() ? target : JsonValue::Object();
  const std::vector<JsonMember>& changes = patch.members();
  if (changes.size() <= MemberLookup::kScanLimit &&
      result.members().size() <= MemberLookup::kScanLimit) {
    return ApplyKeyByKey(std::move(result), patch);
  }
  // Larger: each patch key is looked up once among the target's keys (sorted), deleted members
  // are marked and dropped at the end, new keys appended: linear work, not one scan of the
  // target per key. A patch with a repeated key applies key by key (later ones see earlier).
  if (HasDuplicateKeys(changes, MembersByKey(changes))) {
    return ApplyKeyByKey(std::move(result), patch);
  }
  std::vector<JsonMember>& members = result.members();
  const std::size_t original = members.size();
  const MemberLookup keys(members);  // positions; members appended below are never looked up
  std::vector<bool> deleted;
  for (const JsonMember& m : changes) {
    const std::size_t at = keys.Find(m.key);
    if (m.value.is_null()) {
      if (at == MemberLookup::kNone) continue;
      if (deleted.empty()) deleted.assign(original, false);
      deleted[at] = true;
    } else if (at != MemberLookup::kNone) {
      JsonValue merged = MergePatchApply(members[at].value, m.value);
      members[at].value = std::move(merged);
    } else {
      members.push_back(JsonMember{m.key, MergePatchApply(JsonValue(), m.value)});
    }
  }
  if (!deleted.empty()) {
    std::size_t kept = 0;
    for (std::size_t i = 0; i < members.size(); ++i) {
      if (i < original && deleted[i]) continue;
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
