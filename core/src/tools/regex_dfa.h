// SPDX-License-Identifier: MIT
// A lazily built DFA over a `grep` regular expression's NFA (ours): it answers what the Pike VM
// (regex_pike.h) answers — does the text contain a match? — at one table lookup per character.
// A DFA state is the set of NFA threads pending before the next character (instructions to
// resume at, sorted) plus what the previous character was (none: the text starts here; a word
// character; another one), which is all `^`, `\b` and `\B` need; `$` and the next character's
// side of `\b` are resolved when a transition is built, since it knows the next character's
// class (regex_alphabet.h). Every state implicitly holds a fresh thread at instruction 0 (an
// unanchored search). A transition that reaches kMatch is a final answer.
// Invariants:
//  - States and transitions are built on first use and kept in a cache of at most
//    `cache_bytes` (state sets, transition rows, the hash index, counted by size: the vectors'
//    spare capacity comes on top). When it is full the cache is cleared and the search goes on
//    from the state it was building.
//  - Thrashing: when the cache fills again before 10 bytes were read per cached state, the DFA
//    gives up (kGaveUp, for this and every later search) and the caller falls back to the
//    Pike VM, so per-byte work never exceeds the simulation's by more than the failed attempt.
//  - Work is counted like the Pike VM's: one step per NFA instruction visited while building a
//    transition, one per byte read; kOutOfBudget once *steps exceeds the budget.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "tools/regex.h"

namespace agentctx {

class RegexDfa {
 public:
  enum class Outcome : std::uint8_t { kNoMatch, kMatch, kGaveUp, kOutOfBudget };

  RegexDfa(const Regex& regex, std::size_t cache_bytes);
  Outcome Search(std::string_view text, std::uint64_t* steps, std::uint64_t budget);

  bool gave_up() const { return gave_up_; }
  std::size_t resets() const { return resets_; }
  std::size_t states() const { return states_.size(); }

 private:
  // Transition table cells: a row offset (state id × width), or one of these.
  static constexpr std::int32_t kUnknown = -1;
  static constexpr std::int32_t kMatchNext = -2;
  static constexpr std::int32_t kDeadNext = -3;
  static constexpr std::int32_t kGaveUpNext = -4;
  static constexpr std::int32_t kFull = -5;
  enum Prev : std::uint8_t { kPrevStart, kPrevWord, kPrevOther };

  struct State {
    std::uint32_t begin;  // its instructions: arena_[begin, begin + size)
    std::uint32_t size;
    std::uint64_t hash;
    std::uint8_t prev;
    std::int8_t at_end;  // -1 unknown, 0 no match at the end of the text, 1 a match
  };

  bool Closure(std::uint8_t prev, const std::uint16_t* pcs, std::size_t n, bool next_word,
               bool at_end, std::uint64_t* steps);
  std::int32_t Transition(std::int32_t row, std::uint32_t cls, std::uint64_t* steps,
                          std::uint64_t consumed);
  bool MatchesAtEnd(std::int32_t row, std::uint64_t* steps);
  std::int32_t Intern(std::uint8_t prev, const std::vector<std::uint16_t>& pcs);
  void Rehash(std::size_t slots);
  void Reset();
  std::size_t MemoryUsed() const;

  const Regex* regex_;
  std::size_t cache_bytes_;
  std::uint32_t width_;    // alphabet size = row length
  bool word_boundaries_;   // the previous character's kind matters beyond "none"
  bool anchored_ = false;  // no match can start after position 0
  std::vector<State> states_;
  std::vector<std::uint16_t> arena_;  // instruction indexes (programs are far below 65536)
  std::vector<std::int32_t> trans_;
  std::vector<std::int32_t> table_;  // open addressing: state ids, -1 empty
  // Scratch.
  std::vector<std::uint64_t> mark_;
  std::uint64_t generation_ = 0;
  std::vector<std::uint32_t> stack_;
  std::vector<std::uint32_t> list_;
  std::vector<std::uint16_t> next_;
  // Thrash detection.
  std::uint64_t consumed_ = 0;  // bytes read by all searches so far
  std::uint64_t reset_at_ = 0;  // consumed_ at the last reset
  std::size_t resets_ = 0;
  bool gave_up_ = false;
};

}  // namespace agentctx
