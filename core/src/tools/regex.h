// SPDX-License-Identifier: MIT
// A small regular-expression engine for the `grep` tool (ours). Model-supplied patterns must
// never abort (the core is built with -fno-exceptions, so std::regex, which reports a bad
// pattern by exception, is unusable); bad syntax is an error value. They must never take
// exponential time either, so this is a Thompson NFA simulated Pike-VM style: time is
// O(pattern size × text length), memory O(pattern size), no backtracking.
// Syntax (a subset of Rust's `regex`/ripgrep syntax, which models know):
//   literals (UTF-8 code points), `.` (any character but LF), `[abc]`, `[^a-z]`, `[[:alpha:]]`
//   (alnum alpha digit lower upper space punct xdigit word), `^` `$` (start/end of the text,
//   i.e. of the line grep searches), `\A` `\z`, `\b` `\B` (ASCII word boundary), `\d \w \s` and
//   their negations (ASCII), `\t \n \r \f \v`, `\xHH`, `\x{H…}`, any escaped ASCII punctuation,
//   groups `( )` `(?: )` `(?P<name> )` `(?<name> )`, flags `(?i)` `(?i: )` (i, m, s, U; `-`
//   clears; ASCII case folding), alternation `|`, repetition `* + ? {n} {n,} {n,m}` with an
//   optional lazy `?` (greediness does not change whether a line matches). A `{` or `}` that
//   does not form a counted repetition is a literal.
// Refused with a clear message (kInvalidInput, "at byte <n>: …"): backreferences, look-around,
// `\p{…}` classes, unknown escapes, unbalanced parentheses or brackets, nothing to repeat,
// repetition counts over kRegexMaxRepeat, nesting deeper than kRegexMaxNesting, programs over
// kRegexMaxInstructions instructions, invalid UTF-8.
// Invariants: a compiled Regex is immutable; RegexSearcher owns the scratch space, so one Regex
// can serve many searches; a pure-literal pattern is searched with string find.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "agentctx/result.h"

namespace agentctx {

inline constexpr std::size_t kRegexMaxPatternBytes = 4096;
inline constexpr std::size_t kRegexMaxInstructions = 20000;
inline constexpr std::uint32_t kRegexMaxRepeat = 1000;
inline constexpr int kRegexMaxNesting = 64;

/// One NFA instruction (see regex.cc).
struct RegexInst {
  enum class Op : std::uint8_t { kChar, kClass, kAny, kSplit, kJmp, kAssert, kMatch };
  Op op = Op::kMatch;
  std::uint32_t a = 0;  // kChar: code point; kClass: class index; kSplit/kJmp: target; kAssert
  std::uint32_t b = 0;  // kSplit: second target
};

/// A set of code points: inclusive ranges, sorted and merged (negation is applied at compile).
struct RegexClass {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> ranges;
  bool Contains(std::uint32_t c) const;
};

class Regex {
 public:
  /// Compiles `pattern`; kInvalidInput with `at byte <n>: <why>` for bad or unsupported syntax.
  static Result<Regex> Compile(std::string_view pattern);

  const std::vector<RegexInst>& program() const { return program_; }
  const std::vector<RegexClass>& classes() const { return classes_; }
  /// Set when the whole pattern is one case-sensitive literal string.
  const std::string* literal() const { return is_literal_ ? &literal_ : nullptr; }

 private:
  std::vector<RegexInst> program_;
  std::vector<RegexClass> classes_;
  std::string literal_;
  bool is_literal_ = false;
};

/// Searches texts with one Regex, reusing its thread lists.
class RegexSearcher {
 public:
  explicit RegexSearcher(const Regex& regex);
  /// True when some substring of `text` matches (invalid UTF-8 bytes count as U+FFFD).
  bool Search(std::string_view text);

 private:
  // Adds the thread at `pc` (and everything reachable by empty transitions) to `list`.
  // Returns true when a kMatch is reachable.
  bool Add(std::vector<std::uint32_t>* list, std::uint32_t pc, std::uint32_t prev,
           std::uint32_t next, bool at_start, bool at_end);

  const Regex* regex_;
  std::vector<std::uint32_t> current_;
  std::vector<std::uint32_t> next_;
  std::vector<std::uint64_t> mark_;  // per instruction: the generation it was last added in
  std::vector<std::uint32_t> stack_;
  std::uint64_t generation_ = 0;
};

}  // namespace agentctx
