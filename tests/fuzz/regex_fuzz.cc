// SPDX-License-Identifier: MIT
// Fuzz target: the `grep` regular expressions (tools/regex.h). The input is a pattern, a NUL
// byte, then texts separated by LF (no NUL: the pattern alone, searched in a few fixed texts).
//  - Compile never crashes; what it accepts:
//  - the Pike VM agrees with a reference matcher written independently over the syntax tree
//    (sets of end positions per node, so it is polynomial), on texts up to kReferenceBytes;
//  - every other way RegexSearcher answers (scanner + DFA, DFA alone, DFA with a cache small
//    enough to reset and give up) agrees with the Pike VM on every text;
//  - NextLine over all the texts joined (decoded lossily, as grep does) finds exactly the lines
//    the Pike VM matches.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_check.h"
#include "support/utf8.h"
#include "tools/regex.h"
#include "tools/regex_parser.h"

namespace agentctx {
namespace {

constexpr std::size_t kMaxPatternBytes = 256;
constexpr std::size_t kReferenceBytes = 200;

// Does some substring of `text` match? Node by node, the set of positions (code point indexes)
// where a match of the node can end, given the set where it may start.
class Reference {
 public:
  Reference(const RegexAst& ast, std::string_view text) : ast_(ast) {
    for (std::size_t i = 0; i < text.size();) {
      std::size_t len = 0;
      cps_.push_back(RegexDecodeAt(text, i, &len));
      i += len;
    }
  }

  bool Search() {
    Set all(cps_.size() + 1, 1);
    Set ends = Step(ast_.root, all);
    for (char e : ends) {
      if (e) return true;
    }
    return false;
  }

 private:
  using Set = std::vector<char>;

  bool Word(std::size_t i) const { return i < cps_.size() && RegexIsWordChar(cps_[i]); }

  Set Step(std::size_t index, const Set& from) {
    const RegexNode& node = ast_.nodes[index];
    const std::size_t n = cps_.size();
    Set out(n + 1, 0);
    switch (node.kind) {
      case RegexNode::Kind::kEmpty:
        return from;
      case RegexNode::Kind::kLiteral:
      case RegexNode::Kind::kClass:
      case RegexNode::Kind::kAny:
        for (std::size_t i = 0; i < n; ++i) {
          if (!from[i]) continue;
          const std::uint32_t c = cps_[i];
          const bool ok = node.kind == RegexNode::Kind::kLiteral ? c == node.value
                          : node.kind == RegexNode::Kind::kClass
                              ? ast_.classes[node.value].Contains(c)
                              : c != '\n';
          if (ok) out[i + 1] = 1;
        }
        return out;
      case RegexNode::Kind::kAssert:
        for (std::size_t i = 0; i <= n; ++i) {
          if (!from[i]) continue;
          const bool before = i > 0 && Word(i - 1);
          const bool after = Word(i);
          bool holds = node.value == kRegexBegin          ? i == 0
                       : node.value == kRegexEnd          ? i == n
                       : node.value == kRegexWordBoundary ? before != after
                                                          : before == after;
          if (holds) out[i] = 1;
        }
        return out;
      case RegexNode::Kind::kConcat: {
        Set cur = from;
        for (std::size_t kid : node.kids) cur = Step(kid, cur);
        return cur;
      }
      case RegexNode::Kind::kAlt:
        for (std::size_t kid : node.kids) Union(&out, Step(kid, from));
        return out;
      case RegexNode::Kind::kRepeat:
        return Repeat(node, from);
    }
    return out;
  }

  static bool Union(Set* into, const Set& more) {
    bool changed = false;
    for (std::size_t i = 0; i < into->size(); ++i) {
      if (more[i] && !(*into)[i]) {
        (*into)[i] = 1;
        changed = true;
      }
    }
    return changed;
  }

  // Step distributes over union, so the union over k in [min, max] of Step^k can stop once an
  // iterate repeats (a fixpoint) or, unbounded, once the running union stops growing.
  Set Repeat(const RegexNode& node, const Set& from) {
    const std::size_t kid = node.kids[0];
    Set cur = from;
    for (std::uint32_t k = 0; k < node.min; ++k) {
      Set next = Step(kid, cur);
      if (next == cur) break;  // the same from here on
      cur = std::move(next);
    }
    Set result = cur;
    if (node.max == kRegexInf) {
      Set frontier = cur;
      for (;;) {
        frontier = Step(kid, frontier);
        if (!Union(&result, frontier)) break;
      }
      return result;
    }
    for (std::uint32_t k = node.min; k < node.max; ++k) {
      Set next = Step(kid, cur);
      if (next == cur) break;
      cur = std::move(next);
      Union(&result, cur);
    }
    return result;
  }

  const RegexAst& ast_;
  std::vector<std::uint32_t> cps_;
};

RegexSearchOptions Options(RegexSearchOptions::Engine engine, bool prefilter, std::size_t cache) {
  RegexSearchOptions o;
  o.engine = engine;
  o.use_prefilter = prefilter;
  o.dfa_cache_bytes = cache;
  return o;
}

void Run(std::string_view input) {
  std::size_t nul = input.find('\0');
  std::string_view pattern = input.substr(0, nul);
  if (pattern.size() > kMaxPatternBytes) return;
  std::vector<std::string_view> texts;
  std::string_view rest =
      nul == std::string_view::npos ? std::string_view() : input.substr(nul + 1);
  if (nul == std::string_view::npos) {
    texts = {"", "a", "abc abc", "foo_bar(1, 2);", "x\r", "\xC3\xA9t\xC3\xA9 \xFF!"};
  } else {
    for (std::size_t start = 0; start <= rest.size();) {
      std::size_t lf = rest.find('\n', start);
      if (lf == std::string_view::npos) lf = rest.size();
      texts.push_back(rest.substr(start, lf - start));
      start = lf + 1;
    }
  }
  Result<Regex> regex = Regex::Compile(pattern);
  if (!regex.has_value()) return;
  Result<RegexAst> ast = ParseRegex(pattern);
  ACTX_FUZZ_CHECK(ast.has_value());

  using Engine = RegexSearchOptions::Engine;
  RegexSearcher pike(*regex, Options(Engine::kNfa, false, kRegexDfaCacheBytes));
  RegexSearcher full(*regex);
  RegexSearcher dfa(*regex, Options(Engine::kAuto, false, kRegexDfaCacheBytes));
  RegexSearcher tiny(*regex, Options(Engine::kAuto, true, 1024));
  for (std::string_view text : texts) {
    const bool want = pike.Search(text);
    if (text.size() <= kReferenceBytes) {
      Reference reference(*ast, text);
      ACTX_FUZZ_CHECK(reference.Search() == want);
    }
    ACTX_FUZZ_CHECK(full.Search(text) == want);
    ACTX_FUZZ_CHECK(dfa.Search(text) == want);
    ACTX_FUZZ_CHECK(tiny.Search(text) == want);
  }

  const std::string joined = LossyUtf8(rest);
  std::vector<RegexSearcher::Line> expected;
  for (std::size_t start = 0; start < joined.size();) {
    std::size_t lf = joined.find('\n', start);
    if (lf == std::string::npos) lf = joined.size();
    std::size_t end = lf;
    if (end > start && joined[end - 1] == '\r') --end;
    if (pike.Search(std::string_view(joined).substr(start, end - start))) {
      expected.push_back({start, end});
    }
    start = lf + 1;
  }
  RegexSearcher lines(*regex);
  RegexSearcher::Line line;
  std::size_t found = 0;
  for (std::size_t from = 0; lines.NextLine(joined, from, &line) == RegexOutcome::kMatch;) {
    ACTX_FUZZ_CHECK(found < expected.size());
    ACTX_FUZZ_CHECK(line.start == expected[found].start && line.end == expected[found].end);
    ++found;
    const std::size_t lf = joined.find('\n', line.end);
    from = lf == std::string::npos ? joined.size() : lf + 1;
  }
  ACTX_FUZZ_CHECK(found == expected.size());
}

}  // namespace
}  // namespace agentctx

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  agentctx::Run(agentctx::fuzz::AsText(data, size));
  return 0;
}
