// SPDX-License-Identifier: MIT
// HostToolConfig: one host tool as configured (config key `tools`). A plain DTO shared by
// session/config (which parses and validates it) and prompt/tool_list (which renders the
// canonical tools array), so prompt needs nothing from session (prompt sits below session).
#pragma once

#include <string>

#include "protocol/json_value.h"

namespace agentctx {

struct HostToolConfig {
  std::string server;
  std::string name;
  std::string description;
  JsonValue parameters;  // default {"type":"object","properties":{}}
  bool strict = false;
};

}  // namespace agentctx
