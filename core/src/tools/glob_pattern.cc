// SPDX-License-Identifier: MIT
// Glob patterns (ours); see glob_pattern.h.
// Algorithm: 1. check syntax (balanced `[`, no trailing `\`); 2. expand `{…,…}` alternatives
// recursively (first top-level group with a top-level comma; braces without one are literal);
// 3. split each alternative on `/`; 4. match a path's segments against an alternative with a
// memo table (`**` consumes zero or more segments), each segment with the two-pointer wildcard
// algorithm over code points.
#include "tools/glob_pattern.h"

#include <cstdint>

#include "support/utf8.h"

namespace agentctx {
namespace {

std::size_t CharLen(std::string_view s, std::size_t i) {
  std::size_t n = Utf8SequenceLength(s, i, nullptr);
  return n == 0 ? 1 : n;
}

// The end of the `[…]` class starting at s[i] == '[' (index after `]`), or npos if unclosed.
std::size_t ClassEnd(std::string_view s, std::size_t i) {
  std::size_t j = i + 1;
  if (j < s.size() && (s[j] == '!' || s[j] == '^')) ++j;
  if (j < s.size() && s[j] == ']') ++j;  // a leading `]` is literal
  while (j < s.size() && s[j] != ']') {
    if (s[j] == '\\' && j + 1 < s.size()) ++j;
    j += CharLen(s, j);
  }
  return j < s.size() ? j + 1 : std::string_view::npos;
}

// Whether character `c` (one code point's bytes) is in the class `cls` (`[` … `]` inclusive).
bool ClassContains(std::string_view cls, std::string_view c) {
  std::size_t j = 1;
  bool negate = false;
  if (j < cls.size() && (cls[j] == '!' || cls[j] == '^')) {
    negate = true;
    ++j;
  }
  const std::size_t end = cls.size() - 1;  // the closing `]`
  bool found = false;
  bool first = true;
  while (j < end && (first || cls[j] != ']')) {
    first = false;
    if (cls[j] == '\\' && j + 1 < end) ++j;
    std::size_t lo_len = CharLen(cls, j);
    std::string_view lo = cls.substr(j, lo_len);
    j += lo_len;
    std::string_view hi = lo;
    if (j + 1 < end && cls[j] == '-') {
      ++j;
      if (cls[j] == '\\' && j + 1 < end) ++j;
      std::size_t hi_len = CharLen(cls, j);
      hi = cls.substr(j, hi_len);
      j += hi_len;
    }
    // Same-length UTF-8 byte comparison orders code points; different lengths order by length.
    auto less = [](std::string_view a, std::string_view b) {
      return a.size() != b.size() ? a.size() < b.size() : a < b;
    };
    if (!less(c, lo) && !less(hi, c)) found = true;
  }
  return found != negate;
}

// Expands `{a,b}` groups; false when there would be more than kGlobMaxAlternatives.
bool Expand(std::string_view pattern, std::vector<std::string>* out) {
  std::size_t open = std::string_view::npos;
  std::size_t close = std::string_view::npos;
  std::vector<std::size_t> commas;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    char c = pattern[i];
    if (c == '\\') {
      ++i;
      continue;
    }
    if (c == '[') {
      std::size_t end = ClassEnd(pattern, i);
      if (end != std::string_view::npos) i = end - 1;
      continue;
    }
    if (c != '{') continue;
    int depth = 0;
    std::vector<std::size_t> top_commas;
    std::size_t j = i;
    for (; j < pattern.size(); ++j) {
      if (pattern[j] == '\\') {
        ++j;
      } else if (pattern[j] == '{') {
        ++depth;
      } else if (pattern[j] == '}') {
        if (--depth == 0) break;
      } else if (pattern[j] == ',' && depth == 1) {
        top_commas.push_back(j);
      }
    }
    if (j < pattern.size() && !top_commas.empty()) {
      open = i;
      close = j;
      commas = std::move(top_commas);
      break;
    }
  }
  if (open == std::string_view::npos) {
    if (out->size() >= kGlobMaxAlternatives) return false;
    out->emplace_back(pattern);
    return true;
  }
  std::string_view head = pattern.substr(0, open);
  std::string_view tail = pattern.substr(close + 1);
  std::size_t start = open + 1;
  commas.push_back(close);
  for (std::size_t comma : commas) {
    std::string alternative(head);
    alternative.append(pattern.substr(start, comma - start));
    alternative.append(tail);
    if (!Expand(alternative, out)) return false;
    start = comma + 1;
  }
  return true;
}

std::vector<std::string> SplitSegments(std::string_view path) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t slash = path.find('/', start);
    if (slash == std::string_view::npos) slash = path.size();
    if (slash > start) out.emplace_back(path.substr(start, slash - start));
    start = slash + 1;
  }
  return out;
}

bool MatchSegments(const std::vector<std::string>& pattern,
                   const std::vector<std::string_view>& path) {
  const std::size_t k = pattern.size();
  const std::size_t n = path.size();
  // reach[i][j]: pattern[i..] can match path[j..]; filled from the end.
  std::vector<std::uint8_t> reach((k + 1) * (n + 1), 0);
  auto at = [n](std::size_t i, std::size_t j) { return i * (n + 1) + j; };
  reach[at(k, n)] = 1;
  for (std::size_t i = k; i-- > 0;) {
    for (std::size_t j = n + 1; j-- > 0;) {
      bool ok = false;
      if (pattern[i] == "**") {
        ok = reach[at(i + 1, j)] != 0 || (j < n && reach[at(i, j + 1)] != 0);
      } else if (j < n) {
        ok = reach[at(i + 1, j + 1)] != 0 && GlobSegmentMatches(pattern[i], path[j]);
      }
      reach[at(i, j)] = ok ? 1 : 0;
    }
  }
  return reach[at(0, 0)] != 0;
}

bool HasMeta(std::string_view segment) {
  return segment.find_first_of("*?[{\\") != std::string_view::npos;
}

}  // namespace

bool GlobSegmentMatches(std::string_view p, std::string_view t) {
  std::size_t pi = 0;
  std::size_t ti = 0;
  std::size_t star_p = std::string_view::npos;
  std::size_t star_t = 0;
  while (ti < t.size()) {
    if (pi < p.size()) {
      char c = p[pi];
      if (c == '*') {
        while (pi < p.size() && p[pi] == '*') ++pi;
        star_p = pi;
        star_t = ti;
        continue;
      }
      std::size_t t_len = CharLen(t, ti);
      std::string_view tc = t.substr(ti, t_len);
      bool ok = false;
      std::size_t p_next = pi;
      if (c == '?') {
        ok = true;
        p_next = pi + 1;
      } else if (c == '[' && ClassEnd(p, pi) != std::string_view::npos) {
        std::size_t end = ClassEnd(p, pi);
        ok = ClassContains(p.substr(pi, end - pi), tc);
        p_next = end;
      } else {
        std::size_t lit = pi;
        if (c == '\\' && pi + 1 < p.size()) ++lit;
        std::size_t lit_len = CharLen(p, lit);
        ok = p.substr(lit, lit_len) == tc;
        p_next = lit + lit_len;
      }
      if (ok) {
        pi = p_next;
        ti += t_len;
        continue;
      }
    }
    if (star_p == std::string_view::npos) return false;
    pi = star_p;
    star_t += CharLen(t, star_t);
    ti = star_t;
  }
  while (pi < p.size() && p[pi] == '*') ++pi;
  return pi == p.size();
}

Result<GlobPattern> GlobPattern::Compile(std::string_view pattern) {
  if (pattern.size() > kGlobMaxPatternBytes) {
    return Fail(ErrorCode::kInvalidInput,
                "the pattern is longer than " + std::to_string(kGlobMaxPatternBytes) + " bytes");
  }
  if (pattern.empty()) return Fail(ErrorCode::kInvalidInput, "the pattern is empty");
  if (!IsValidUtf8(pattern)) {
    return Fail(ErrorCode::kInvalidInput, "the pattern is not valid UTF-8");
  }
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '\\') {
      if (i + 1 == pattern.size()) {
        return Fail(ErrorCode::kInvalidInput, "the pattern ends with a lone `\\`");
      }
      ++i;
    } else if (pattern[i] == '[') {
      std::size_t end = ClassEnd(pattern, i);
      if (end == std::string_view::npos) {
        return Fail(ErrorCode::kInvalidInput,
                    "unclosed `[` at byte " + std::to_string(i) + " (write `\\[` for a literal)");
      }
      if (pattern.substr(i, end - i).find('/') != std::string_view::npos) {
        return Fail(ErrorCode::kInvalidInput,
                    "a `[…]` set cannot contain `/` (at byte " + std::to_string(i) + ")");
      }
      i = end - 1;
    }
  }
  std::vector<std::string> expanded;
  if (!Expand(pattern, &expanded)) {
    return Fail(ErrorCode::kInvalidInput, "the pattern expands to more than " +
                                              std::to_string(kGlobMaxAlternatives) +
                                              " alternatives");
  }
  GlobPattern glob;
  for (const std::string& alternative : expanded) {
    if (alternative.find('/') != std::string::npos) glob.single_segment_ = false;
    std::vector<std::string> segments = SplitSegments(alternative);
    for (std::string& s : segments) {
      // `**` inside a segment (`a**b`) is just two stars.
      if (s != "**" && s.find("**") != std::string::npos) {
        while (s.find("**") != std::string::npos) s.erase(s.find("**"), 1);
      }
    }
    glob.alternatives_.push_back(std::move(segments));
  }
  return glob;
}

bool GlobPattern::Matches(std::string_view relative_path) const {
  std::vector<std::string_view> path;
  std::size_t start = 0;
  while (start <= relative_path.size()) {
    std::size_t slash = relative_path.find('/', start);
    if (slash == std::string_view::npos) slash = relative_path.size();
    if (slash > start) path.push_back(relative_path.substr(start, slash - start));
    start = slash + 1;
  }
  for (const auto& alternative : alternatives_) {
    if (MatchSegments(alternative, path)) return true;
  }
  return false;
}

GlobSplit SplitGlobLiteralPrefix(std::string_view pattern) {
  GlobSplit split;
  std::size_t start = 0;
  if (!pattern.empty() && pattern[0] == '/') {
    split.prefix = "/";
    start = 1;
  }
  for (;;) {
    std::size_t slash = pattern.find('/', start);
    if (slash == std::string_view::npos) break;  // the last segment stays in the rest
    std::string_view segment = pattern.substr(start, slash - start);
    if (HasMeta(segment)) break;
    if (!segment.empty()) {
      if (!split.prefix.empty() && split.prefix.back() != '/') split.prefix.push_back('/');
      split.prefix.append(segment);
    }
    start = slash + 1;
  }
  split.rest = std::string(pattern.substr(start));
  return split;
}

}  // namespace agentctx
