// SPDX-License-Identifier: MIT
// The `agents_md` config object (docs/config.md): parsing with defaults and validation, and the
// canonical JSON form used by the inspect view.
// Invariants: a parsed config has a normalised absolute home_dir (or none); parsing never aborts.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "agentctx/result.h"
#include "agents_md/types.h"
#include "protocol/json_value.h"

namespace agentctx {

/// Parses `agents_md` (an object, or null for all defaults). Null members take their defaults.
/// kInvalidConfig (message names the key) for: a non-object, a non-string or relative home_dir,
/// a max_bytes that is not a non-negative integer, non-string-array markers or fallback names,
/// a refresh other than "selection"/"probe". Unknown members are appended to `unknown_keys` as
/// `agents_md.<key>` (when non-null) for the caller's single `unknown_config_key` warning.
Result<AgentsMdConfig> AgentsMdConfigFromJson(const JsonValue& value,
                                              std::vector<std::string>* unknown_keys);

/// {"home_dir","max_bytes","root_markers","fallback_filenames","refresh"} in that order.
JsonValue AgentsMdConfigToJson(const AgentsMdConfig& config);

}  // namespace agentctx
