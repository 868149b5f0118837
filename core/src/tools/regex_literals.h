// SPDX-License-Identifier: MIT
// Literal extraction for `grep` regular expressions (ours): from the syntax tree, a set of
// strings at least one of which every match contains — the prefilter's needles
// (regex_prefilter.h) — and whether the set is the whole pattern.
// Invariants:
//  - Soundness: every text a match covers contains one of `literals` (as bytes, its letters
//    compared without case where `fold` is set), so a line containing none cannot match.
//  - `exact`: additionally every text containing one of them matches (the pattern is an
//    alternation of plain literals without assertions, one case mode, no LF, CR or U+FFFD), so
//    the scanner alone answers.
//  - Empty `literals` with `exact` false: no information (or none worth scanning for).
//  - `matches_everything`: the pattern matches the empty string with no assertion, so every
//    text matches.
//  - Sets stay small: cross products are cut at kRegexMaxCrossLiterals strings, unions at
//    kRegexMaxLiterals; past either, the information is dropped, never made unsound.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "tools/regex_parser.h"

namespace agentctx {

inline constexpr std::size_t kRegexMaxCrossLiterals = 256;
inline constexpr std::size_t kRegexMaxLiterals = 4096;

struct RegexLiteral {
  std::string bytes;  // UTF-8; letters of a folded literal are lower case
  bool fold = false;  // ASCII letters match either case
};

struct RegexLiteralSet {
  std::vector<RegexLiteral> literals;
  bool exact = false;
  bool matches_everything = false;
};

/// The literals of `ast` (see above).
RegexLiteralSet ExtractLiterals(const RegexAst& ast);

}  // namespace agentctx
