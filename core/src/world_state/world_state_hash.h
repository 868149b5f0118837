// SPDX-License-Identifier: MIT
// WorldStateHash: lowercase hex SHA-1 of ASCII `codex-world-state-fragment-v1` + NUL,
// then for the role and the rendered text, in order: CRLF→LF, byte length as big-endian u64,
// the bytes. Kept from upstream so imported snapshots compare equal.
#pragma once

#include <string>
#include <string_view>

#include "world_state/section.h"

namespace agentctx {

std::string WorldStateHash(std::string_view role, std::string_view text);
std::string WorldStateHash(Role role, std::string_view text);

}  // namespace agentctx
