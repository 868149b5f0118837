// SPDX-License-Identifier: MIT
// The canonical tools array. Invariants: built-ins first in fixed order, then host
// tools sorted by raw (server, name) bytes, so registration order never changes the bytes;
// advertised names are sanitised, unique and <= 128 bytes; the array bytes are built once per
// tool-set version and reused by every request.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "protocol/host_tool.h"
#include "protocol/warning.h"

namespace agentctx {

struct BuiltinToolSpec {
  std::string name;
  std::string spec_bytes;  // exact JSON of the tool spec
};

struct ToolEntry {
  std::string advertised_name;
  std::string server;  // "" for built-ins and local host tools
  std::string name;    // raw name as configured
  std::string description;
  std::string spec_bytes;
  bool builtin = false;
};

struct ToolList {
  std::vector<ToolEntry> tools;
  std::string array_bytes;  // "[spec,spec,…]"
  std::string array_sha1;  // Sha1Hex(array_bytes), made with it (a step compares it, not the array)
  std::vector<Warning> warnings;

  const ToolEntry* FindAdvertised(std::string_view name) const;
};

/// Maps each character outside [A-Za-z0-9_-] to `_` (per Unicode scalar); empty -> `_`.
std::string SanitizeToolName(std::string_view name);
/// `sanitize(name)` or `mcp__` + sanitize(server) + `__` + sanitize(name), cut to 128 bytes.
std::string AdvertisedToolName(std::string_view server, std::string_view name);
/// Builds the canonical list from built-in specs (used when `builtin_tools`) and host tools.
ToolList BuildToolList(const std::vector<BuiltinToolSpec>& builtins,
                       const std::vector<HostToolConfig>& host_tools);

}  // namespace agentctx
