// SPDX-License-Identifier: MIT
// The provider-feature switchboard; see features.h.
#include "provider/features.h"

namespace agentctx {
namespace {

bool IsNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

}  // namespace

bool MentionsWord(std::string_view text, std::string_view word) {
  if (word.empty()) return false;
  for (std::size_t at = text.find(word); at != std::string_view::npos;
       at = text.find(word, at + 1)) {
    const bool starts = at == 0 || !IsNameChar(text[at - 1]);
    const std::size_t end = at + word.size();
    const bool ends = end == text.size() || !IsNameChar(text[end]);
    if (starts && ends) return true;
  }
  return false;
}

}  // namespace agentctx
