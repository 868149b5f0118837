// SPDX-License-Identifier: MIT
// SHA-1 (FIPS 180-4), incremental. Used for content ids and fingerprints that upstream also
// uses (WorldStateHash, tools fingerprint, mock ids) — not for security.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace agentctx {

class Sha1 {
 public:
  Sha1();
  void Update(std::string_view bytes);
  /// Finishes and returns the 20-byte digest; the object must not be updated afterwards.
  std::array<std::uint8_t, 20> Digest();
  /// Finishes and returns the lowercase hex digest.
  std::string HexDigest();

 private:
  void Block(const std::uint8_t* p);
  std::uint32_t h_[5];
  std::uint8_t buf_[64];
  std::uint64_t total_ = 0;
  std::size_t used_ = 0;
};

/// Lowercase hex SHA-1 of `bytes`.
std::string Sha1Hex(std::string_view bytes);

}  // namespace agentctx
