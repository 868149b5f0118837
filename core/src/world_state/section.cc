// SPDX-License-Identifier: MIT
#include "world_state/section.h"

#include "support/text.h"
#include "support/utf8.h"

namespace agentctx {
namespace {}  // namespace

std::string_view RoleName(Role role) { return role == Role::kDeveloper ? "developer" : "user"; }

bool TextMatchesMarkers(std::string_view text, const Markers& markers) {
  std::string_view t = TrimUnicode(text);
  if (t.size() < markers.start.size() + markers.end.size()) return false;
  return EqualsIgnoreAsciiCase(t.substr(0, markers.start.size()), markers.start) &&
         EqualsIgnoreAsciiCase(t.substr(t.size() - markers.end.size()), markers.end);
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
