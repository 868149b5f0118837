// SPDX-License-Identifier: MIT
// The lazily built DFA of `grep` regular expressions; see regex_dfa.h.
#include "tools/regex_dfa.h"

#include <algorithm>

#include "tools/regex_parser.h"

namespace agentctx {
namespace {

constexpr std::size_t kInitialSlots = 256;
static_assert(kRegexMaxInstructions + 1 < 65536, "instruction indexes are stored in 16 bits");

std::uint64_t HashState(std::uint8_t prev, const std::uint16_t* pcs, std::size_t n) {
  std::uint64_t h = 0x9E3779B97F4A7C15ull ^ prev;
  for (std::size_t i = 0; i < n; ++i) {
    h ^= pcs[i];
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 31;
  }
  return h;
}

}  // namespace

RegexDfa::RegexDfa(const Regex& regex, std::size_t cache_bytes)
    : regex_(&regex),
      cache_bytes_(cache_bytes),
      width_(regex.alphabet().size),
      word_boundaries_(regex.uses_word_boundaries()) {
  mark_.assign(regex.program().size(), 0);
  Reset();
  // Anchored: from a later position, no context lets instruction 0 reach anything.
  anchored_ = true;
  std::uint64_t steps = 0;
  for (std::uint8_t prev : {kPrevWord, kPrevOther}) {
    for (int next = 0; next < 3; ++next) {
      if (Closure(prev, nullptr, 0, next == 1, next == 2, &steps) || !list_.empty()) {
        anchored_ = false;
      }
    }
  }
}

void RegexDfa::Reset() {
  states_.clear();
  arena_.clear();
  trans_.clear();
  table_.assign(kInitialSlots, -1);
  next_.clear();
  if (Intern(kPrevStart, next_) != 0) gave_up_ = true;  // not even one state fits
}

std::size_t RegexDfa::MemoryUsed() const {
  return states_.size() * sizeof(State) + arena_.size() * sizeof(std::uint16_t) +
         trans_.size() * sizeof(std::int32_t) + table_.size() * sizeof(std::int32_t);
}

void RegexDfa::Rehash(std::size_t slots) {
  table_.assign(slots, -1);
  const std::size_t mask = slots - 1;
  for (std::size_t id = 0; id < states_.size(); ++id) {
    std::size_t i = states_[id].hash & mask;
    while (table_[i] >= 0) i = (i + 1) & mask;
    table_[i] = static_cast<std::int32_t>(id);
  }
}

std::int32_t RegexDfa::Intern(std::uint8_t prev, const std::vector<std::uint16_t>& pcs) {
  const std::uint64_t h = HashState(prev, pcs.data(), pcs.size());
  const std::size_t mask = table_.size() - 1;
  std::size_t i = h & mask;
  for (; table_[i] >= 0; i = (i + 1) & mask) {
    const State& s = states_[static_cast<std::size_t>(table_[i])];
    if (s.hash == h && s.prev == prev && s.size == pcs.size() &&
        std::equal(pcs.begin(), pcs.end(), arena_.begin() + s.begin)) {
      return table_[i];
    }
  }
  const std::size_t cost = sizeof(State) + pcs.size() * sizeof(std::uint16_t) +
                           width_ * sizeof(std::int32_t) + 2 * sizeof(std::int32_t);
  if (MemoryUsed() + cost > cache_bytes_) return kFull;
  const auto id = static_cast<std::int32_t>(states_.size());
  states_.push_back(State{static_cast<std::uint32_t>(arena_.size()),
                          static_cast<std::uint32_t>(pcs.size()), h, prev, -1});
  arena_.insert(arena_.end(), pcs.begin(), pcs.end());
  trans_.resize(trans_.size() + width_, kUnknown);
  table_[i] = id;
  if (states_.size() * 2 > table_.size()) Rehash(table_.size() * 2);
  return id;
}

bool RegexDfa::Closure(std::uint8_t prev, const std::uint16_t* pcs, std::size_t n, bool next_word,
                       bool at_end, std::uint64_t* steps) {
  const std::vector<RegexInst>& program = regex_->program();
  ++generation_;
  list_.clear();
  stack_.clear();
  for (std::size_t i = n; i > 0; --i) stack_.push_back(pcs[i - 1]);
  stack_.push_back(0);
  const bool prev_word = prev == kPrevWord;
  while (!stack_.empty()) {
    const std::uint32_t at = stack_.back();
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
        bool holds = false;
        switch (inst.a) {
          case kRegexBegin:
            holds = prev == kPrevStart;
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
        list_.push_back(at);
        break;
    }
  }
  return false;
}

std::int32_t RegexDfa::Transition(std::int32_t row, std::uint32_t cls, std::uint64_t* steps,
                                  std::uint64_t consumed) {
  const RegexAlphabet& alphabet = regex_->alphabet();
  const std::size_t id = static_cast<std::size_t>(row) / width_;
  const State state = states_[id];
  const bool next_word = word_boundaries_ && alphabet.word[cls] != 0;
  if (Closure(state.prev, arena_.data() + state.begin, state.size, next_word, false, steps)) {
    trans_[static_cast<std::size_t>(row) + cls] = kMatchNext;
    return kMatchNext;
  }
  const std::uint32_t rep = alphabet.representative[cls];
  next_.clear();
  for (std::uint32_t pc : list_) {
    if (RegexConsumes(regex_->program()[pc], regex_->classes(), rep)) {
      next_.push_back(static_cast<std::uint16_t>(pc + 1));
    }
  }
  if (!std::is_sorted(next_.begin(), next_.end())) std::sort(next_.begin(), next_.end());
  const std::uint8_t prev = next_word ? kPrevWord : kPrevOther;
  if (next_.empty() && anchored_) {
    trans_[static_cast<std::size_t>(row) + cls] = kDeadNext;
    return kDeadNext;
  }
  std::int32_t target = Intern(prev, next_);
  if (target != kFull) {
    trans_[static_cast<std::size_t>(row) + cls] = target * static_cast<std::int32_t>(width_);
    return target * static_cast<std::int32_t>(width_);
  }
  // The cache is full: clear it, unless it is thrashing, and go on from the target state.
  if (resets_ > 0 && consumed - reset_at_ < 10 * states_.size()) {
    gave_up_ = true;
    return kGaveUpNext;
  }
  ++resets_;
  reset_at_ = consumed;
  std::vector<std::uint16_t> keep = next_;
  Reset();
  target = gave_up_ ? kFull : Intern(prev, keep);
  if (target == kFull) {
    gave_up_ = true;
    return kGaveUpNext;
  }
  return target * static_cast<std::int32_t>(width_);
}

bool RegexDfa::MatchesAtEnd(std::int32_t row, std::uint64_t* steps) {
  State& state = states_[static_cast<std::size_t>(row) / width_];
  if (state.at_end < 0) {
    const State copy = state;
    const bool match =
        Closure(copy.prev, arena_.data() + copy.begin, copy.size, false, true, steps);
    states_[static_cast<std::size_t>(row) / width_].at_end = match ? 1 : 0;
  }
  return states_[static_cast<std::size_t>(row) / width_].at_end == 1;
}

RegexDfa::Outcome RegexDfa::Search(std::string_view text, std::uint64_t* steps,
                                   std::uint64_t budget) {
  if (gave_up_) return Outcome::kGaveUp;
  const RegexAlphabet& alphabet = regex_->alphabet();
  const auto* data = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  const std::int32_t* trans = trans_.data();
  std::int32_t row = 0;  // the start state is always state 0
  std::size_t i = 0;
  auto finish = [&](Outcome outcome) {
    *steps += i;
    consumed_ += i;
    return outcome;
  };
  while (i < n) {
    const unsigned char b = data[i];
    std::uint32_t cls;
    std::size_t len = 1;
    if (b < 0x80) {
      cls = alphabet.ascii[b];
    } else {
      cls = alphabet.ClassOfNonAscii(RegexDecodeAt(text, i, &len));
    }
    std::int32_t next = trans[row + cls];
    if (next < 0) {
      if (next == kUnknown) {
        if (*steps + i > budget) return finish(Outcome::kOutOfBudget);
        next = Transition(row, cls, steps, consumed_ + i);
        trans = trans_.data();
      }
      if (next == kMatchNext) return finish(Outcome::kMatch);
      if (next == kDeadNext) return finish(Outcome::kNoMatch);
      if (next == kGaveUpNext) return finish(Outcome::kGaveUp);
    }
    row = next;
    i += len;
  }
  finish(Outcome::kNoMatch);
  return MatchesAtEnd(row, steps) ? Outcome::kMatch : Outcome::kNoMatch;
}

}  // namespace agentctx
