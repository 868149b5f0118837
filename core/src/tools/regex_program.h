// SPDX-License-Identifier: MIT
// The compiled form of a `grep` regular expression (regex.h): Pike-VM instructions over code
// points and the character classes they test. Shared by the compiler (regex.cc) and every
// engine (regex_dfa.h, regex_pike.h), which must agree on what each instruction means:
//   kChar a      consume code point a
//   kClass a     consume a code point in classes[a]
//   kAny         consume any code point but LF
//   kSplit a b   continue at a and at b;  kJmp a: continue at a
//   kAssert a    continue at pc + 1 when the RegexAssert a holds between the previous and the
//                next code point;  kMatch: a match ends here
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace agentctx {

/// One NFA instruction.
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

/// Zero-width assertions (RegexInst::kAssert operands).
enum RegexAssert : std::uint32_t {
  kRegexBegin,
  kRegexEnd,
  kRegexWordBoundary,
  kRegexNotWordBoundary
};

/// The code point before the first and after the last character of a text.
inline constexpr std::uint32_t kRegexNoChar = UINT32_MAX;

/// An ASCII word character (`\w`), as `\b` and `\B` see it; kRegexNoChar is not one.
inline bool RegexIsWordChar(std::uint32_t c) {
  return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

/// Whether instruction `inst` (kChar, kClass or kAny) consumes code point `c`.
inline bool RegexConsumes(const RegexInst& inst, const std::vector<RegexClass>& classes,
                          std::uint32_t c) {
  switch (inst.op) {
    case RegexInst::Op::kChar:
      return c == inst.a;
    case RegexInst::Op::kClass:
      return classes[inst.a].Contains(c);
    default:
      return c != '\n';
  }
}

}  // namespace agentctx
