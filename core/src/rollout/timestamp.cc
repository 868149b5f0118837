// SPDX-License-Identifier: MIT
// FormatTimestamp (SPEC §13.1); see timestamp.h.
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

}  // namespace agentctx
