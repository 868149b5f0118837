// SPDX-License-Identifier: MIT
#include "support/utf8.h"

#include "support/byte_scan.h"

namespace agentctx {

std::size_t Utf8SequenceLength(std::string_view s, std::size_t i, std::size_t* invalid_len) {
  auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = byte(i);
  if (c < 0x80) return 1;
  std::size_t need = 0;
  unsigned char lo = 0x80, hi = 0xBF;
  if (c >= 0xC2 && c <= 0xDF) {
    need = 1;
  } else if (c == 0xE0) {
    need = 2;
    lo = 0xA0;
  } else if (c >= 0xE1 && c <= 0xEC) {
    need = 2;
  } else if (c == 0xED) {
    need = 2;
    hi = 0x9F;
  } else if (c >= 0xEE && c <= 0xEF) {
    need = 2;
  } else if (c == 0xF0) {
    need = 3;
    lo = 0x90;
  } else if (c >= 0xF1 && c <= 0xF3) {
    need = 3;
  } else if (c == 0xF4) {
    need = 3;
    hi = 0x8F;
  } else {
    if (invalid_len) *invalid_len = 1;
    return 0;
  }
  // Maximal subpart: the lead byte plus every following byte that could still continue it.
  std::size_t k = 1;
  for (; k <= need; ++k) {
    if (i + k >= s.size()) break;
    unsigned char b = byte(i + k);
    unsigned char min = (k == 1) ? lo : 0x80;
    unsigned char max = (k == 1) ? hi : 0xBF;
    if (b < min || b > max) break;
  }
  if (k == need + 1) return need + 1;
  if (invalid_len) *invalid_len = k;
  return 0;
}

bool IsValidUtf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    i += AsciiPrefixLength(s.substr(i));  // most text is ASCII: skipped 8 or 16 bytes a step
    if (i == s.size()) break;
    std::size_t n = Utf8SequenceLength(s, i, nullptr);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

std::string LossyUtf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    std::size_t bad = 0;
    std::size_t n = Utf8SequenceLength(s, i, &bad);
    if (n > 0) {
      out.append(s.data() + i, n);
      i += n;
    } else {
      out.append("\xEF\xBF\xBD");
      i += bad;
    }
  }
  return out;
}

namespace {
bool IsContinuation(unsigned char c) { return (c & 0xC0) == 0x80; }
}  // namespace

std::size_t FloorCharBoundary(std::string_view s, std::size_t pos) {
  if (pos >= s.size()) return s.size();
  while (pos > 0 && IsContinuation(static_cast<unsigned char>(s[pos]))) --pos;
  return pos;
}

std::size_t CeilCharBoundary(std::string_view s, std::size_t pos) {
  if (pos >= s.size()) return s.size();
  while (pos < s.size() && IsContinuation(static_cast<unsigned char>(s[pos]))) ++pos;
  return pos;
}

std::size_t CountChars(std::string_view s) {
  std::size_t n = 0;
  for (char c : s) {
    if (!IsContinuation(static_cast<unsigned char>(c))) ++n;
  }
  return n;
}

namespace {

// Decodes the scalar at s[i] (valid UTF-8 assumed for whitespace checks); returns its length.
std::size_t Decode(std::string_view s, std::size_t i, char32_t* cp) {
  std::size_t n = Utf8SequenceLength(s, i, nullptr);
  if (n == 0) {
    *cp = 0xFFFD;
    return 1;
  }
  unsigned char c = static_cast<unsigned char>(s[i]);
  char32_t v = n == 1 ? c : n == 2 ? (c & 0x1F) : n == 3 ? (c & 0x0F) : (c & 0x07);
  for (std::size_t k = 1; k < n; ++k) v = (v << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
  *cp = v;
  return n;
}

bool IsWhiteSpace(char32_t c) {
  return (c >= 0x09 && c <= 0x0D) || c == 0x20 || c == 0x85 || c == 0xA0 || c == 0x1680 ||
         (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F ||
         c == 0x3000;
}

}  // namespace

std::string_view TrimUnicode(std::string_view s) {
  std::size_t start = 0;
  while (start < s.size()) {
    char32_t cp;
    std::size_t n = Decode(s, start, &cp);
    if (!IsWhiteSpace(cp)) break;
    start += n;
  }
  std::size_t end = s.size();
  while (end > start) {
    std::size_t lead = FloorCharBoundary(s, end - 1);
    char32_t cp;
    Decode(s, lead, &cp);
    if (!IsWhiteSpace(cp)) break;
    end = lead;
  }
  return s.substr(start, end - start);
}

std::uint32_t DecodeUtf8At(std::string_view s, std::size_t i, std::size_t* len) {
  std::size_t n = Utf8SequenceLength(s, i, nullptr);
  if (n == 0) {
    *len = 1;
    return 0xFFFD;
  }
  *len = n;
  auto b = [&](std::size_t k) {
    return static_cast<std::uint32_t>(static_cast<unsigned char>(s[k]));
  };
  if (n == 1) return b(i);
  if (n == 2) return ((b(i) & 0x1F) << 6) | (b(i + 1) & 0x3F);
  if (n == 3) return ((b(i) & 0x0F) << 12) | ((b(i + 1) & 0x3F) << 6) | (b(i + 2) & 0x3F);
  return ((b(i) & 0x07) << 18) | ((b(i + 1) & 0x3F) << 12) | ((b(i + 2) & 0x3F) << 6) |
         (b(i + 3) & 0x3F);
}

}  // namespace agentctx
