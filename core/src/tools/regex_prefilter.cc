// SPDX-License-Identifier: MIT
// The literal scanner of `grep`; see regex_prefilter.h.
#include "tools/regex_prefilter.h"

#include <algorithm>
#include <cstring>

#include "support/byte_scan.h"
#include "tools/regex_literals.h"

namespace agentctx {
namespace {

// Bytes from the most to the least frequent in source code and prose (roughly); a byte not
// listed is rarer than every listed one.
constexpr std::string_view kByFrequency =
    " e\nta\toinsrlcdhu.pm_f(),;g\"=y/b:w-*0'1{}v>2k<[]SETCAIRNLOxDP#Mj3F45&+q|zBU69H78!GW$KVY\\?"
    "%JX@Q^~`Z";

std::uint8_t Rarity(unsigned char b) {
  std::size_t at = kByFrequency.find(static_cast<char>(b));
  return at == std::string_view::npos ? 255 : static_cast<std::uint8_t>(at);
}

// The most frequent bytes of kByFrequency: a start byte among them makes skipping not pay.
constexpr std::uint8_t kCommonBytes = 12;

unsigned char Lower(unsigned char b) { return b >= 'A' && b <= 'Z' ? b + 32 : b; }

}  // namespace

std::unique_ptr<RegexPrefilter> RegexPrefilter::Build(const RegexLiteralSet& set) {
  if (set.literals.empty()) return nullptr;
  bool fold = false;
  for (const RegexLiteral& lit : set.literals) {
    if (lit.bytes.empty()) return nullptr;
    fold = fold || lit.fold;
  }
  std::unique_ptr<RegexPrefilter> p(new RegexPrefilter());
  p->exact_ = set.exact;
  if (set.literals.size() == 1 && !fold) {
    p->kind_ = Kind::kOneLiteral;
    p->needle_ = set.literals[0].bytes;
    for (std::size_t i = 0; i < p->needle_.size(); ++i) {
      if (Rarity(p->needle_[i]) > Rarity(p->needle_[p->rare_])) p->rare_ = i;
    }
    p->rare2_ = p->rare_ == 0 ? p->needle_.size() - 1 : 0;
    for (std::size_t i = 0; i < p->needle_.size(); ++i) {
      if (i != p->rare_ && Rarity(p->needle_[i]) > Rarity(p->needle_[p->rare2_])) p->rare2_ = i;
    }
    return p;
  }

  p->kind_ = Kind::kAhoCorasick;
  auto key = [fold](char c) {
    unsigned char b = static_cast<unsigned char>(c);
    return fold ? Lower(b) : b;
  };
  std::uint32_t width = 1;  // class 0: bytes no literal uses
  for (const RegexLiteral& lit : set.literals) {
    for (char c : lit.bytes) {
      if (p->byte_class_[key(c)] != 0) continue;
      if (width == 256) return nullptr;  // every byte value used: class 0 would be taken
      p->byte_class_[key(c)] = static_cast<std::uint8_t>(width++);
    }
  }
  if (fold) {
    for (unsigned char b = 'A'; b <= 'Z'; ++b) p->byte_class_[b] = p->byte_class_[b + 32];
  }
  p->width_ = width;
  p->skip_ = true;
  auto start = [&p](unsigned char b) {
    if (p->starts_[b] == 0 && p->start_count_ < 3) {
      if (p->start_count_ < 2) p->start_bytes_[p->start_count_] = static_cast<char>(b);
      ++p->start_count_;
    }
    p->starts_[b] = 1;
    p->skip_ = p->skip_ && Rarity(b) >= kCommonBytes;
  };
  for (const RegexLiteral& lit : set.literals) {
    const unsigned char first = key(lit.bytes[0]);
    start(first);
    if (fold && first >= 'a' && first <= 'z') start(static_cast<unsigned char>(first - 32));
  }

  // The trie (-1: no edge), then failure links turning it into a complete automaton. Its
  // states are at most one per literal byte, so its rows are reserved once, not regrown.
  std::size_t most_states = 1;
  for (const RegexLiteral& lit : set.literals) most_states += lit.bytes.size();
  most_states = std::min(most_states, kRegexMaxScannerCells / width + 1);
  std::vector<std::int32_t> delta(width, -1);
  delta.reserve(most_states * width);
  std::vector<std::uint8_t> accept(1, 0);
  accept.reserve(most_states);
  for (const RegexLiteral& lit : set.literals) {
    std::size_t s = 0;
    for (char c : lit.bytes) {
      std::size_t cell = s * width + p->byte_class_[key(c)];
      if (delta[cell] < 0) {
        if ((accept.size() + 1) * width > kRegexMaxScannerCells) return nullptr;
        delta[cell] = static_cast<std::int32_t>(accept.size());
        accept.push_back(0);
        delta.resize(accept.size() * width, -1);
      }
      s = static_cast<std::size_t>(delta[cell]);
    }
    accept[s] = 1;
  }
  const std::size_t states = accept.size();
  std::vector<std::uint32_t> fail(states, 0);
  std::vector<std::uint32_t> queue;
  queue.reserve(states);
  for (std::uint32_t c = 0; c < width; ++c) {
    if (delta[c] < 0) {
      delta[c] = 0;
    } else {
      queue.push_back(static_cast<std::uint32_t>(delta[c]));
    }
  }
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const std::uint32_t u = queue[head];
    for (std::uint32_t c = 0; c < width; ++c) {
      const std::int32_t t = delta[u * width + c];
      const std::int32_t via_fail = delta[fail[u] * width + c];
      if (t < 0) {
        delta[u * width + c] = via_fail;
      } else {
        fail[t] = static_cast<std::uint32_t>(via_fail);
        accept[t] = accept[t] | accept[fail[t]];
        queue.push_back(static_cast<std::uint32_t>(t));
      }
    }
  }

  // Renumber: accepting states last, so one comparison tells; rows hold offsets. The rows are
  // appended in their new order (no zero fill of a table about to be overwritten).
  std::vector<std::uint32_t> offset(states);  // old state -> its row's offset
  std::vector<std::uint32_t> order;           // new number -> old state
  order.reserve(states);
  for (std::size_t s = 0; s < states; ++s) {
    if (!accept[s]) order.push_back(static_cast<std::uint32_t>(s));
  }
  p->accept_from_ = static_cast<std::uint32_t>(order.size()) * width;
  for (std::size_t s = 0; s < states; ++s) {
    if (accept[s]) order.push_back(static_cast<std::uint32_t>(s));
  }
  for (std::size_t n = 0; n < states; ++n) offset[order[n]] = static_cast<std::uint32_t>(n) * width;
  p->delta_.reserve(states * width);
  for (std::uint32_t s : order) {
    const std::int32_t* row = delta.data() + static_cast<std::size_t>(s) * width;
    for (std::uint32_t c = 0; c < width; ++c) {
      p->delta_.push_back(offset[static_cast<std::size_t>(row[c])]);
    }
  }
  return p;
}

std::size_t RegexPrefilter::Find(std::string_view text, std::size_t from) const {
  return kind_ == Kind::kOneLiteral ? FindOne(text, from) : FindMany(text, from);
}

std::size_t RegexPrefilter::FindOne(std::string_view text, std::size_t from) const {
  const std::size_t n = needle_.size();
  if (from > text.size() || text.size() - from < n) return std::string_view::npos;
  if (n == 1) return FindByte(text, from, needle_[0]);
  // Candidates: the two rarest bytes of the needle in place; the rest is compared.
  for (std::size_t at = from;; ++at) {
    at = FindBytePair(text, at, needle_[rare_], rare_, needle_[rare2_], rare2_);
    if (at == std::string_view::npos || at > text.size() - n) return std::string_view::npos;
    if (std::memcmp(text.data() + at, needle_.data(), n) == 0) return at;
  }
}

std::size_t RegexPrefilter::FindMany(std::string_view text, std::size_t from) const {
  const unsigned char* data = reinterpret_cast<const unsigned char*>(text.data());
  const std::uint32_t* delta = delta_.data();
  const std::uint8_t* classes = byte_class_.data();
  const std::uint32_t accept_from = accept_from_;
  const std::size_t n = text.size();
  std::uint32_t s = 0;
  if (!skip_) {
    for (std::size_t i = from; i < n; ++i) {
      s = delta[s + classes[data[i]]];
      if (s >= accept_from) return i;
    }
    return std::string_view::npos;
  }
  const std::uint8_t* starts = starts_.data();
  const bool scan = start_count_ <= 2;
  for (std::size_t i = from; i < n; ++i) {
    if (s == 0) {
      if (scan) {
        i = FindEitherByte(text, i, start_bytes_[0], start_bytes_[start_count_ - 1]);
        if (i == std::string_view::npos) break;
      } else {
        while (i < n && starts[data[i]] == 0) ++i;
        if (i == n) break;
      }
    }
    s = delta[s + classes[data[i]]];
    if (s >= accept_from) return i;
  }
  return std::string_view::npos;
}

}  // namespace agentctx
