// SPDX-License-Identifier: MIT
// Small text and byte arithmetic used across modules, each idea once: the token estimate
// (tokens(b) = ceil(b/4)), the common byte prefix, and ASCII case folding.
// Invariants: integer arithmetic only; case folding touches ASCII letters only (bytes >= 0x80 are
// compared as they are, so UTF-8 text folds safely).
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

namespace agentctx {

/// `tokens(b) = ceil(b/4)`: the one byte-to-token estimate (cache report and compaction alike).
inline std::uint64_t TokensForBytes(std::uint64_t bytes) { return bytes / 4 + (bytes % 4 != 0); }

/// Length of the longest common byte prefix of `a` and `b` (memcmp fast path when equal).
inline std::uint64_t CommonPrefixLength(std::string_view a, std::string_view b) {
  const std::size_t n = a.size() < b.size() ? a.size() : b.size();
  if (n == 0 || std::memcmp(a.data(), b.data(), n) == 0) return n;
  std::size_t i = 0;
  while (a[i] == b[i]) ++i;
  return i;
}

/// 'A'..'Z' -> 'a'..'z'; every other byte unchanged.
inline char AsciiLower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

/// Equal when ASCII letters are folded.
inline bool EqualsIgnoreAsciiCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (AsciiLower(a[i]) != AsciiLower(b[i])) return false;
  }
  return true;
}

/// `s` starts with `prefix` when ASCII letters are folded.
inline bool StartsWithIgnoreAsciiCase(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && EqualsIgnoreAsciiCase(s.substr(0, prefix.size()), prefix);
}

}  // namespace agentctx
