// SPDX-License-Identifier: MIT
// Glob patterns for the `glob` tool and grep's `include` (ours).
// Syntax, matched against a relative `/`-separated path:
//   `*` any run of characters within one segment, `?` one character (not `/`), `[abc]`,
//   `[a-z]`, `[!x]` / `[^x]` one character of (not of) a set, `{a,b}` alternatives (nested
//   allowed, at most kGlobMaxAlternatives after expansion), `**` as a whole segment any number
//   of segments (zero included), `\x` the character x. A `**` inside a segment acts as `*`.
//   `*` and `?` also match a leading `.` (dotfiles are not special).
// Invariants: matching is by code points on valid UTF-8, case-sensitive, linear in practice
// (segment wildcards use the two-pointer algorithm; `**` uses a memo table over segments);
// Compile refuses bad syntax with kInvalidInput and a clear message, never aborts.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "agentctx/result.h"

namespace agentctx {

inline constexpr std::size_t kGlobMaxAlternatives = 64;
inline constexpr std::size_t kGlobMaxPatternBytes = 4096;

class GlobPattern {
 public:
  /// Compiles `pattern` (relative; a leading `/` is the caller's business). kInvalidInput for an
  /// unclosed `[`, a trailing `\`, too many alternatives or an overlong pattern.
  static Result<GlobPattern> Compile(std::string_view pattern);

  /// True when the whole relative path matches one alternative.
  bool Matches(std::string_view relative_path) const;

  /// True when the pattern has no `/` (callers may then match a file's name only).
  bool single_segment() const { return single_segment_; }

 private:
  // One alternative: its segments, each either `**` or a wildcard segment.
  std::vector<std::vector<std::string>> alternatives_;
  bool single_segment_ = true;
};

/// True when `text` (one segment) matches the wildcard `segment` (`*`, `?`, `[…]`, `\`).
bool GlobSegmentMatches(std::string_view segment, std::string_view text);

/// Splits a pattern into its literal leading directories and the rest: `src/app/**/*.ts` →
/// {"src/app", "**/*.ts"}. A segment is literal when it has none of `*?[{\`. The last segment
/// always stays in the rest. A leading `/` stays with the prefix (`/a/*` → {"/a", "*"}).
struct GlobSplit {
  std::string prefix;
  std::string rest;
};
GlobSplit SplitGlobLiteralPrefix(std::string_view pattern);

}  // namespace agentctx
