// SPDX-License-Identifier: MIT
// Stall guard; see stall_guard.h.
#include "compaction/stall_guard.h"

namespace agentctx {

std::int64_t FreedBp(std::uint64_t tokens_before, std::uint64_t tokens_after) {
  if (tokens_before == 0) return 0;
  if (tokens_after <= tokens_before) {
    return static_cast<std::int64_t>(10000 * (tokens_before - tokens_after) / tokens_before);
  }
  // Negative: floor toward −∞.
  std::uint64_t grown = 10000 * (tokens_after - tokens_before);
  std::uint64_t q = grown / tokens_before + (grown % tokens_before != 0);
  return -static_cast<std::int64_t>(q);
}

std::string FormatBpAsPercent(std::int64_t bp) {
  std::string out;
  std::uint64_t magnitude = 0;
  if (bp < 0) {
    out.push_back('-');
    magnitude = static_cast<std::uint64_t>(-(bp + 1)) + 1;
  } else {
    magnitude = static_cast<std::uint64_t>(bp);
  }
  out += std::to_string(magnitude / 100);
  out.push_back('.');
  std::uint64_t cents = magnitude % 100;
  if (cents < 10) out.push_back('0');
  out += std::to_string(cents);
  return out;
}

std::string CompactionStalledMessage(std::int64_t freed_bp, std::uint64_t tokens_before,
                                     std::uint64_t tokens_after) {
  return "Compaction freed only " + FormatBpAsPercent(freed_bp) + "% of the context (" +
         std::to_string(tokens_before) + " \xE2\x86\x92 " + std::to_string(tokens_after) +
         " tokens); automatic compaction is paused.";
}

}  // namespace agentctx
