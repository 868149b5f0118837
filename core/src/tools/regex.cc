// SPDX-License-Identifier: MIT
// Regular expressions for `grep` (ours); see regex.h.
// Algorithm: 1. regex_parser.h builds an AST of literals, classes, assertions, concatenations,
// alternations and repetitions (nesting bounded); 2. the AST is emitted as a Pike-VM
// program (Split/Jmp for alternation and repetition; counted repetition is unrolled, bounded by
// kRegexMaxInstructions and kRegexMaxPositions); 3. the alphabet, the literals and their scanner
// are derived once; 4. RegexSearcher tries, per line: the scanner (skip the line, or answer when
// it is exact), the lazy DFA, and the Pike VM when the DFA has given up.
#include "tools/regex.h"

#include <algorithm>
#include <string>

#include "support/byte_scan.h"
#include "tools/regex_dfa.h"
#include "tools/regex_literals.h"
#include "tools/regex_parser.h"
#include "tools/regex_pike.h"

namespace agentctx {
namespace {

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

// Emits the Pike-VM program of an AST.
class Emitter {
 public:
  explicit Emitter(const std::vector<RegexNode>& nodes) : nodes_(nodes) {}

  Result<void> Emit(std::size_t index) {
    if (program.size() > kRegexMaxInstructions) return TooLarge();
    const RegexNode& node = nodes_[index];
    switch (node.kind) {
      case RegexNode::Kind::kEmpty:
        return {};
      case RegexNode::Kind::kLiteral:
        Push(RegexInst::Op::kChar, node.value);
        return {};
      case RegexNode::Kind::kClass:
        Push(RegexInst::Op::kClass, node.value);
        return {};
      case RegexNode::Kind::kAny:
        Push(RegexInst::Op::kAny);
        return {};
      case RegexNode::Kind::kAssert:
        Push(RegexInst::Op::kAssert, node.value);
        return {};
      case RegexNode::Kind::kConcat:
        for (std::size_t kid : node.kids) ACTX_TRY_VOID(Emit(kid));
        return {};
      case RegexNode::Kind::kAlt:
        return EmitAlt(node);
      case RegexNode::Kind::kRepeat:
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

  Result<void> EmitAlt(const RegexNode& node) {
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

  Result<void> EmitRepeat(const RegexNode& node) {
    std::size_t kid = node.kids[0];
    for (std::uint32_t i = 0; i < node.min; ++i) {
      ACTX_TRY_VOID(Emit(kid));
      if (program.size() > kRegexMaxInstructions) return TooLarge();
    }
    if (node.max == kRegexInf) {
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

  const std::vector<RegexNode>& nodes_;
};

// True when instruction 0 reaches kMatch through Split and Jmp alone: the empty string matches
// at every position whatever surrounds it.
bool MatchesEmptyAnywhere(const std::vector<RegexInst>& program) {
  std::vector<bool> seen(program.size(), false);
  std::vector<std::uint32_t> stack = {0};
  while (!stack.empty()) {
    std::uint32_t pc = stack.back();
    stack.pop_back();
    if (seen[pc]) continue;
    seen[pc] = true;
    const RegexInst& inst = program[pc];
    if (inst.op == RegexInst::Op::kMatch) return true;
    if (inst.op == RegexInst::Op::kJmp) stack.push_back(inst.a);
    if (inst.op == RegexInst::Op::kSplit) {
      stack.push_back(inst.a);
      stack.push_back(inst.b);
    }
  }
  return false;
}

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
  ACTX_TRY(RegexAst ast, ParseRegex(pattern));
  Emitter emitter(ast.nodes);
  ACTX_TRY_VOID(emitter.Emit(ast.root));
  emitter.program.push_back(RegexInst{RegexInst::Op::kMatch});
  if (emitter.program.size() > kRegexMaxInstructions + 1) {
    return Fail(ErrorCode::kInvalidInput, "the pattern is too large");
  }
  std::size_t positions = 0;
  bool word_boundaries = false;
  for (const RegexInst& inst : emitter.program) {
    const RegexInst::Op op = inst.op;
    if (op == RegexInst::Op::kChar || op == RegexInst::Op::kClass || op == RegexInst::Op::kAny) {
      ++positions;
    }
    if (op == RegexInst::Op::kAssert &&
        (inst.a == kRegexWordBoundary || inst.a == kRegexNotWordBoundary)) {
      word_boundaries = true;
    }
  }
  if (positions > kRegexMaxPositions) {
    // Each position of an expanded repetition is work for every character searched.
    return Fail(ErrorCode::kInvalidInput,
                "the pattern is too costly to search: its repetitions expand to " +
                    std::to_string(positions) + " character positions (at most " +
                    std::to_string(kRegexMaxPositions) +
                    "); lower the `{n,m}` counts, or use `*` or `+` where any length will do");
  }
  const RegexLiteralSet literals = ExtractLiterals(ast);

  Regex regex;
  regex.program_ = std::move(emitter.program);
  regex.classes_ = std::move(ast.classes);
  regex.uses_word_boundaries_ = word_boundaries;
  regex.alphabet_ = RegexAlphabet::Build(regex.program_, regex.classes_, word_boundaries);
  regex.matches_everything_ = literals.matches_everything || MatchesEmptyAnywhere(regex.program_);
  if (!regex.matches_everything_) regex.prefilter_ = RegexPrefilter::Build(literals);
  // A pattern made only of case-sensitive literals.
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

RegexSearcher::RegexSearcher(const Regex& regex, RegexSearchOptions options)
    : regex_(&regex),
      options_(options),
      dfa_(options.engine == RegexSearchOptions::Engine::kAuto
               ? std::make_unique<RegexDfa>(regex, options.dfa_cache_bytes)
               : nullptr),
      pike_(std::make_unique<RegexPikeVm>(regex)) {}

RegexSearcher::~RegexSearcher() = default;

bool RegexSearcher::dfa_gave_up() const { return dfa_ != nullptr && dfa_->gave_up(); }

RegexOutcome RegexSearcher::Automaton(std::string_view text) {
  if (steps_ > options_.budget) return RegexOutcome::kOutOfBudget;
  if (dfa_ != nullptr && !dfa_->gave_up()) {
    switch (dfa_->Search(text, &steps_, options_.budget)) {
      case RegexDfa::Outcome::kMatch:
        return RegexOutcome::kMatch;
      case RegexDfa::Outcome::kNoMatch:
        return RegexOutcome::kNoMatch;
      case RegexDfa::Outcome::kOutOfBudget:
        return RegexOutcome::kOutOfBudget;
      case RegexDfa::Outcome::kGaveUp:
        break;
    }
  }
  return pike_->Search(text, &steps_, options_.budget);
}

RegexOutcome RegexSearcher::Find(std::string_view text) {
  if (options_.use_prefilter) {
    if (regex_->matches_everything()) return RegexOutcome::kMatch;
    if (const RegexPrefilter* prefilter = regex_->prefilter()) {
      if (prefilter->Find(text, 0) == std::string_view::npos) return RegexOutcome::kNoMatch;
      if (prefilter->exact()) return RegexOutcome::kMatch;
    }
  }
  return Automaton(text);
}

RegexOutcome RegexSearcher::NextLine(std::string_view text, std::size_t from, Line* line) {
  const bool everything = options_.use_prefilter && regex_->matches_everything();
  const RegexPrefilter* prefilter =
      options_.use_prefilter && !everything ? regex_->prefilter() : nullptr;
  const bool exact = everything || (prefilter != nullptr && prefilter->exact());
  std::size_t pos = from;
  while (pos < text.size()) {
    std::size_t start = pos;
    if (prefilter != nullptr) {
      // Lines before the one holding the next literal cannot match.
      const std::size_t hit = prefilter->Find(text, pos);
      if (hit == std::string_view::npos) return RegexOutcome::kNoMatch;
      start = hit;
      while (start > pos && text[start - 1] != '\n') --start;
    }
    std::size_t lf = FindByte(text, start, '\n');
    if (lf == std::string_view::npos) lf = text.size();
    std::size_t end = lf;
    if (end > start && text[end - 1] == '\r') --end;
    const RegexOutcome outcome =
        exact ? RegexOutcome::kMatch : Automaton(text.substr(start, end - start));
    if (outcome == RegexOutcome::kMatch) {
      *line = Line{start, end};
      return outcome;
    }
    if (outcome == RegexOutcome::kOutOfBudget) return outcome;
    pos = lf + 1;
  }
  return RegexOutcome::kNoMatch;
}

}  // namespace agentctx
