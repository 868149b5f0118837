// SPDX-License-Identifier: MIT
// Regular expressions for `grep` (ours); see regex.h.
// Algorithm: 1. regex_parser.h builds an AST of literals, classes, assertions, concatenations,
// alternations and repetitions (nesting bounded); 2. the AST is emitted as a Pike-VM
// program (Split/Jmp for alternation and repetition; counted repetition is unrolled, bounded by
// kRegexMaxInstructions); 3. RegexSearcher runs all threads in lock step over the text's code
// points, adding a fresh thread at every position (an unanchored search), and stops at the first
// reachable kMatch. A thread is added to a list at most once per position, so empty loops end.
#include "tools/regex.h"

#include <algorithm>
#include <string>

#include "tools/regex_parser.h"

namespace agentctx {
namespace {

constexpr std::uint32_t kNoChar = UINT32_MAX;  // before the first / after the last character

bool IsWordChar(std::uint32_t c) {
  return c != kNoChar &&
         ((c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_');
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
  Regex regex;
  regex.program_ = std::move(emitter.program);
  regex.classes_ = std::move(ast.classes);
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
          case kRegexBegin:
            holds = at_start;
            break;
          case kRegexEnd:
            holds = at_end;
            break;
          case kRegexWordBoundary:
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
  std::uint32_t c = pos < text.size() ? RegexDecodeAt(text, pos, &len) : kNoChar;
  for (;;) {
    const bool at_end = pos >= text.size();
    if (Add(&current_, 0, prev, c, pos == 0, at_end)) return true;
    if (at_end) return false;
    const std::size_t next_pos = pos + len;
    std::size_t next_len = 0;
    const std::uint32_t after =
        next_pos < text.size() ? RegexDecodeAt(text, next_pos, &next_len) : kNoChar;
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
