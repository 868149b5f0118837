// SPDX-License-Identifier: MIT
// The provider-feature switchboard; see features.h.
#include "provider/features.h"

namespace agentctx {
namespace {

bool IsNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

}  // namespace

WordMention MentionOf(std::string_view text, std::string_view word) {
  WordMention best = WordMention::kNone;
  if (word.empty()) return best;
  for (std::size_t at = text.find(word); at != std::string_view::npos;
       at = text.find(word, at + 1)) {
    const bool starts = at == 0 || !IsNameChar(text[at - 1]);
    const std::size_t end = at + word.size();
    const bool ends = end == text.size() || !IsNameChar(text[end]);
    if (!starts || !ends) continue;
    // `word.` followed by a name is a parameter path going on: the refusal is about a deeper field.
    const bool continues = end + 1 < text.size() && (text[end] == '.' || text[end] == '[') &&
                           IsNameChar(text[end + 1]);
    if (!continues) return WordMention::kLeaf;
    best = WordMention::kPathPrefix;
  }
  return best;
}

bool MentionsWord(std::string_view text, std::string_view word) {
  return MentionOf(text, word) != WordMention::kNone;
}

}  // namespace agentctx
