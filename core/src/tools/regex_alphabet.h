// SPDX-License-Identifier: MIT
// The alphabet of a compiled `grep` regular expression (ours): the code points split into
// classes that no instruction of the program tells apart, so a DFA needs one transition per
// class rather than per code point (the code-point form of byte classes).
// Invariants: two code points of one class are consumed by exactly the same kChar, kClass and
// kAny instructions and, when the program uses `\b`/`\B`, are both word characters or both not;
// ASCII code points and the others never share a class (ASCII is looked up in a table, the
// rest by binary search over interval starts); every class has a representative code point.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "tools/regex_program.h"

namespace agentctx {

struct RegexAlphabet {
  std::uint32_t size = 0;                     // number of classes
  std::array<std::uint16_t, 128> ascii{};     // class of each ASCII code point
  std::vector<std::uint32_t> starts;          // interval starts, sorted; starts[0] == 0
  std::vector<std::uint16_t> interval_class;  // class of each interval
  std::vector<std::uint32_t> representative;  // per class: one of its code points
  std::vector<std::uint8_t> word;             // per class: 1 for word characters

  std::uint32_t ClassOf(std::uint32_t c) const {
    if (c < 128) return ascii[c];
    return ClassOfNonAscii(c);
  }
  std::uint32_t ClassOfNonAscii(std::uint32_t c) const;

  /// The coarsest such partition for `program` (classes by index in `classes`).
  static RegexAlphabet Build(const std::vector<RegexInst>& program,
                             const std::vector<RegexClass>& classes, bool word_boundaries);
};

}  // namespace agentctx
