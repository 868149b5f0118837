// SPDX-License-Identifier: MIT
// Attachment references (docs/boundary.md; agentctx/engine.h): the JSON that names raw bytes
// crossing beside an envelope. Out: {"$bytes":i,"length":n}; in: {"$bytes":i}.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "protocol/json_value.h"

namespace agentctx {

/// Appends `{"$bytes":index,"length":length}` to `out`.
void AppendAttachmentRef(std::string* out, std::uint64_t index, std::uint64_t length);

/// The index when `value` is an input reference: an object whose only member is an integer
/// `$bytes`. nullopt for anything else (ordinary JSON).
std::optional<std::int64_t> InputRefIndex(const JsonValue& value);

}  // namespace agentctx
