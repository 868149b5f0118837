// SPDX-License-Identifier: MIT
#include "world_state/section.h"

#include "support/utf8.h"

namespace agentctx {
namespace {

char AsciiLower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

bool EqualsAsciiCaseInsensitive(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (AsciiLower(a[i]) != AsciiLower(b[i])) return false;
  }
  return true;
}

}  // namespace

std::string_view RoleName(Role role) { return role == Role::kDeveloper ? "developer" : "user"; }

bool TextMatchesMarkers(std::string_view text, const Markers& markers) {
  std::string_view t = TrimUnicode(text);
  if (t.size() < markers.start.size() + markers.end.size()) return false;
  return EqualsAsciiCaseInsensitive(t.substr(0, markers.start.size()), markers.start) &&
         EqualsAsciiCaseInsensitive(t.substr(t.size() - markers.end.size()), markers.end);
}

std::string_view FirstChars(std::string_view s, std::size_t n) {
  std::size_t chars = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0u) != 0x80u) {
      if (chars == n) return s.substr(0, i);
      ++chars;
    }
  }
  return s;
}

std::string XmlEscape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out.push_back(c);
    }
  }
  return out;
}

}  // namespace agentctx
