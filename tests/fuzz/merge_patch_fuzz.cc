// SPDX-License-Identifier: MIT
// Fuzz target: RFC 7386 merge patch (protocol/merge_patch.h) on parsed inputs.
// The input is JSON; a top-level array is read as a sequence of states (like world-state
// snapshots), anything else as one state. Each state has its nulls stripped (snapshots hold
// no nulls). For each consecutive pair (prev, cur) and each state against itself:
//  - diff(x, x) is the empty patch;
//  - apply(prev, diff(prev, cur)) == cur, also after the patch is persisted (ToSortedJson) and
//    parsed back, as resume does, except for equal non-objects, whose
//    diff is `{}` "no change" (snapshots are objects);
//  - apply of an arbitrary (unstripped) pair never crashes.
#include <string>
#include <vector>

#include "fuzz_check.h"
#include "protocol/json_codec.h"
#include "protocol/json_value.h"
#include "protocol/merge_patch.h"

namespace agentctx {
namespace {

void CheckPair(const JsonValue& prev, const JsonValue& cur) {
  JsonValue patch = MergePatchDiff(prev, cur);
  if (prev == cur) ACTX_FUZZ_CHECK(IsEmptyMergePatch(patch));
  if (prev.is_object() && cur.is_object()) ACTX_FUZZ_CHECK(patch.is_object());
  if (prev == cur && !prev.is_object()) return;
  ACTX_FUZZ_CHECK(MergePatchApply(prev, patch) == cur);
  Result<JsonValue> stored = ParseJson(ToSortedJson(patch));
  ACTX_FUZZ_CHECK(stored.has_value());
  ACTX_FUZZ_CHECK(ToSortedJson(MergePatchApply(prev, *stored)) == ToSortedJson(cur));
}

void Run(std::string_view text) {
  Result<JsonValue> parsed = ParseJson(text);
  if (!parsed.has_value()) return;
  std::vector<JsonValue> states;
  if (parsed->is_array()) {
    states = parsed->items();
    if (states.size() >= 2) (void)MergePatchApply(states[0], states[1]);
  } else {
    states.push_back(*parsed);
  }
  for (JsonValue& state : states) StripNulls(&state);
  for (std::size_t i = 0; i < states.size(); ++i) {
    CheckPair(states[i], states[i]);
    if (i > 0) CheckPair(states[i - 1], states[i]);
  }
}

}  // namespace
}  // namespace agentctx

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  agentctx::Run(agentctx::fuzz::AsText(data, size));
  return 0;
}
