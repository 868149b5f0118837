// SPDX-License-Identifier: MIT
// A small regular-expression engine for the `grep` tool (ours). Model-supplied patterns must
// never abort (the core is built with -fno-exceptions, so std::regex, which reports a bad
// pattern by exception, is unusable); bad syntax is an error value. They must never take
// exponential time either: there is no backtracking anywhere.
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
// kRegexMaxInstructions instructions, invalid UTF-8; and, as too costly to search, programs
// with more than kRegexMaxPositions character positions once counted repetitions are expanded.
// How a search runs (docs/tools.md#grep): Compile builds a Thompson NFA program (Pike-VM
// instructions), the code-point alphabet that program distinguishes (regex_alphabet.h) and, from
// the syntax tree, literal strings every match contains (regex_literals.h) with a scanner for
// them (regex_prefilter.h). RegexSearcher answers "does this line contain a match?": lines
// without a required literal are skipped; when the literals are the whole pattern the scanner
// is the answer; otherwise a lazily built DFA over the NFA (regex_dfa.h) decides, and should its
// bounded state cache thrash, the Pike-VM simulation (regex_pike.h) does.
// Invariants: a compiled Regex is immutable; RegexSearcher owns all mutable state (DFA cache,
// thread lists), so one Regex can serve many searchers; every engine gives the same answer for
// every text (invalid UTF-8 bytes count as U+FFFD); each searcher counts its work in steps and
// stops with kOutOfBudget once its budget is spent (no clock is read).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "agentctx/result.h"
#include "tools/regex_alphabet.h"
#include "tools/regex_prefilter.h"
#include "tools/regex_program.h"

namespace agentctx {

inline constexpr std::size_t kRegexMaxPatternBytes = 4096;
inline constexpr std::size_t kRegexMaxInstructions = 20000;
inline constexpr std::size_t kRegexMaxPositions = 4096;
inline constexpr std::uint32_t kRegexMaxRepeat = 1000;
inline constexpr int kRegexMaxNesting = 64;
/// The DFA state cache of one searcher (transitions and state sets), in bytes.
inline constexpr std::size_t kRegexDfaCacheBytes = 8u << 20;

class Regex {
 public:
  /// Compiles `pattern`; kInvalidInput with `at byte <n>: <why>` for bad or unsupported syntax,
  /// or a sentence saying how to narrow a pattern too costly to search.
  static Result<Regex> Compile(std::string_view pattern);

  const std::vector<RegexInst>& program() const { return program_; }
  const std::vector<RegexClass>& classes() const { return classes_; }
  const RegexAlphabet& alphabet() const { return alphabet_; }
  /// Set when the whole pattern is one case-sensitive literal string.
  const std::string* literal() const { return is_literal_ ? &literal_ : nullptr; }
  /// The scanner for the literals every match contains; null when there is none worth using.
  const RegexPrefilter* prefilter() const { return prefilter_.get(); }
  /// True when every text matches (the pattern can match the empty string anywhere).
  bool matches_everything() const { return matches_everything_; }
  /// True when the program has a `\b` or `\B` assertion (the alphabet then separates word
  /// characters from the others).
  bool uses_word_boundaries() const { return uses_word_boundaries_; }

 private:
  std::vector<RegexInst> program_;
  std::vector<RegexClass> classes_;
  RegexAlphabet alphabet_;
  std::unique_ptr<const RegexPrefilter> prefilter_;  // immutable
  std::string literal_;
  bool is_literal_ = false;
  bool matches_everything_ = false;
  bool uses_word_boundaries_ = false;
};

/// The answer of a search that may run out of its step budget.
enum class RegexOutcome : std::uint8_t { kNoMatch, kMatch, kOutOfBudget };

/// Which machinery a RegexSearcher may use (tests pin one; grep uses the default).
struct RegexSearchOptions {
  enum class Engine : std::uint8_t { kAuto, kNfa };
  Engine engine = Engine::kAuto;  // kNfa: the Pike-VM simulation only
  bool use_prefilter = true;
  std::uint64_t budget = UINT64_MAX;  // steps; see RegexSearcher::steps()
  std::size_t dfa_cache_bytes = kRegexDfaCacheBytes;
};

class RegexDfa;
class RegexPikeVm;

/// Searches texts with one Regex, reusing its DFA cache and thread lists.
class RegexSearcher {
 public:
  explicit RegexSearcher(const Regex& regex, RegexSearchOptions options = {});
  ~RegexSearcher();
  RegexSearcher(const RegexSearcher&) = delete;
  RegexSearcher& operator=(const RegexSearcher&) = delete;

  /// True when some substring of `text` matches (invalid UTF-8 bytes count as U+FFFD).
  bool Search(std::string_view text) { return Find(text) == RegexOutcome::kMatch; }
  /// The same, or kOutOfBudget once the budget is spent.
  RegexOutcome Find(std::string_view text);

  /// A line of a text: [start, end) without its LF, and without a CR just before that LF.
  struct Line {
    std::size_t start = 0;
    std::size_t end = 0;
  };
  /// The first line of `text` starting at or after `from` (a line start) that matches, as
  /// grep splits lines: on LF, a CR before the LF dropped; no line after a final LF. `text`
  /// must be valid UTF-8 (grep decodes lossily first). kNoMatch when there is none.
  RegexOutcome NextLine(std::string_view text, std::size_t from, Line* line);

  /// Work done so far: one step per byte a DFA reads, per NFA instruction visited (building a
  /// DFA state or simulating), per thread the simulation advances.
  std::uint64_t steps() const { return steps_; }
  /// True once the DFA gave up (its cache thrashed) and the simulation took over.
  bool dfa_gave_up() const;

 private:
  RegexOutcome Automaton(std::string_view text);

  const Regex* regex_;
  RegexSearchOptions options_;
  std::unique_ptr<RegexDfa> dfa_;
  std::unique_ptr<RegexPikeVm> pike_;
  std::uint64_t steps_ = 0;
};

}  // namespace agentctx
