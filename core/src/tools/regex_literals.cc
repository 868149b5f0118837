// SPDX-License-Identifier: MIT
// Literal extraction for `grep` regular expressions; see regex_literals.h.
// Algorithm: one pass over the syntax tree computing, per node,
//  - `exact`: a finite set holding every text the node can match (precise when it holds exactly
//    those and no assertion is involved): literals, small classes (at most kSmallClass code
//    points, an ASCII letter with its other case becoming one folded letter), concatenations
//    (cross products), alternations (unions), repetitions with a small maximum (powers);
//  - `req`: a set one of which every matched text contains: for a concatenation the best of its
//    kids' sets and of the cross products of its runs of exact kids; for an alternation the union
//    of its kids' sets; for a repetition of at least one, its kid's set.
// "Best" prefers longer shortest strings, then fewer strings; a set holding "" says nothing.
#include "tools/regex_literals.h"

#include <algorithm>
#include <bit>
#include <climits>
#include <cstdint>

namespace agentctx {
namespace {

constexpr std::uint32_t kSmallClass = 8;
constexpr std::uint32_t kMaxPower = 4;
constexpr std::size_t kMaxSetBytes = 64 * 1024;

enum : std::uint8_t { kFolded = 1, kCased = 2 };  // letters present: folded / case-sensitive

struct Lit {
  std::string s;
  std::uint8_t flags = 0;
  bool operator<(const Lit& o) const { return s != o.s ? s < o.s : flags < o.flags; }
  bool operator==(const Lit& o) const { return s == o.s && flags == o.flags; }
};
using Set = std::vector<Lit>;

struct Info {
  bool has_exact = false;
  bool precise = false;
  Set exact;
  bool has_req = false;
  Set req;
};

bool IsAsciiLetter(std::uint32_t c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

void AppendUtf8(std::string* out, std::uint32_t c) {
  if (c < 0x80) {
    out->push_back(static_cast<char>(c));
  } else if (c < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (c >> 6)));
    out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else if (c < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (c >> 12)));
    out->push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (c >> 18)));
    out->push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
  }
}

Lit CodePoint(std::uint32_t c) {
  Lit lit;
  AppendUtf8(&lit.s, c);
  lit.flags = IsAsciiLetter(c) ? kCased : 0;
  return lit;
}

std::size_t Bytes(const Set& set) {
  std::size_t n = 0;
  for (const Lit& lit : set) n += lit.s.size();
  return n;
}

void Dedupe(Set* set) {
  std::sort(set->begin(), set->end());
  set->erase(std::unique(set->begin(), set->end()), set->end());
}

// Every concatenation of a string of `a` with one of `b`; false when too many or too long.
bool Cross(const Set& a, const Set& b, Set* out) {
  if (a.size() * b.size() > kRegexMaxCrossLiterals) return false;
  if (Bytes(a) * b.size() + Bytes(b) * a.size() > kMaxSetBytes) return false;
  Set result;
  result.reserve(a.size() * b.size());
  for (const Lit& x : a) {
    for (const Lit& y : b)
      result.push_back(Lit{x.s + y.s, static_cast<std::uint8_t>(x.flags | y.flags)});
  }
  Dedupe(&result);
  *out = std::move(result);
  return true;
}

// Cross(*run, {y}) into *run, appending `y` to each string in place (the usual case: one
// character of a long literal), so a literal of n characters costs O(n), not the O(n^2) of
// building every prefix anew; the limits are Cross's. *run is unchanged when it fails.
bool CrossIntoOne(Set* run, const Lit& y) {
  if (run->size() > kRegexMaxCrossLiterals) return false;
  if (Bytes(*run) + y.s.size() * run->size() > kMaxSetBytes) return false;
  for (Lit& x : *run) {
    x.s += y.s;
    x.flags = static_cast<std::uint8_t>(x.flags | y.flags);
  }
  if (run->size() > 1) Dedupe(run);  // appending keeps strings distinct, not their order
  return true;
}

// Cross(*run, b) into *run; *run is unchanged when it fails.
bool CrossInto(Set* run, const Set& b) {
  if (b.size() == 1) return CrossIntoOne(run, b[0]);
  Set next;
  if (!Cross(*run, b, &next)) return false;
  *run = std::move(next);
  return true;
}

bool Union(Set* into, const Set& more) {
  if (into->size() + more.size() > kRegexMaxLiterals) return false;
  if (Bytes(*into) + Bytes(more) > kMaxSetBytes) return false;
  into->insert(into->end(), more.begin(), more.end());
  return true;
}

// The union of `parts` moved into *out (empty), or false past Union's limits (*out untouched):
// the limits are checked once on the totals, so n parts cost O(n), not Union's O(n^2).
bool UnionAll(const std::vector<Set*>& parts, Set* out) {
  std::size_t count = 0;
  std::size_t bytes = 0;
  for (const Set* part : parts) {
    count += part->size();
    bytes += Bytes(*part);
    if (count > kRegexMaxLiterals || bytes > kMaxSetBytes) return false;
  }
  out->reserve(count);
  for (Set* part : parts) {
    out->insert(out->end(), std::make_move_iterator(part->begin()),
                std::make_move_iterator(part->end()));
  }
  return true;
}

long Score(const Set& set) {
  if (set.empty()) return LONG_MIN;
  std::size_t shortest = SIZE_MAX;
  for (const Lit& lit : set) shortest = std::min(shortest, lit.s.size());
  if (shortest == 0) return LONG_MIN;
  return static_cast<long>(shortest) * 16 - static_cast<long>(std::bit_width(set.size()));
}

// Keeps the better of `*best` and `candidate`.
void Consider(Set* best, bool* has, const Set& candidate) {
  if (Score(candidate) == LONG_MIN) return;
  if (!*has || Score(candidate) > Score(*best)) {
    *best = candidate;
    *has = true;
  }
}

class Extractor {
 public:
  explicit Extractor(const RegexAst& ast) : ast_(ast) {}

  Info Walk(std::size_t index) {
    const RegexNode& node = ast_.nodes[index];
    Info info;
    switch (node.kind) {
      case RegexNode::Kind::kEmpty:
        return Exact({Lit{}}, true);
      case RegexNode::Kind::kLiteral:
        return Exact({CodePoint(node.value)}, true);
      case RegexNode::Kind::kAssert:
        return Exact({Lit{}}, false);
      case RegexNode::Kind::kClass:
        return ClassInfo(ast_.classes[node.value]);
      case RegexNode::Kind::kAny:
        return info;
      case RegexNode::Kind::kConcat:
        return ConcatInfo(node);
      case RegexNode::Kind::kAlt:
        return AltInfo(node);
      case RegexNode::Kind::kRepeat:
        return RepeatInfo(node);
    }
    return info;
  }

 private:
  static Info Exact(Set set, bool precise) {
    Info info;
    info.has_exact = true;
    info.precise = precise;
    info.exact = std::move(set);
    return info;
  }

  static Info ClassInfo(const RegexClass& cls) {
    std::uint64_t count = 0;
    for (const auto& [lo, hi] : cls.ranges) count += hi - lo + 1;
    if (count == 0 || count > kSmallClass) return Info{};
    std::vector<std::uint32_t> points;
    for (const auto& [lo, hi] : cls.ranges) {
      for (std::uint32_t c = lo; c <= hi; ++c) points.push_back(c);
    }
    auto has = [&points](std::uint32_t c) {
      return std::binary_search(points.begin(), points.end(), c);
    };
    Set set;
    for (std::uint32_t c : points) {
      if (c >= 'a' && c <= 'z' && has(c - 32)) {
        set.push_back(Lit{std::string(1, static_cast<char>(c)), kFolded});
      } else if (c >= 'A' && c <= 'Z' && has(c + 32)) {
        continue;  // with its lower case
      } else {
        set.push_back(CodePoint(c));
      }
    }
    Dedupe(&set);
    return Exact(std::move(set), true);
  }

  Info ConcatInfo(const RegexNode& node) {
    Info out;
    Set run = {Lit{}};  // cross product of the current run of exact kids
    bool all_exact = true;
    bool precise = true;
    Set best;
    bool has_best = false;
    for (std::size_t kid_index : node.kids) {
      const RegexNode& kid_node = ast_.nodes[kid_index];
      if (kid_node.kind == RegexNode::Kind::kLiteral) {
        // A literal character, the usual kid: appended in place, without a set of its own.
        Lit lit = CodePoint(kid_node.value);
        if (!CrossIntoOne(&run, lit)) {  // unchanged when it fails
          Consider(&best, &has_best, run);
          run = {std::move(lit)};
          all_exact = false;
        }
        continue;
      }
      Info kid = Walk(kid_index);
      if (kid.has_exact) {
        precise = precise && kid.precise;
        if (!CrossInto(&run, kid.exact)) {  // unchanged when it fails
          Consider(&best, &has_best, run);
          run = std::move(kid.exact);
          all_exact = false;
        }
        continue;
      }
      all_exact = false;
      Consider(&best, &has_best, run);
      run = {Lit{}};
      if (kid.has_req) Consider(&best, &has_best, kid.req);
    }
    if (all_exact) return Exact(std::move(run), precise);
    Consider(&best, &has_best, run);
    out.has_req = has_best;
    out.req = std::move(best);
    return out;
  }

  Info AltInfo(const RegexNode& node) {
    std::vector<Info> kids;
    kids.reserve(node.kids.size());
    bool all_exact = true;
    bool precise = true;
    for (std::size_t kid_index : node.kids) {
      kids.push_back(Walk(kid_index));
      all_exact = all_exact && kids.back().has_exact;
      precise = precise && kids.back().precise;
    }
    std::vector<Set*> parts;
    parts.reserve(kids.size());
    if (all_exact) {
      for (Info& kid : kids) parts.push_back(&kid.exact);
      Set set;
      if (UnionAll(parts, &set)) {
        Dedupe(&set);
        return Exact(std::move(set), precise);
      }
      parts.clear();
    }
    Info out;
    for (Info& kid : kids) {
      Set* part = kid.has_exact ? &kid.exact : kid.has_req ? &kid.req : nullptr;
      if (part == nullptr || Score(*part) == LONG_MIN) return out;
      parts.push_back(part);
    }
    Set set;
    if (!UnionAll(parts, &set)) return out;
    Dedupe(&set);
    out.has_req = true;
    out.req = std::move(set);
    return out;
  }

  Info RepeatInfo(const RegexNode& node) {
    Info kid = Walk(node.kids[0]);
    if (node.max == 0) return Exact({Lit{}}, true);
    if (kid.has_exact && node.max != kRegexInf && node.max <= kMaxPower) {
      Set power = {Lit{}};
      Set all;
      bool ok = true;
      if (node.min == 0) all.push_back(Lit{});
      for (std::uint32_t k = 1; ok && k <= node.max; ++k) {
        Set next;
        ok = Cross(power, kid.exact, &next);
        power = std::move(next);
        if (ok && k >= node.min) ok = Union(&all, power);
      }
      if (ok) {
        Dedupe(&all);
        return Exact(std::move(all), kid.precise);
      }
    }
    Info out;
    if (node.min == 0) return out;
    if (kid.has_exact) Consider(&out.req, &out.has_req, kid.exact);
    if (kid.has_req) Consider(&out.req, &out.has_req, kid.req);
    return out;
  }

  const RegexAst& ast_;
};

// The scanner alone can answer: one case mode, nothing a line never holds or loses (LF, CR),
// nothing the automata read differently from the bytes (U+FFFD stands for invalid bytes).
bool ScannerIsExact(const Set& set) {
  bool folded = false;
  bool cased = false;
  for (const Lit& lit : set) {
    if (lit.s.empty() || lit.s.find_first_of("\r\n") != std::string::npos ||
        lit.s.find("\xEF\xBF\xBD") != std::string::npos) {
      return false;
    }
    folded = folded || (lit.flags & kFolded) != 0;
    cased = cased || (lit.flags & kCased) != 0;
  }
  return !(folded && cased);
}

// Worth scanning for: no empty string, and not a big set of single bytes.
bool Useful(const Set& set) {
  if (Score(set) == LONG_MIN) return false;
  for (const Lit& lit : set) {
    if (lit.s.find("\xEF\xBF\xBD") != std::string::npos) return false;
  }
  std::size_t shortest = SIZE_MAX;
  for (const Lit& lit : set) shortest = std::min(shortest, lit.s.size());
  return shortest >= 2 || set.size() <= 3;
}

}  // namespace

RegexLiteralSet ExtractLiterals(const RegexAst& ast) {
  Extractor extractor(ast);
  Info root = extractor.Walk(ast.root);
  RegexLiteralSet out;
  Set chosen;
  if (root.has_exact && root.precise) {
    for (const Lit& lit : root.exact) {
      if (lit.s.empty()) {
        out.matches_everything = true;
        return out;
      }
    }
    if (ScannerIsExact(root.exact)) {
      chosen = root.exact;
      out.exact = true;
    }
  }
  if (!out.exact) {
    bool has = false;
    if (root.has_exact) Consider(&chosen, &has, root.exact);
    if (root.has_req) Consider(&chosen, &has, root.req);
    if (!has || !Useful(chosen)) return out;
  }
  for (Lit& lit : chosen) {
    out.literals.push_back(RegexLiteral{std::move(lit.s), (lit.flags & kFolded) != 0});
  }
  return out;
}

}  // namespace agentctx
