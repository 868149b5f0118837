// SPDX-License-Identifier: MIT
// UUIDv5; see uuid5.h.
#include "support/uuid5.h"

#include "support/sha1.h"

namespace agentctx {
namespace {

constexpr char kHex[] = "0123456789abcdef";

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool IsDashAt(std::size_t i) { return i == 8 || i == 13 || i == 18 || i == 23; }

}  // namespace

UuidBytes UuidNamespaceOid() {
  return {0x6b, 0xa7, 0xb8, 0x12, 0x9d, 0xad, 0x11, 0xd1,
          0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8};
}

UuidBytes Uuid5(const UuidBytes& name_space, std::string_view name) {
  Sha1 sha;
  sha.Update(std::string_view(reinterpret_cast<const char*>(name_space.data()), name_space.size()));
  sha.Update(name);
  std::array<std::uint8_t, 20> digest = sha.Digest();
  UuidBytes out{};
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = digest[i];
  out[6] = static_cast<std::uint8_t>((out[6] & 0x0f) | 0x50);  // version 5
  out[8] = static_cast<std::uint8_t>((out[8] & 0x3f) | 0x80);  // RFC variant
  return out;
}

std::string UuidString(const UuidBytes& uuid) {
  std::string out;
  out.reserve(36);
  for (std::size_t i = 0; i < uuid.size(); ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out.push_back('-');
    out.push_back(kHex[uuid[i] >> 4]);
    out.push_back(kHex[uuid[i] & 0x0f]);
  }
  return out;
}

std::optional<UuidBytes> ParseUuid(std::string_view text) {
  if (text.size() != 36) return std::nullopt;
  UuidBytes out{};
  std::size_t byte = 0;
  for (std::size_t i = 0; i < text.size();) {
    if (IsDashAt(i)) {
      if (text[i] != '-') return std::nullopt;
      ++i;
      continue;
    }
    int hi = HexValue(text[i]);
    int lo = HexValue(text[i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out[byte++] = static_cast<std::uint8_t>(hi * 16 + lo);
    i += 2;
  }
  return out;
}

}  // namespace agentctx
