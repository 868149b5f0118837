// SPDX-License-Identifier: MIT
// The Pike-VM simulation of `grep` regular expressions; see regex_pike.h.
#include "tools/regex_pike.h"

#include "tools/regex_parser.h"

namespace agentctx {

RegexPikeVm::RegexPikeVm(const Regex& regex) : regex_(&regex) {
  const std::size_t n = regex.program().size();
  current_.reserve(n);
  next_.reserve(n);
  mark_.assign(n, 0);
  stack_.reserve(n);
}

bool RegexPikeVm::Add(std::vector<std::uint32_t>* list, std::uint32_t pc, std::uint32_t prev,
                      std::uint32_t next, bool at_start, bool at_end, std::uint64_t* steps) {
  const std::vector<RegexInst>& program = regex_->program();
  stack_.clear();
  stack_.push_back(pc);
  while (!stack_.empty()) {
    std::uint32_t at = stack_.back();
    stack_.pop_back();
    if (mark_[at] == generation_) continue;
    mark_[at] = generation_;
    ++*steps;
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
        const bool prev_word = prev != kRegexNoChar && RegexIsWordChar(prev);
        const bool next_word = next != kRegexNoChar && RegexIsWordChar(next);
        bool holds = false;
        switch (inst.a) {
          case kRegexBegin:
            holds = at_start;
            break;
          case kRegexEnd:
            holds = at_end;
            break;
          case kRegexWordBoundary:
            holds = prev_word != next_word;
            break;
          default:
            holds = prev_word == next_word;
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

RegexOutcome RegexPikeVm::Search(std::string_view text, std::uint64_t* steps,
                                 std::uint64_t budget) {
  const std::vector<RegexInst>& program = regex_->program();
  const std::vector<RegexClass>& classes = regex_->classes();
  current_.clear();
  ++generation_;
  std::uint32_t prev = kRegexNoChar;
  std::size_t pos = 0;
  std::size_t len = 0;
  std::uint32_t c = pos < text.size() ? RegexDecodeAt(text, pos, &len) : kRegexNoChar;
  for (;;) {
    if (*steps > budget) return RegexOutcome::kOutOfBudget;
    const bool at_end = pos >= text.size();
    if (Add(&current_, 0, prev, c, pos == 0, at_end, steps)) return RegexOutcome::kMatch;
    if (at_end) return RegexOutcome::kNoMatch;
    const std::size_t next_pos = pos + len;
    std::size_t next_len = 0;
    const std::uint32_t after =
        next_pos < text.size() ? RegexDecodeAt(text, next_pos, &next_len) : kRegexNoChar;
    ++generation_;
    next_.clear();
    *steps += current_.size();
    for (std::uint32_t pc : current_) {
      if (RegexConsumes(program[pc], classes, c) &&
          Add(&next_, pc + 1, c, after, false, next_pos >= text.size(), steps)) {
        return RegexOutcome::kMatch;
      }
    }
    current_.swap(next_);
    prev = c;
    c = after;
    pos = next_pos;
    len = next_len;
  }
}

}  // namespace agentctx
