// SPDX-License-Identifier: MIT
// The parser of the `grep` regular expressions (regex.h has the syntax and the limits): a
// recursive-descent parser from the pattern to an AST of literals, classes, assertions,
// concatenations, alternations and repetitions, which regex.cc compiles to a Pike-VM program.
// Invariants: nesting is bounded by kRegexMaxNesting; classes are normalised (sorted, merged,
// case folding and negation applied), so the VM only tests membership; every refusal is
// kInvalidInput `at byte <n>: <why>`; the parser never aborts on any input.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "agentctx/result.h"
#include "tools/regex_program.h"

namespace agentctx {

/// Unbounded repetition (RegexNode::max).
inline constexpr std::uint32_t kRegexInf = UINT32_MAX;

struct RegexNode {
  enum class Kind { kEmpty, kLiteral, kClass, kAny, kAssert, kConcat, kAlt, kRepeat };
  Kind kind = Kind::kEmpty;
  std::uint32_t value = 0;  // literal code point, class index or RegexAssert
  std::uint32_t min = 0;    // kRepeat
  std::uint32_t max = 0;    // kRepeat; kRegexInf for no bound
  std::vector<std::size_t> kids;
};

struct RegexAst {
  std::vector<RegexNode> nodes;
  std::vector<RegexClass> classes;
  std::size_t root = 0;
};

/// Parses `pattern` (see regex.h for the syntax).
Result<RegexAst> ParseRegex(std::string_view pattern);

/// The code point at s[i] and its length (an invalid byte is U+FFFD, length 1).
std::uint32_t RegexDecodeAt(std::string_view s, std::size_t i, std::size_t* len);

}  // namespace agentctx
