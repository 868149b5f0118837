// SPDX-License-Identifier: MIT
#include "world_state/world_state_hash.h"

#include <cstdint>

#include "support/sha1.h"

namespace agentctx {
namespace {

std::string NormalizeCrlf(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\r' && i + 1 < s.size() && s[i + 1] == '\n') continue;
    out.push_back(s[i]);
  }
  return out;
}

void UpdateField(Sha1* sha, std::string_view raw) {
  std::string normalized;
  std::string_view bytes = raw;
  if (raw.find('\r') != std::string_view::npos) {
    normalized = NormalizeCrlf(raw);
    bytes = normalized;
  }
  std::uint64_t len = bytes.size();
  char be[8];
  for (int i = 7; i >= 0; --i) {
    be[i] = static_cast<char>(len & 0xFFu);
    len >>= 8;
  }
  sha->Update(std::string_view(be, 8));
  sha->Update(bytes);
}

}  // namespace

std::string WorldStateHash(std::string_view role, std::string_view text) {
  Sha1 sha;
  sha.Update(std::string_view("codex-world-state-fragment-v1\0", 30));
  UpdateField(&sha, role);
  UpdateField(&sha, text);
  return sha.HexDigest();
}

std::string WorldStateHash(Role role, std::string_view text) {
  return WorldStateHash(RoleName(role), text);
}

}  // namespace agentctx
