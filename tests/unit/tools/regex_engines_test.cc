// SPDX-License-Identifier: MIT
// Property tests: every way RegexSearcher can answer (literal scanner, lazy DFA, DFA with a
// cache so small it resets and gives up, Pike VM) agrees with the Pike-VM simulation alone, on
// generated patterns × generated texts, per text (Find) and per line of a text (NextLine).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tools/regex.h"

namespace agentctx {
namespace {

class Rng {
 public:
  explicit Rng(std::uint64_t seed) : s_(seed | 1) {}
  std::uint32_t Below(std::uint32_t n) {
    s_ ^= s_ << 13;
    s_ ^= s_ >> 7;
    s_ ^= s_ << 17;
    return static_cast<std::uint32_t>(s_ % n);
  }

 private:
  std::uint64_t s_;
};

// Pieces patterns and texts are built from: they share characters so that matches happen.
const char* const kTextChars[] = {"a", "b", "c",  "A",        "B",  "x",  "1",   " ",
                                  "-", "_", "\t", "\xC3\xA9", "ab", "ba", "abc", "Ab"};

std::string Atom(Rng& rng, int depth);

std::string Regex(Rng& rng, int depth) {
  std::string out;
  const int alternatives = 1 + static_cast<int>(rng.Below(depth == 0 ? 3 : 2));
  for (int a = 0; a < alternatives; ++a) {
    if (a > 0) out += "|";
    const int atoms = static_cast<int>(rng.Below(4)) + (depth == 0 ? 1 : 0);
    for (int i = 0; i < atoms; ++i) {
      out += Atom(rng, depth);
      switch (rng.Below(12)) {
        case 0:
          out += "*";
          break;
        case 1:
          out += "+";
          break;
        case 2:
          out += "?";
          break;
        case 3:
          out += "{" + std::to_string(rng.Below(3)) + "}";
          break;
        case 4: {
          const std::uint32_t lo = rng.Below(3);
          out += "{" + std::to_string(lo) + "," + std::to_string(lo + rng.Below(4)) + "}";
          break;
        }
        case 5:
          out += "{" + std::to_string(rng.Below(3)) + ",}";
          break;
        default:
          break;
      }
    }
  }
  return out;
}

std::string Atom(Rng& rng, int depth) {
  static const char* const kAtoms[] = {
      "a",    "b",     "c",   "A",   "x",   "1",     " ",     "-",     "_",    "\xC3\xA9",
      "ab",   "abc",   "ba",  ".",   ".",   "[ab]",  "[^a]",  "[a-c]", "\\w",  "\\W",
      "\\d",  "\\s",   "\\S", "\\b", "\\B", "^",     "$",     "\\.",   "[Aa]", "[^\\w]",
      "[-_]", "(?s).", "\\t", "a b", "x1",  "\\x41", "[é-ê]", "\\A",   "\\z",  "[[:upper:]]"};
  constexpr std::uint32_t kCount = sizeof(kAtoms) / sizeof(kAtoms[0]);
  if (depth < 3) {
    switch (rng.Below(9)) {
      case 0:
        return "(" + Regex(rng, depth + 1) + ")";
      case 1:
        return "(?:" + Regex(rng, depth + 1) + ")";
      case 2:
        return "(?i:" + Regex(rng, depth + 1) + ")";
      default:
        break;
    }
  }
  return kAtoms[rng.Below(kCount)];
}

std::string Text(Rng& rng, bool allow_invalid) {
  std::string out;
  const std::uint32_t n = rng.Below(14);
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint32_t pick = rng.Below(40);
    if (allow_invalid && pick == 0) {
      out += "\xFF";
    } else if (pick == 1) {
      out += "\r";
    } else if (allow_invalid && pick == 2) {
      out += "\n";
    } else {
      out += kTextChars[rng.Below(sizeof(kTextChars) / sizeof(kTextChars[0]))];
    }
  }
  return out;
}

RegexSearchOptions NfaOnly() {
  RegexSearchOptions o;
  o.engine = RegexSearchOptions::Engine::kNfa;
  o.use_prefilter = false;
  return o;
}

struct Coverage {
  int patterns = 0;
  int exact_scanner = 0;
  int scanner = 0;
  int gave_up = 0;
  int matches = 0;
  int misses = 0;
};

// Checks every engine against the Pike VM on `texts` (each searcher reused across them).
void CheckPattern(const std::string& pattern, const std::vector<std::string>& texts,
                  Coverage* coverage) {
  Result<agentctx::Regex> regex = agentctx::Regex::Compile(pattern);
  if (!regex.has_value()) return;
  ++coverage->patterns;
  if (regex->prefilter() != nullptr) {
    ++(regex->prefilter()->exact() ? coverage->exact_scanner : coverage->scanner);
  }
  RegexSearcher reference(*regex, NfaOnly());
  RegexSearcher full(*regex);
  RegexSearchOptions no_scanner;
  no_scanner.use_prefilter = false;
  RegexSearcher dfa(*regex, no_scanner);
  RegexSearchOptions tiny;
  tiny.dfa_cache_bytes = 2048;
  RegexSearcher tiny_dfa(*regex, tiny);
  for (const std::string& text : texts) {
    const bool want = reference.Search(text);
    ++(want ? coverage->matches : coverage->misses);
    ASSERT_EQ(full.Search(text), want) << "pattern " << pattern << " text [" << text << "]";
    ASSERT_EQ(dfa.Search(text), want) << "DFA: pattern " << pattern << " text [" << text << "]";
    ASSERT_EQ(tiny_dfa.Search(text), want)
        << "small DFA cache: pattern " << pattern << " text [" << text << "]";
  }
  coverage->gave_up += tiny_dfa.dfa_gave_up() ? 1 : 0;
  EXPECT_FALSE(dfa.dfa_gave_up()) << pattern;
}

// NextLine over `lines` joined with LF (some with CR LF) finds exactly the lines the Pike VM
// matches, with their bounds.
void CheckLines(const std::string& pattern, const std::vector<std::string>& lines) {
  Result<agentctx::Regex> regex = agentctx::Regex::Compile(pattern);
  if (!regex.has_value()) return;
  RegexSearcher reference(*regex, NfaOnly());
  std::string text;
  std::vector<RegexSearcher::Line> want;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string line = lines[i];
    while (!line.empty() && line.back() == '\r') line.pop_back();
    const std::size_t start = text.size();
    text += line;
    if (reference.Search(line)) want.push_back({start, start + line.size()});
    text += i % 3 == 0 ? "\r\n" : "\n";
  }
  // Sometimes no final LF (but then a last empty line would vanish: grep has no line there).
  if (lines.size() % 2 == 1 && !lines.back().empty() && lines.back() != "\r") text.pop_back();
  RegexSearcher searcher(*regex);
  std::vector<RegexSearcher::Line> got;
  RegexSearcher::Line line;
  for (std::size_t from = 0; searcher.NextLine(text, from, &line) == RegexOutcome::kMatch &&
                             got.size() <= lines.size();) {
    got.push_back(line);
    const std::size_t lf = text.find('\n', line.end);
    from = lf == std::string::npos ? text.size() : lf + 1;
  }
  ASSERT_EQ(got.size(), want.size()) << pattern;
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].start, want[i].start) << pattern;
    EXPECT_EQ(got[i].end, want[i].end) << pattern;
  }
}

TEST(RegexEngines, GeneratedPatternsAgreeWithThePikeVm) {
  Rng rng(20240611);
  Coverage coverage;
  for (int p = 0; p < 1500; ++p) {
    const std::string pattern = Regex(rng, 0);
    std::vector<std::string> texts;
    for (int t = 0; t < 14; ++t) texts.push_back(Text(rng, true));
    CheckPattern(pattern, texts, &coverage);
    if (HasFatalFailure()) return;
    std::vector<std::string> lines;
    for (int t = 0; t < 9; ++t) lines.push_back(Text(rng, false));
    CheckLines(pattern, lines);
    if (HasFatalFailure()) return;
  }
  // The generator reaches every path.
  EXPECT_GT(coverage.patterns, 1000);
  EXPECT_GT(coverage.exact_scanner, 50);
  EXPECT_GT(coverage.scanner, 50);
  EXPECT_GT(coverage.matches, 2000);
  EXPECT_GT(coverage.misses, 2000);
}

TEST(RegexEngines, LiteralAlternationsAgree) {
  Rng rng(7);
  Coverage coverage;
  for (int p = 0; p < 300; ++p) {
    std::string pattern = rng.Below(3) == 0 ? "(?i)" : "";
    const std::uint32_t n = 1 + rng.Below(12);
    for (std::uint32_t i = 0; i < n; ++i) {
      if (i > 0) pattern += "|";
      const std::uint32_t len = 1 + rng.Below(4);
      for (std::uint32_t k = 0; k < len; ++k) pattern += "abcAB_x1"[rng.Below(8)];
    }
    std::vector<std::string> texts;
    for (int t = 0; t < 20; ++t) texts.push_back(Text(rng, true));
    CheckPattern(pattern, texts, &coverage);
    if (HasFatalFailure()) return;
  }
  EXPECT_GT(coverage.exact_scanner, 250);
}

TEST(RegexEngines, CostlyShapesAgreeAndTheDfaGivesUpWhenItsCacheThrashes) {
  // Patterns whose DFA has exponentially many states on a/b text.
  const std::vector<std::string> patterns = {
      "(a|b)*a(a|b){12}", "[ab]*a[ab]{9}b", ".{0,40}x",      "(\\w+\\s?)+$",  ".*.*.*.*=",
      "[a-z]{30}",        "^(a|ab)*c",      "\\bab{2,5}\\b", "(?i)ab.{0,8}BA"};
  Rng rng(99);
  std::vector<std::string> texts;
  for (int t = 0; t < 40; ++t) {
    std::string text;
    const std::uint32_t len = rng.Below(300);
    for (std::uint32_t i = 0; i < len; ++i) text += "abab x=c"[rng.Below(8)];
    texts.push_back(text);
  }
  Coverage coverage;
  for (const std::string& pattern : patterns) {
    CheckPattern(pattern, texts, &coverage);
    if (HasFatalFailure()) return;
  }
  EXPECT_GT(coverage.gave_up, 0);
}

TEST(RegexEngines, TheBudgetStopsEveryEngine) {
  // On random a/b text the DFA keeps building states and the simulation runs 13+ threads.
  Result<agentctx::Regex> regex = agentctx::Regex::Compile("(a|b)*a(a|b){12}y");
  ASSERT_TRUE(regex.has_value());
  Rng rng(5);
  std::string text;
  for (int i = 0; i < 5000; ++i) text += "ab"[rng.Below(2)];
  for (RegexSearchOptions::Engine engine :
       {RegexSearchOptions::Engine::kAuto, RegexSearchOptions::Engine::kNfa}) {
    RegexSearchOptions options;
    options.engine = engine;
    options.use_prefilter = false;
    options.budget = 2000;
    RegexSearcher searcher(*regex, options);
    EXPECT_EQ(searcher.Find(text), RegexOutcome::kOutOfBudget);
    EXPECT_GT(searcher.steps(), 2000u);
    EXPECT_LT(searcher.steps(), 200000u);                        // stopped soon after
    EXPECT_EQ(searcher.Find("ab"), RegexOutcome::kOutOfBudget);  // and stays stopped
  }
  RegexSearcher unbounded(*regex);
  EXPECT_EQ(unbounded.Find(text), RegexOutcome::kNoMatch);
}

}  // namespace
}  // namespace agentctx
