// SPDX-License-Identifier: MIT
// The alphabet of a `grep` regular expression; see regex_alphabet.h.
// Algorithm: cut the code points [0, 0x10FFFF] at every range boundary of every predicate (each
// distinct kChar code point, each kClass class, LF for kAny, the word characters when `\b` is
// used, and 0x80), giving intervals; then refine a labelling of the intervals predicate by
// predicate (the intervals a predicate covers move to a fresh label per old label), which leaves
// intervals with equal labels exactly when every predicate treats them alike.
#include "tools/regex_alphabet.h"

#include <algorithm>

namespace agentctx {
namespace {

constexpr std::uint32_t kMaxCodePoint = 0x10FFFF;

using Range = std::pair<std::uint32_t, std::uint32_t>;

constexpr Range kWordRanges[] = {{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}};
constexpr std::size_t kWordRangeCount = sizeof(kWordRanges) / sizeof(kWordRanges[0]);

class Refiner {
 public:
  explicit Refiner(std::vector<std::uint32_t> cuts)
      : cuts_(std::move(cuts)), label_(cuts_.size()) {}

  // Splits every label by whether its intervals lie in `ranges` (all ranges of one predicate).
  void Refine(const Range* ranges, std::size_t n) {
    ++stamp_;
    for (std::size_t r = 0; r < n; ++r) {
      std::size_t first = Interval(ranges[r].first);
      std::size_t last = Interval(ranges[r].second);
      for (std::size_t i = first; i <= last; ++i) {
        std::uint32_t old = label_[i];
        if (remap_stamp_[old] != stamp_) {
          remap_stamp_[old] = stamp_;
          remap_[old] = labels_++;
          remap_.push_back(0);
          remap_stamp_.push_back(0);
        }
        label_[i] = remap_[old];
      }
    }
  }

  const std::vector<std::uint32_t>& cuts() const { return cuts_; }
  const std::vector<std::uint32_t>& labels() const { return label_; }

 private:
  // The interval holding code point c.
  std::size_t Interval(std::uint32_t c) const {
    return static_cast<std::size_t>(std::upper_bound(cuts_.begin(), cuts_.end(), c) -
                                    cuts_.begin()) -
           1;
  }

  std::vector<std::uint32_t> cuts_;
  std::vector<std::uint32_t> label_;
  std::vector<std::uint32_t> remap_ = {0};
  std::vector<std::uint64_t> remap_stamp_ = {0};
  std::uint32_t labels_ = 1;
  std::uint64_t stamp_ = 0;
};

}  // namespace

std::uint32_t RegexAlphabet::ClassOfNonAscii(std::uint32_t c) const {
  auto it = std::upper_bound(starts.begin(), starts.end(), c);
  return interval_class[static_cast<std::size_t>(it - starts.begin()) - 1];
}

RegexAlphabet RegexAlphabet::Build(const std::vector<RegexInst>& program,
                                   const std::vector<RegexClass>& classes, bool word_boundaries) {
  std::vector<std::uint32_t> chars;
  std::vector<bool> class_used(classes.size(), false);
  bool any = false;
  for (const RegexInst& inst : program) {
    if (inst.op == RegexInst::Op::kChar) chars.push_back(inst.a);
    if (inst.op == RegexInst::Op::kClass) class_used[inst.a] = true;
    if (inst.op == RegexInst::Op::kAny) any = true;
  }
  std::sort(chars.begin(), chars.end());
  chars.erase(std::unique(chars.begin(), chars.end()), chars.end());

  std::vector<std::uint32_t> cuts = {0, 0x80};
  auto cut = [&cuts](const Range& r) {
    cuts.push_back(r.first);
    if (r.second < kMaxCodePoint) cuts.push_back(r.second + 1);
  };
  for (std::uint32_t c : chars) cut({c, c});
  for (std::size_t i = 0; i < classes.size(); ++i) {
    if (!class_used[i]) continue;
    for (const Range& r : classes[i].ranges) cut(r);
  }
  if (any) cut({'\n', '\n'});
  if (word_boundaries) {
    for (const Range& r : kWordRanges) cut(r);
  }
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());

  Refiner refiner(std::move(cuts));
  const Range ascii_range{0, 0x7F};
  refiner.Refine(&ascii_range, 1);
  for (std::uint32_t c : chars) {
    const Range r{c, c};
    refiner.Refine(&r, 1);
  }
  for (std::size_t i = 0; i < classes.size(); ++i) {
    if (class_used[i]) refiner.Refine(classes[i].ranges.data(), classes[i].ranges.size());
  }
  if (any) {
    const Range lf{'\n', '\n'};
    refiner.Refine(&lf, 1);
  }
  if (word_boundaries) refiner.Refine(kWordRanges, kWordRangeCount);

  // Number the labels in order of first appearance.
  RegexAlphabet out;
  out.starts = refiner.cuts();
  std::vector<std::uint32_t> number;
  out.interval_class.reserve(out.starts.size());
  for (std::size_t i = 0; i < out.starts.size(); ++i) {
    std::uint32_t label = refiner.labels()[i];
    if (label >= number.size()) number.resize(label + 1, UINT32_MAX);
    if (number[label] == UINT32_MAX) {
      number[label] = out.size++;
      out.representative.push_back(out.starts[i]);
      out.word.push_back(RegexIsWordChar(out.starts[i]) ? 1 : 0);
    }
    out.interval_class.push_back(static_cast<std::uint16_t>(number[label]));
  }
  for (std::uint32_t c = 0; c < 128; ++c)
    out.ascii[c] = static_cast<std::uint16_t>(out.ClassOfNonAscii(c));
  return out;
}

}  // namespace agentctx
