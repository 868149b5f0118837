// SPDX-License-Identifier: MIT
// ApplyConfigDelta (`update`): `cwd` shorthand, RFC 7386 merge patch over the raw config, then a
// whole re-validation; on failure nothing changes (the caller keeps the old config).
#include "protocol/merge_patch.h"
#include "session/config.h"

namespace agentctx {

Result<SessionConfig> ApplyConfigDelta(const SessionConfig& current, const JsonValue& delta,
                                       std::vector<Warning>* warnings) {
  if (!delta.is_object())
    return Fail(ErrorCode::kInvalidConfig, "a config delta must be an object");
  JsonValue patch = delta;
  JsonValue raw = current.raw;
  if (const JsonValue* cwd = patch.Find("cwd"); cwd != nullptr) {
    if (!cwd->is_string()) return Fail(ErrorCode::kInvalidConfig, "cwd must be a string");
    JsonValue* envs = raw.Find("environments");
    if (envs == nullptr || !envs->is_array() || envs->items().empty()) {
      return Fail(ErrorCode::kInvalidConfig, "environments must be a non-empty array");
    }
    envs->items()[0].Set("cwd", *cwd);
    patch.Remove("cwd");
  }
  JsonValue merged = MergePatchApply(raw, patch);
  return ParseSessionConfig(merged, warnings);
}

}  // namespace agentctx
