// SPDX-License-Identifier: MIT
// The literal scanner of `grep` (ours): finds where one of a set of literals (regex_literals.h)
// occurs in a text, so the automata run only on lines that hold one.
//  - one case-sensitive literal: a scan for its two rarest bytes at their distance (a fixed
//    ranking of byte frequency in source code and prose; support/byte_scan.h), then a compare
//    at the offset they imply;
//  - anything else: an Aho-Corasick automaton over byte classes (the bytes the literals use,
//    upper case folded onto lower case when a literal ignores case), built whole at compile
//    time as a dense table; at most kRegexMaxScannerCells cells, else no scanner. In its start
//    state it skips bytes no literal begins with, when those are all uncommon bytes (with a
//    byte scan when they are one or two byte values).
// Invariants: immutable once built; Find never misses an occurrence (it may report a place
// where a folded literal meets a case-sensitive letter of another case: callers verify unless
// exact()); the reported position is inside the occurrence.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace agentctx {

struct RegexLiteralSet;

inline constexpr std::size_t kRegexMaxScannerCells = 1u << 21;

class RegexPrefilter {
 public:
  /// The scanner for `set`, or null when it has no literals or would be too large.
  static std::unique_ptr<RegexPrefilter> Build(const RegexLiteralSet& set);

  /// The index of a byte inside the first occurrence ending at or after `from` (an occurrence
  /// starts at or after `from`), or npos.
  std::size_t Find(std::string_view text, std::size_t from) const;
  /// True when an occurrence is a match (the literals are the whole pattern).
  bool exact() const { return exact_; }

 private:
  enum class Kind : std::uint8_t { kOneLiteral, kAhoCorasick };

  std::size_t FindOne(std::string_view text, std::size_t from) const;
  std::size_t FindMany(std::string_view text, std::size_t from) const;

  Kind kind_ = Kind::kOneLiteral;
  bool exact_ = false;
  // kOneLiteral
  std::string needle_;
  std::size_t rare_ = 0;   // offsets of the needle's two rarest bytes (distinct when the
  std::size_t rare2_ = 0;  // needle has two or more): a candidate has both in place
  // kAhoCorasick: state s's row starts at s * width_; rows hold the next row's offset; states
  // numbered from accept_from_ on end an occurrence.
  std::array<std::uint8_t, 256> byte_class_{};
  std::uint32_t width_ = 0;
  std::vector<std::uint32_t> delta_;
  std::uint32_t accept_from_ = 0;  // a row offset
  // In the start state, bytes that begin no literal are skipped by a plain loop when every
  // first byte is uncommon (the loop then runs long between stops).
  std::array<std::uint8_t, 256> starts_{};
  bool skip_ = false;
  // When at most two byte values begin a literal (with case folding, one letter is two), the
  // skip is a scan for them (support/byte_scan.h), not a loop over the table.
  std::uint8_t start_count_ = 0;
  std::array<char, 2> start_bytes_{};
};

}  // namespace agentctx
