// SPDX-License-Identifier: MIT
// Regular expressions for `grep` (ours); see regex.h.
// Algorithm: 1. a recursive-descent parser (nesting bounded) builds an AST of literals, classes,
// assertions, concatenations, alternations and repetitions; 2. the AST is emitted as a Pike-VM
// program (Split/Jmp for alternation and repetition; counted repetition is unrolled, bounded by
// kRegexMaxInstructions); 3. RegexSearcher runs all threads in lock step over the text's code
// points, adding a fresh thread at every position (an unanchored search), and stops at the first
// reachable kMatch. A thread is added to a list at most once per position, so empty loops end.
#include "tools/regex.h"

#include <algorithm>
#include <optional>
#include <string>

#include "support/utf8.h"

namespace agentctx {
namespace {

constexpr std::uint32_t kInf = UINT32_MAX;
constexpr std::uint32_t kNoChar = UINT32_MAX;  // before the first / after the last character
constexpr std::uint32_t kMaxCodePoint = 0x10FFFF;

enum AssertKind : std::uint32_t { kBegin, kEnd, kWordBoundary, kNotWordBoundary };

using Ranges = std::vector<std::pair<std::uint32_t, std::uint32_t>>;

struct Node {
  enum class Kind { kEmpty, kLiteral, kClass, kAny, kAssert, kConcat, kAlt, kRepeat };
  Kind kind = Kind::kEmpty;
  std::uint32_t value = 0;  // literal code point, class index or assert kind
  std::uint32_t min = 0;
  std::uint32_t max = 0;
  std::vector<std::size_t> kids;
};

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

bool IsWordChar(std::uint32_t c) {
  return c != kNoChar &&
         ((c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_');
}

bool IsAsciiDigit(char c) { return c >= '0' && c <= '9'; }

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Decodes the code point at s[i] (valid UTF-8 assumed; an invalid byte is U+FFFD, length 1).
std::uint32_t DecodeAt(std::string_view s, std::size_t i, std::size_t* len) {
  std::size_t n = Utf8SequenceLength(s, i, nullptr);
  if (n == 0) {
    *len = 1;
    return 0xFFFD;
  }
  *len = n;
  auto b = [&](std::size_t k) {
    return static_cast<std::uint32_t>(static_cast<unsigned char>(s[k]));
  };
  if (n == 1) return b(i);
  if (n == 2) return ((b(i) & 0x1F) << 6) | (b(i + 1) & 0x3F);
  if (n == 3) return ((b(i) & 0x0F) << 12) | ((b(i + 1) & 0x3F) << 6) | (b(i + 2) & 0x3F);
  return ((b(i) & 0x07) << 18) | ((b(i + 1) & 0x3F) << 12) | ((b(i + 2) & 0x3F) << 6) |
         (b(i + 3) & 0x3F);
}

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

// What one escape sequence denotes.
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

  std::vector<Node> nodes;
  std::vector<RegexClass> classes;

 private:
  struct Flags {
    bool fold = false;
    bool dot_all = false;
  };

  static Unexpected<agentctx::Error> Error(std::size_t at, std::string why) {
    return Fail(ErrorCode::kInvalidInput, "at byte " + std::to_string(at) + ": " + why);
  }

  std::size_t Add(Node node) {
    nodes.push_back(std::move(node));
    return nodes.size() - 1;
  }

  std::size_t AddClass(Ranges ranges, bool negate) {
    Ranges r = Normalized(flags_.fold ? Folded(std::move(ranges)) : std::move(ranges));
    if (negate) r = Complement(r);
    classes.push_back(RegexClass{std::move(r)});
    Node node;
    node.kind = Node::Kind::kClass;
    node.value = static_cast<std::uint32_t>(classes.size() - 1);
    return Add(std::move(node));
  }

  std::size_t AddLiteral(std::uint32_t c) {
    bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    if (flags_.fold && letter) return AddClass({{c, c}}, false);
    Node node;
    node.kind = Node::Kind::kLiteral;
    node.value = c;
    return Add(std::move(node));
  }

  std::size_t AddAssert(std::uint32_t kind) {
    Node node;
    node.kind = Node::Kind::kAssert;
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
    std::uint32_t c = DecodeAt(p_, pos_, &len);
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
    Node node;
    node.kind = Node::Kind::kAlt;
    node.kids = std::move(alternatives);
    return Add(std::move(node));
  }

  Result<std::size_t> ParseConcat(int depth) {
    Node concat;
    concat.kind = Node::Kind::kConcat;
    while (!AtEnd() && Peek() != '|' && Peek() != ')') {
      ACTX_TRY(std::optional<std::size_t> atom, ParseAtom(depth));
      if (!atom.has_value()) continue;  // a flag group `(?i)`: no atom
      ACTX_TRY(std::size_t repeated, ParseRepetitions(*atom));
      concat.kids.push_back(repeated);
    }
    if (concat.kids.size() == 1) return concat.kids[0];
    if (concat.kids.empty()) return Add(Node{});
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
        max = kInf;
      } else if (!number(&max) || i >= p_.size() || p_[i] != '}') {
        return std::optional<std::pair<std::uint32_t, std::uint32_t>>();
      }
    } else {
      return std::optional<std::pair<std::uint32_t, std::uint32_t>>();
    }
    if (min > kRegexMaxRepeat || (max != kInf && max > kRegexMaxRepeat)) {
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
        min = 0, max = kInf, ++pos_;
      } else if (c == '+') {
        min = 1, max = kInf, ++pos_;
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
      Node node;
      node.kind = Node::Kind::kRepeat;
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
        Node node;
        node.kind = Node::Kind::kAny;
        return std::optional<std::size_t>(Add(std::move(node)));
      }
      case '^':
        ++pos_;
        return std::optional<std::size_t>(AddAssert(kBegin));
      case '$':
        ++pos_;
        return std::optional<std::size_t>(AddAssert(kEnd));
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
        e.assert_kind = c == 'b'   ? kWordBoundary
                        : c == 'B' ? kNotWordBoundary
                        : c == 'A' ? kBegin
                                   : kEnd;
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

class Emitter {
 public:
  explicit Emitter(const std::vector<Node>& nodes) : nodes_(nodes) {}

  Result<void> Emit(std::size_t index) {
    if (program.size() > kRegexMaxInstructions) return TooLarge();
    const Node& node = nodes_[index];
    switch (node.kind) {
      case Node::Kind::kEmpty:
        return {};
      case Node::Kind::kLiteral:
        Push(RegexInst::Op::kChar, node.value);
        return {};
      case Node::Kind::kClass:
        Push(RegexInst::Op::kClass, node.value);
        return {};
      case Node::Kind::kAny:
        Push(RegexInst::Op::kAny);
        return {};
      case Node::Kind::kAssert:
        Push(RegexInst::Op::kAssert, node.value);
        return {};
      case Node::Kind::kConcat:
        for (std::size_t kid : node.kids) ACTX_TRY_VOID(Emit(kid));
        return {};
      case Node::Kind::kAlt:
        return EmitAlt(node);
      case Node::Kind::kRepeat:
        return EmitRepeat(node);
    }
    return {};
  }

  std::vector<RegexInst> program;

 private:
  static Unexpected<Error> TooLarge() {
    return Fail(ErrorCode::kInvalidInput, "the pattern is too large (more than " +
                                              std::to_string(kRegexMaxInstructions) +
                                              " instructions once repetitions are expanded)");
  }

  std::uint32_t Pc() const { return static_cast<std::uint32_t>(program.size()); }
  std::uint32_t Push(RegexInst::Op op, std::uint32_t a = 0, std::uint32_t b = 0) {
    program.push_back(RegexInst{op, a, b});
    return Pc() - 1;
  }

  Result<void> EmitAlt(const Node& node) {
    std::vector<std::uint32_t> jumps;
    for (std::size_t i = 0; i < node.kids.size(); ++i) {
      if (i + 1 == node.kids.size()) {
        ACTX_TRY_VOID(Emit(node.kids[i]));
        break;
      }
      std::uint32_t split = Push(RegexInst::Op::kSplit, Pc() + 1);
      ACTX_TRY_VOID(Emit(node.kids[i]));
      jumps.push_back(Push(RegexInst::Op::kJmp));
      program[split].b = Pc();
    }
    for (std::uint32_t j : jumps) program[j].a = Pc();
    return {};
  }

  Result<void> EmitRepeat(const Node& node) {
    std::size_t kid = node.kids[0];
    for (std::uint32_t i = 0; i < node.min; ++i) {
      ACTX_TRY_VOID(Emit(kid));
      if (program.size() > kRegexMaxInstructions) return TooLarge();
    }
    if (node.max == kInf) {
      std::uint32_t loop = Push(RegexInst::Op::kSplit, Pc() + 1);
      ACTX_TRY_VOID(Emit(kid));
      Push(RegexInst::Op::kJmp, loop);
      program[loop].b = Pc();
      return {};
    }
    std::vector<std::uint32_t> splits;
    for (std::uint32_t i = node.min; i < node.max; ++i) {
      splits.push_back(Push(RegexInst::Op::kSplit, Pc() + 1));
      ACTX_TRY_VOID(Emit(kid));
      if (program.size() > kRegexMaxInstructions) return TooLarge();
    }
    for (std::uint32_t s : splits) program[s].b = Pc();
    return {};
  }

  const std::vector<Node>& nodes_;
};

}  // namespace

bool RegexClass::Contains(std::uint32_t c) const {
  auto it = std::upper_bound(ranges.begin(), ranges.end(), c,
                             [](std::uint32_t v, const auto& r) { return v < r.first; });
  return it != ranges.begin() && c <= std::prev(it)->second;
}

Result<Regex> Regex::Compile(std::string_view pattern) {
  if (pattern.size() > kRegexMaxPatternBytes) {
    return Fail(ErrorCode::kInvalidInput,
                "the pattern is longer than " + std::to_string(kRegexMaxPatternBytes) + " bytes");
  }
  Parser parser(pattern);
  ACTX_TRY(std::size_t root, parser.ParseAll());
  Emitter emitter(parser.nodes);
  ACTX_TRY_VOID(emitter.Emit(root));
  emitter.program.push_back(RegexInst{RegexInst::Op::kMatch});
  if (emitter.program.size() > kRegexMaxInstructions + 1) {
    return Fail(ErrorCode::kInvalidInput, "the pattern is too large");
  }
  Regex regex;
  regex.program_ = std::move(emitter.program);
  regex.classes_ = std::move(parser.classes);
  // A pattern made only of case-sensitive literals is searched with find().
  bool literal = true;
  for (const RegexInst& inst : regex.program_) {
    if (inst.op == RegexInst::Op::kChar) {
      AppendUtf8(&regex.literal_, inst.a);
    } else if (inst.op != RegexInst::Op::kMatch) {
      literal = false;
      break;
    }
  }
  regex.is_literal_ = literal;
  if (!literal) regex.literal_.clear();
  return regex;
}

RegexSearcher::RegexSearcher(const Regex& regex) : regex_(&regex) {
  const std::size_t n = regex.program().size();
  current_.reserve(n);
  next_.reserve(n);
  mark_.assign(n, 0);
  stack_.reserve(n);
}

bool RegexSearcher::Add(std::vector<std::uint32_t>* list, std::uint32_t pc, std::uint32_t prev,
                        std::uint32_t next, bool at_start, bool at_end) {
  const std::vector<RegexInst>& program = regex_->program();
  stack_.clear();
  stack_.push_back(pc);
  while (!stack_.empty()) {
    std::uint32_t at = stack_.back();
    stack_.pop_back();
    if (mark_[at] == generation_) continue;
    mark_[at] = generation_;
    const RegexInst& inst = program[at];
    switch (inst.op) {
      case RegexInst::Op::kMatch:
        return true;
      case RegexInst::Op::kJmp:
        stack_.push_back(inst.a);
        break;
      case RegexInst::Op::kSplit:
        stack_.push_back(inst.b);
        stack_.push_back(inst.a);
        break;
      case RegexInst::Op::kAssert: {
        bool holds = false;
        switch (inst.a) {
          case kBegin:
            holds = at_start;
            break;
          case kEnd:
            holds = at_end;
            break;
          case kWordBoundary:
            holds = IsWordChar(prev) != IsWordChar(next);
            break;
          default:
            holds = IsWordChar(prev) == IsWordChar(next);
            break;
        }
        if (holds) stack_.push_back(at + 1);
        break;
      }
      default:
        list->push_back(at);
        break;
    }
  }
  return false;
}

bool RegexSearcher::Search(std::string_view text) {
  if (const std::string* literal = regex_->literal()) {
    return text.find(*literal) != std::string_view::npos;
  }
  const std::vector<RegexInst>& program = regex_->program();
  current_.clear();
  ++generation_;
  std::uint32_t prev = kNoChar;
  std::size_t pos = 0;
  std::size_t len = 0;
  std::uint32_t c = pos < text.size() ? DecodeAt(text, pos, &len) : kNoChar;
  for (;;) {
    const bool at_end = pos >= text.size();
    if (Add(&current_, 0, prev, c, pos == 0, at_end)) return true;
    if (at_end) return false;
    const std::size_t next_pos = pos + len;
    std::size_t next_len = 0;
    const std::uint32_t after =
        next_pos < text.size() ? DecodeAt(text, next_pos, &next_len) : kNoChar;
    ++generation_;
    next_.clear();
    for (std::uint32_t pc : current_) {
      const RegexInst& inst = program[pc];
      bool ok = inst.op == RegexInst::Op::kChar    ? c == inst.a
                : inst.op == RegexInst::Op::kClass ? regex_->classes()[inst.a].Contains(c)
                                                   : c != '\n';
      if (ok && Add(&next_, pc + 1, c, after, false, next_pos >= text.size())) return true;
    }
    current_.swap(next_);
    prev = c;
    c = after;
    pos = next_pos;
    len = next_len;
  }
}

}  // namespace agentctx
