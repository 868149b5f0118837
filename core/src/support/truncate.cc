// SPDX-License-Identifier: MIT
// Middle truncation; see truncate.h.
#include "support/truncate.h"

#include "support/utf8.h"

namespace agentctx {

std::string TruncateMiddle(std::string_view text, std::uint64_t budget_bytes, TruncationMode mode) {
  const std::uint64_t size = text.size();
  if (size <= budget_bytes) return std::string(text);
  const std::size_t left_target = static_cast<std::size_t>(budget_bytes / 2);
  const std::size_t right_target = static_cast<std::size_t>(budget_bytes - left_target);
  const std::size_t left_end = FloorCharBoundary(text, left_target);
  const std::size_t right_start = CeilCharBoundary(text, text.size() - right_target);
  std::string_view removed = text.substr(left_end, right_start - left_end);
  std::uint64_t n = 0;
  const char* unit = nullptr;
  if (mode == TruncationMode::kBytes) {
    n = CountChars(removed);
    unit = " chars truncated\xE2\x80\xA6";
  } else {
    n = (static_cast<std::uint64_t>(removed.size()) + 3) / 4;
    unit = " tokens truncated\xE2\x80\xA6";
  }
  std::string out;
  out.reserve(left_end + (text.size() - right_start) + 40);
  out.append(text.substr(0, left_end));
  out.append("\xE2\x80\xA6");
  out.append(std::to_string(n));
  out.append(unit);
  out.append(text.substr(right_start));
  return out;
}

}  // namespace agentctx
