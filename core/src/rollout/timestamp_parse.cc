// SPDX-License-Identifier: MIT
// ParseTimestamp; see timestamp_parse.h.
#include "rollout/timestamp_parse.h"

namespace agentctx {
namespace {

// The decimal value of text[at, at + n), or -1 when a character is not a digit.
std::int64_t Digits(std::string_view text, std::size_t at, std::size_t n) {
  std::int64_t v = 0;
  for (std::size_t i = at; i < at + n; ++i) {
    if (text[i] < '0' || text[i] > '9') return -1;
    v = v * 10 + (text[i] - '0');
  }
  return v;
}

bool IsLeap(std::int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

}  // namespace

std::optional<std::int64_t> ParseTimestamp(std::string_view text) {
  // 0123456789012345678901234
  // YYYY-MM-DDThh:mm:ss.mmmZ
  if (text.size() != 24 || text[4] != '-' || text[7] != '-' || text[10] != 'T' || text[13] != ':' ||
      text[16] != ':' || text[19] != '.' || text[23] != 'Z') {
    return std::nullopt;
  }
  const std::int64_t y = Digits(text, 0, 4), m = Digits(text, 5, 2), d = Digits(text, 8, 2);
  const std::int64_t hh = Digits(text, 11, 2), mm = Digits(text, 14, 2);
  const std::int64_t ss = Digits(text, 17, 2), ms = Digits(text, 20, 3);
  if (y < 0 || m < 1 || m > 12 || d < 1 || hh < 0 || hh > 23 || mm < 0 || mm > 59 || ss < 0 ||
      ss > 59 || ms < 0) {
    return std::nullopt;
  }
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const std::int64_t month_days = kDays[m - 1] + (m == 2 && IsLeap(y) ? 1 : 0);
  if (d > month_days) return std::nullopt;
  // days_from_civil (Howard Hinnant), for years >= 0.
  const std::int64_t yy = m <= 2 ? y - 1 : y;
  const std::int64_t era = (yy >= 0 ? yy : yy - 399) / 400;
  const std::int64_t yoe = yy - era * 400;                                   // [0, 399]
  const std::int64_t doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;  // [0, 365]
  const std::int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;            // [0, 146096]
  const std::int64_t days = era * 146097 + doe - 719468;
  return days * 86400000 + hh * 3600000 + mm * 60000 + ss * 1000 + ms;
}

}  // namespace agentctx
