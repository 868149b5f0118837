// SPDX-License-Identifier: MIT
// The parser of the `grep` regular expressions; see regex_parser.h.
#include "tools/regex_parser.h"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>

#include "support/utf8.h"
#include "tools/regex.h"

namespace agentctx {
namespace {

constexpr std::uint32_t kMaxCodePoint = 0x10FFFF;

using Ranges = std::vector<std::pair<std::uint32_t, std::uint32_t>>;

Ranges Normalized(Ranges r) {
  std::sort(r.begin(), r.end());
  Ranges out;
  for (const auto& [lo, hi] : r) {
    if (!out.empty() && lo <= out.back().second + 1) {
      out.back().second = std::max(out.back().second, hi);
    } else {
      out.emplace_back(lo, hi);
    }
  }
  return out;
}

Ranges Complement(const Ranges& normalized) {
  Ranges out;
  std::uint32_t next = 0;
  for (const auto& [lo, hi] : normalized) {
    if (lo > next) out.emplace_back(next, lo - 1);
    next = hi + 1;
  }
  if (next <= kMaxCodePoint) out.emplace_back(next, kMaxCodePoint);
  return out;
}

// Adds the other ASCII case of every letter in `r`.
Ranges Folded(Ranges r) {
  const std::size_t n = r.size();
  for (std::size_t i = 0; i < n; ++i) {
    auto [lo, hi] = r[i];
    std::uint32_t a = std::max<std::uint32_t>(lo, 'a');
    std::uint32_t b = std::min<std::uint32_t>(hi, 'z');
    if (a <= b) r.emplace_back(a - 32, b - 32);
    a = std::max<std::uint32_t>(lo, 'A');
    b = std::min<std::uint32_t>(hi, 'Z');
    if (a <= b) r.emplace_back(a + 32, b + 32);
  }
  return r;
}

Ranges Digits() { return {{'0', '9'}}; }
Ranges WordChars() { return {{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}}; }
Ranges Spaces() { return {{'\t', '\r'}, {' ', ' '}}; }

bool IsAsciiDigit(char c) { return c >= '0' && c <= '9'; }

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Decodes the code point at s[i] (valid UTF-8 assumed; an invalid byte is U+FFFD, length 1).
struct Escape {
  enum class Kind { kCodePoint, kSet, kAssert } kind = Kind::kCodePoint;
  std::uint32_t code_point = 0;
  Ranges set;
  std::uint32_t assert_kind = 0;
};

class Parser {
 public:
  explicit Parser(std::string_view pattern) : p_(pattern) {}

  Result<std::size_t> ParseAll() {
    ACTX_TRY(std::size_t root, ParseAlt(0));
    if (pos_ < p_.size()) return Error(pos_, "unmatched `)`");
    return root;
  }

  std::vector<RegexNode> nodes;
  std::vector<RegexClass> classes;

 private:
  struct Flags {
    bool fold = false;
    bool dot_all = false;
  };

  static Unexpected<agentctx::Error> Error(std::size_t at, std::string why) {
    return Fail(ErrorCode::kInvalidInput, "at byte " + std::to_string(at) + ": " + why);
  }

  std::size_t Add(RegexNode node) {
    nodes.push_back(std::move(node));
    return nodes.size() - 1;
  }

  std::size_t AddClass(Ranges ranges, bool negate) {
    Ranges r = Normalized(flags_.fold ? Folded(std::move(ranges)) : std::move(ranges));
    if (negate) r = Complement(r);
    classes.push_back(RegexClass{std::move(r)});
    RegexNode node;
    node.kind = RegexNode::Kind::kClass;
    node.value = static_cast<std::uint32_t>(classes.size() - 1);
    return Add(std::move(node));
  }

  std::size_t AddLiteral(std::uint32_t c) {
    bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    if (flags_.fold && letter) return AddClass({{c, c}}, false);
    RegexNode node;
    node.kind = RegexNode::Kind::kLiteral;
    node.value = c;
    return Add(std::move(node));
  }

  std::size_t AddAssert(std::uint32_t kind) {
    RegexNode node;
    node.kind = RegexNode::Kind::kAssert;
    node.value = kind;
    return Add(std::move(node));
  }

  bool AtEnd() const { return pos_ >= p_.size(); }
  char Peek(std::size_t ahead = 0) const {
    return pos_ + ahead < p_.size() ? p_[pos_ + ahead] : '\0';
  }

  Result<std::uint32_t> NextCodePoint() {
    std::size_t n = Utf8SequenceLength(p_, pos_, nullptr);
    if (n == 0) return Error(pos_, "the pattern is not valid UTF-8");
    std::size_t len = 0;
    std::uint32_t c = RegexDecodeAt(p_, pos_, &len);
    pos_ += len;
    return c;
  }

  Result<std::size_t> ParseAlt(int depth) {
    if (depth > kRegexMaxNesting) return Error(pos_, "groups are nested too deeply");
    std::vector<std::size_t> alternatives;
    ACTX_TRY(std::size_t first, ParseConcat(depth));
    alternatives.push_back(first);
    while (Peek() == '|') {
      ++pos_;
      ACTX_TRY(std::size_t next, ParseConcat(depth));
      alternatives.push_back(next);
    }
    if (alternatives.size() == 1) return first;
    RegexNode node;
    node.kind = RegexNode::Kind::kAlt;
    node.kids = std::move(alternatives);
    return Add(std::move(node));
  }

  Result<std::size_t> ParseConcat(int depth) {
    RegexNode concat;
    concat.kind = RegexNode::Kind::kConcat;
    while (!AtEnd() && Peek() != '|' && Peek() != ')') {
      ACTX_TRY(std::optional<std::size_t> atom, ParseAtom(depth));
      if (!atom.has_value()) continue;  // a flag group `(?i)`: no atom
      ACTX_TRY(std::size_t repeated, ParseRepetitions(*atom));
      concat.kids.push_back(repeated);
    }
    if (concat.kids.size() == 1) return concat.kids[0];
    if (concat.kids.empty()) return Add(RegexNode{});
    return Add(std::move(concat));
  }

  // `{n}`, `{n,}` or `{n,m}` at pos_; nullopt (pos_ unchanged) when it is not one.
  Result<std::optional<std::pair<std::uint32_t, std::uint32_t>>> ParseCounted() {
    std::size_t i = pos_ + 1;
    auto number = [&](std::uint64_t* out) {
      std::size_t start = i;
      std::uint64_t n = 0;
      while (i < p_.size() && IsAsciiDigit(p_[i]) && n <= 1000000) n = n * 10 + (p_[i++] - '0');
      *out = n;
      return i > start;
    };
    std::uint64_t min = 0;
    std::uint64_t max = 0;
    if (!number(&min)) return std::optional<std::pair<std::uint32_t, std::uint32_t>>();
    if (i < p_.size() && p_[i] == '}') {
      max = min;
    } else if (i < p_.size() && p_[i] == ',') {
      ++i;
      if (i < p_.size() && p_[i] == '}') {
        max = kRegexInf;
      } else if (!number(&max) || i >= p_.size() || p_[i] != '}') {
        return std::optional<std::pair<std::uint32_t, std::uint32_t>>();
      }
    } else {
      return std::optional<std::pair<std::uint32_t, std::uint32_t>>();
    }
    if (min > kRegexMaxRepeat || (max != kRegexInf && max > kRegexMaxRepeat)) {
      return Error(pos_, "repetition counts above " + std::to_string(kRegexMaxRepeat) +
                             " are not supported");
    }
    if (max < min) return Error(pos_, "invalid repetition range (max below min)");
    pos_ = i + 1;
    return std::optional<std::pair<std::uint32_t, std::uint32_t>>(
        std::pair<std::uint32_t, std::uint32_t>(static_cast<std::uint32_t>(min),
                                                static_cast<std::uint32_t>(max)));
  }

  Result<std::size_t> ParseRepetitions(std::size_t atom) {
    bool repeated = false;
    for (;;) {
      std::uint32_t min = 0;
      std::uint32_t max = 0;
      std::size_t at = pos_;
      char c = Peek();
      if (c == '*') {
        min = 0, max = kRegexInf, ++pos_;
      } else if (c == '+') {
        min = 1, max = kRegexInf, ++pos_;
      } else if (c == '?') {
        min = 0, max = 1, ++pos_;
      } else if (c == '{') {
        ACTX_TRY(auto counted, ParseCounted());
        if (!counted.has_value()) break;  // a literal `{`
        min = counted->first, max = counted->second;
      } else {
        break;
      }
      if (repeated) {
        return Error(at, "a repetition operator cannot follow another (use a group)");
      }
      if (Peek() == '?') ++pos_;  // lazy: the same lines match
      RegexNode node;
      node.kind = RegexNode::Kind::kRepeat;
      node.min = min;
      node.max = max;
      node.kids = {atom};
      atom = Add(std::move(node));
      repeated = true;
    }
    return atom;
  }

  // One atom; nullopt for a flag-only group.
  Result<std::optional<std::size_t>> ParseAtom(int depth) {
    std::size_t at = pos_;
    char c = Peek();
    switch (c) {
      case '(':
        return ParseGroup(depth);
      case '[': {
        ++pos_;
        ACTX_TRY(std::size_t cls, ParseClass(at));
        return std::optional<std::size_t>(cls);
      }
      case '.': {
        ++pos_;
        if (flags_.dot_all)
          return std::optional<std::size_t>(AddClass({{0, kMaxCodePoint}}, false));
        RegexNode node;
        node.kind = RegexNode::Kind::kAny;
        return std::optional<std::size_t>(Add(std::move(node)));
      }
      case '^':
        ++pos_;
        return std::optional<std::size_t>(AddAssert(kRegexBegin));
      case '$':
        ++pos_;
        return std::optional<std::size_t>(AddAssert(kRegexEnd));
      case '*':
      case '+':
      case '?':
        return Error(at, std::string("repetition operator `") + c + "` has nothing to repeat");
      case '{': {
        ACTX_TRY(auto counted, ParseCounted());
        if (counted.has_value()) return Error(at, "repetition operator has nothing to repeat");
        ++pos_;
        return std::optional<std::size_t>(AddLiteral('{'));
      }
      case '\\': {
        ACTX_TRY(Escape e, ParseEscape(/*in_class=*/false));
        if (e.kind == Escape::Kind::kSet) {
          return std::optional<std::size_t>(AddClass(std::move(e.set), false));
        }
        if (e.kind == Escape::Kind::kAssert) {
          return std::optional<std::size_t>(AddAssert(e.assert_kind));
        }
        return std::optional<std::size_t>(AddLiteral(e.code_point));
      }
      default: {
        ACTX_TRY(std::uint32_t cp, NextCodePoint());
        return std::optional<std::size_t>(AddLiteral(cp));
      }
    }
  }

  // Applies the flag letters in [begin, end) of the pattern to `flags`.
  Result<void> ApplyFlags(std::size_t begin, std::size_t end, Flags* flags) {
    bool on = true;
    for (std::size_t i = begin; i < end; ++i) {
      switch (p_[i]) {
        case '-':
          on = false;
          break;
        case 'i':
          flags->fold = on;
          break;
        case 's':
          flags->dot_all = on;
          break;
        case 'm':
        case 'U':
          break;  // no effect on a single line / on whether it matches
        default:
          return Error(i, std::string("unsupported flag `") + p_[i] + "` (supported: i, m, s, U)");
      }
    }
    return {};
  }

  Result<std::optional<std::size_t>> ParseGroup(int depth) {
    std::size_t open = pos_;
    ++pos_;  // '('
    Flags saved = flags_;
    if (Peek() == '?') {
      ++pos_;
      char c = Peek();
      if (c == '=' || c == '!' || (c == '<' && (Peek(1) == '=' || Peek(1) == '!'))) {
        return Error(open, "look-around assertions are not supported");
      }
      if (c == 'P' && Peek(1) == '=') return Error(open, "backreferences are not supported");
      if (c == '<' || (c == 'P' && Peek(1) == '<')) {
        std::size_t close = p_.find('>', pos_);
        if (close == std::string_view::npos) return Error(open, "unclosed group name");
        pos_ = close + 1;
      } else {
        std::size_t flags_begin = pos_;
        while (!AtEnd() && Peek() != ':' && Peek() != ')') ++pos_;
        if (AtEnd()) return Error(open, "unclosed `(`");
        ACTX_TRY_VOID(ApplyFlags(flags_begin, pos_, &flags_));
        if (Peek() == ')') {  // `(?i)`: applies to the rest of the enclosing group
          ++pos_;
          return std::optional<std::size_t>();
        }
        ++pos_;  // ':'
      }
    }
    ACTX_TRY(std::size_t inner, ParseAlt(depth + 1));
    if (Peek() != ')') return Error(open, "unclosed `(`");
    ++pos_;
    flags_ = saved;
    return std::optional<std::size_t>(inner);
  }

  Result<Escape> ParseEscape(bool in_class) {
    std::size_t at = pos_;
    ++pos_;  // '\'
    if (AtEnd()) return Error(at, "the pattern ends with a lone `\\`");
    char c = Peek();
    Escape e;
    auto set = [&e](Ranges r, bool negate) {
      e.kind = Escape::Kind::kSet;
      e.set = negate ? Complement(Normalized(std::move(r))) : std::move(r);
      return e;
    };
    auto code = [&e](std::uint32_t cp) {
      e.kind = Escape::Kind::kCodePoint;
      e.code_point = cp;
      return e;
    };
    ++pos_;
    switch (c) {
      case 'd':
        return set(Digits(), false);
      case 'D':
        return set(Digits(), true);
      case 'w':
        return set(WordChars(), false);
      case 'W':
        return set(WordChars(), true);
      case 's':
        return set(Spaces(), false);
      case 'S':
        return set(Spaces(), true);
      case 'n':
        return code('\n');
      case 't':
        return code('\t');
      case 'r':
        return code('\r');
      case 'f':
        return code('\f');
      case 'v':
        return code('\v');
      case 'x':
        return ParseHex(at, &e);
      case 'b':
      case 'B':
      case 'A':
      case 'z':
        if (in_class) return Error(at, std::string("`\\") + c + "` is not allowed in a class");
        e.kind = Escape::Kind::kAssert;
        e.assert_kind = c == 'b'   ? kRegexWordBoundary
                        : c == 'B' ? kRegexNotWordBoundary
                        : c == 'A' ? kRegexBegin
                                   : kRegexEnd;
        return e;
      case 'p':
      case 'P':
        return Error(at, "Unicode classes (`\\p{…}`) are not supported");
      default:
        break;
    }
    if (c >= '1' && c <= '9') return Error(at, "backreferences are not supported");
    bool ascii_alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || IsAsciiDigit(c);
    if (ascii_alnum || static_cast<unsigned char>(c) >= 0x80) {
      return Error(at, std::string("unsupported escape `\\") + c + "`");
    }
    return code(static_cast<unsigned char>(c));  // escaped punctuation or space: itself
  }

  Result<Escape> ParseHex(std::size_t at, Escape* e) {
    std::uint32_t value = 0;
    if (Peek() == '{') {
      std::size_t close = p_.find('}', pos_);
      if (close == std::string_view::npos || close == pos_ + 1 || close - pos_ > 9) {
        return Error(at, "invalid `\\x{…}` escape");
      }
      for (std::size_t i = pos_ + 1; i < close; ++i) {
        int h = HexValue(p_[i]);
        if (h < 0) return Error(at, "invalid `\\x{…}` escape");
        value = value * 16 + static_cast<std::uint32_t>(h);
        if (value > kMaxCodePoint) return Error(at, "`\\x{…}` is not a Unicode code point");
      }
      pos_ = close + 1;
    } else {
      int h1 = HexValue(Peek());
      int h2 = HexValue(Peek(1));
      if (h1 < 0 || h2 < 0) return Error(at, "`\\x` needs two hex digits or `{…}`");
      value = static_cast<std::uint32_t>(h1 * 16 + h2);
      pos_ += 2;
    }
    if (value >= 0xD800 && value <= 0xDFFF) return Error(at, "surrogates are not code points");
    e->kind = Escape::Kind::kCodePoint;
    e->code_point = value;
    return *e;
  }

  Result<bool> ParsePosixClass(Ranges* out) {
    std::size_t at = pos_;
    std::size_t close = p_.find(":]", pos_ + 2);
    if (close == std::string_view::npos) return false;  // a literal `[`
    std::string_view name = p_.substr(pos_ + 2, close - pos_ - 2);
    bool negate = !name.empty() && name[0] == '^';
    if (negate) name.remove_prefix(1);
    Ranges r;
    if (name == "alnum") {
      r = {{'0', '9'}, {'A', 'Z'}, {'a', 'z'}};
    } else if (name == "alpha") {
      r = {{'A', 'Z'}, {'a', 'z'}};
    } else if (name == "digit") {
      r = Digits();
    } else if (name == "lower") {
      r = {{'a', 'z'}};
    } else if (name == "upper") {
      r = {{'A', 'Z'}};
    } else if (name == "space") {
      r = Spaces();
    } else if (name == "punct") {
      r = {{'!', '/'}, {':', '@'}, {'[', '`'}, {'{', '~'}};
    } else if (name == "xdigit") {
      r = {{'0', '9'}, {'A', 'F'}, {'a', 'f'}};
    } else if (name == "word") {
      r = WordChars();
    } else {
      return Error(at, "unknown POSIX class `[:" + std::string(name) + ":]`");
    }
    if (negate) r = Complement(Normalized(std::move(r)));
    out->insert(out->end(), r.begin(), r.end());
    pos_ = close + 2;
    return true;
  }

  // After `[`: the class up to its `]`.
  Result<std::size_t> ParseClass(std::size_t open) {
    bool negate = false;
    if (Peek() == '^') {
      negate = true;
      ++pos_;
    }
    Ranges ranges;
    bool first = true;
    for (;;) {
      if (AtEnd()) return Error(open, "unclosed `[`");
      char c = Peek();
      if (c == ']' && !first) {
        ++pos_;
        break;
      }
      first = false;
      if (c == '[' && Peek(1) == ':') {
        ACTX_TRY(bool posix, ParsePosixClass(&ranges));
        if (posix) continue;
      }
      std::uint32_t lo = 0;
      if (c == '\\') {
        ACTX_TRY(Escape e, ParseEscape(/*in_class=*/true));
        if (e.kind == Escape::Kind::kSet) {
          ranges.insert(ranges.end(), e.set.begin(), e.set.end());
          continue;
        }
        lo = e.code_point;
      } else {
        ACTX_TRY(std::uint32_t cp, NextCodePoint());
        lo = cp;
      }
      std::uint32_t hi = lo;
      if (Peek() == '-' && pos_ + 1 < p_.size() && Peek(1) != ']') {
        std::size_t dash = pos_;
        ++pos_;
        if (Peek() == '\\') {
          ACTX_TRY(Escape e, ParseEscape(/*in_class=*/true));
          if (e.kind != Escape::Kind::kCodePoint) return Error(dash, "invalid range in a class");
          hi = e.code_point;
        } else {
          ACTX_TRY(std::uint32_t cp, NextCodePoint());
          hi = cp;
        }
        if (hi < lo) return Error(dash, "invalid range in a class (end before start)");
      }
      ranges.emplace_back(lo, hi);
    }
    return AddClass(std::move(ranges), negate);
  }

  std::string_view p_;
  std::size_t pos_ = 0;
  Flags flags_;
};

}  // namespace

std::uint32_t RegexDecodeAt(std::string_view s, std::size_t i, std::size_t* len) {
  return DecodeUtf8At(s, i, len);
}

Result<RegexAst> ParseRegex(std::string_view pattern) {
  Parser parser(pattern);
  ACTX_TRY(std::size_t root, parser.ParseAll());
  RegexAst ast;
  ast.nodes = std::move(parser.nodes);
  ast.classes = std::move(parser.classes);
  ast.root = root;
  return ast;
}

}  // namespace agentctx
