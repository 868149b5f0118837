// SPDX-License-Identifier: MIT
// The Pike-VM simulation of a `grep` regular expression's NFA (ours): all threads advance in
// lock step over the text's code points, a fresh thread starts at every position (an unanchored
// search), and the search stops at the first reachable kMatch. The reference engine: the DFA
// (regex_dfa.h) must agree with it on every text, and it takes over when the DFA gives up.
// Invariants: time O(program size × text length), memory O(program size); a thread is added to
// a list at most once per position, so empty loops end; each instruction visited and each
// thread advanced is one step, checked against the budget once per position.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "tools/regex.h"

namespace agentctx {

class RegexPikeVm {
 public:
  explicit RegexPikeVm(const Regex& regex);
  /// Whether `text` contains a match; adds its work to `*steps`; kOutOfBudget once
  /// `*steps` exceeds `budget`.
  RegexOutcome Search(std::string_view text, std::uint64_t* steps, std::uint64_t budget);

 private:
  // Adds the thread at `pc` (and everything reachable by empty transitions) to `list`.
  // Returns true when a kMatch is reachable.
  bool Add(std::vector<std::uint32_t>* list, std::uint32_t pc, std::uint32_t prev,
           std::uint32_t next, bool at_start, bool at_end, std::uint64_t* steps);

  const Regex* regex_;
  std::vector<std::uint32_t> current_;
  std::vector<std::uint32_t> next_;
  std::vector<std::uint64_t> mark_;  // per instruction: the generation it was last added in
  std::vector<std::uint32_t> stack_;
  std::uint64_t generation_ = 0;
};

}  // namespace agentctx
