// SPDX-License-Identifier: MIT
// Name-based UUIDs, version 5 (RFC 9562 §5.5: SHA-1 of namespace bytes + name), as Codex derives
// the ids of the request items it rebuilds every time (replay_layout.h). Not for security.
// Invariant: the result is lowercase, hyphenated, 36 characters, version nibble 5, variant 10.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace agentctx {

using UuidBytes = std::array<std::uint8_t, 16>;

/// The namespace RFC 9562 assigns to ISO OIDs: 6ba7b812-9dad-11d1-80b4-00c04fd430c8.
UuidBytes UuidNamespaceOid();

/// UUIDv5 of `name` in `name_space`.
UuidBytes Uuid5(const UuidBytes& name_space, std::string_view name);

/// `8-4-4-4-12` lowercase hex.
std::string UuidString(const UuidBytes& uuid);

/// The bytes of a `8-4-4-4-12` hex UUID (either case); nullopt for anything else.
std::optional<UuidBytes> ParseUuid(std::string_view text);

}  // namespace agentctx
