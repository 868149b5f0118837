// SPDX-License-Identifier: MIT
// FormatTimestamp and ParseTimestamp; see timestamp.h.
#include "rollout/timestamp.h"

namespace agentctx {
namespace {

std::int64_t FloorDiv(std::int64_t a, std::int64_t b) {
  std::int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

void AppendPadded(std::string* out, std::int64_t value, int width) {
  if (value < 0) {
    out->push_back('-');
    value = -value;
  }
  std::string digits = std::to_string(value);
  for (int i = static_cast<int>(digits.size()); i < width; ++i) out->push_back('0');
  out->append(digits);
}

}  // namespace

std::string FormatTimestamp(std::int64_t now_ms) {
  const std::int64_t kMsPerDay = 86400000;
  std::int64_t days = FloorDiv(now_ms, kMsPerDay);
  std::int64_t ms_of_day = now_ms - days * kMsPerDay;

  // civil_from_days: days since 1970-01-01 → (year, month, day), proleptic Gregorian.
  std::int64_t z = days + 719468;
  std::int64_t era = FloorDiv(z, 146097);
  std::int64_t doe = z - era * 146097;                                       // [0, 146096]
  std::int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;  // [0, 399]
  std::int64_t year = yoe + era * 400;
  std::int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);  // [0, 365]
  std::int64_t mp = (5 * doy + 2) / 153;                       // [0, 11], March-based
  std::int64_t day = doy - (153 * mp + 2) / 5 + 1;             // [1, 31]
  std::int64_t month = mp < 10 ? mp + 3 : mp - 9;              // [1, 12]
  if (month <= 2) ++year;

  std::string out;
  out.reserve(24);
  AppendPadded(&out, year, 4);
  out.push_back('-');
  AppendPadded(&out, month, 2);
  out.push_back('-');
  AppendPadded(&out, day, 2);
  out.push_back('T');
  AppendPadded(&out, ms_of_day / 3600000, 2);
  out.push_back(':');
  AppendPadded(&out, ms_of_day / 60000 % 60, 2);
  out.push_back(':');
  AppendPadded(&out, ms_of_day / 1000 % 60, 2);
  out.push_back('.');
  AppendPadded(&out, ms_of_day % 1000, 3);
  out.push_back('Z');
  return out;
}

namespace {

// The decimal value of text[pos, pos + n), or -1 when a byte is not a digit.
std::int64_t Digits(std::string_view text, std::size_t pos, std::size_t n) {
  std::int64_t v = 0;
  for (std::size_t i = pos; i < pos + n; ++i) {
    if (text[i] < '0' || text[i] > '9') return -1;
    v = v * 10 + (text[i] - '0');
  }
  return v;
}

}  // namespace

std::optional<std::int64_t> ParseTimestamp(std::string_view text) {
  // YYYY-MM-DDThh:mm:ss then optional .fraction, then Z.
  if (text.size() < 20 || text[4] != '-' || text[7] != '-' || text[10] != 'T' || text[13] != ':' ||
      text[16] != ':' || text.back() != 'Z') {
    return std::nullopt;
  }
  std::int64_t year = Digits(text, 0, 4), month = Digits(text, 5, 2), day = Digits(text, 8, 2);
  std::int64_t hour = Digits(text, 11, 2), minute = Digits(text, 14, 2);
  std::int64_t second = Digits(text, 17, 2);
  if (year < 0 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 || minute < 0 ||
      minute > 59 || second < 0 || second > 59) {
    return std::nullopt;
  }
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  constexpr std::int64_t kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (day > kDays[month - 1] + (month == 2 && leap ? 1 : 0)) return std::nullopt;
  std::int64_t ms = 0;
  std::size_t pos = 19;
  if (text[pos] == '.') {
    std::size_t end = text.size() - 1;
    if (end == pos + 1) return std::nullopt;  // a fraction needs digits
    for (std::size_t i = pos + 1; i < end; ++i) {
      if (text[i] < '0' || text[i] > '9') return std::nullopt;
    }
    std::size_t take = end - pos - 1 < 3 ? end - pos - 1 : 3;
    ms = Digits(text, pos + 1, take);
    for (std::size_t i = take; i < 3; ++i) ms *= 10;
    pos = end;
  }
  if (pos != text.size() - 1) return std::nullopt;
  // days_from_civil (proleptic Gregorian).
  std::int64_t y = month <= 2 ? year - 1 : year;
  std::int64_t era = FloorDiv(y, 400);
  std::int64_t yoe = y - era * 400;
  std::int64_t mp = month > 2 ? month - 3 : month + 9;
  std::int64_t doy = (153 * mp + 2) / 5 + day - 1;
  std::int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  std::int64_t days = era * 146097 + doe - 719468;
  return ((days * 24 + hour) * 60 + minute) * 60000 + second * 1000 + ms;
}

}  // namespace agentctx
