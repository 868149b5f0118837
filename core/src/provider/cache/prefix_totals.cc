// SPDX-License-Identifier: MIT
// PrefixTotals; see prefix_totals.h.
#include "provider/cache/prefix_totals.h"

#include <algorithm>

#include "provider/cache/cache_explainer.h"

namespace agentctx {
namespace {

JsonValue Num(std::uint64_t v) { return JsonValue::Int(static_cast<std::int64_t>(v)); }

}  // namespace

void PrefixTotals::Add(const CacheReport& report, std::uint64_t lost_tokens) {
  requests_ += 1;
  prompt_bytes_ += report.prompt_bytes;
  shared_ += report.shared_prefix_bytes;
  max_shared_ += report.max_shared_prefix_bytes;
  max_shared_clamped_ += std::min(report.max_shared_prefix_bytes, report.prompt_bytes);
  if (report.cache_break) {
    BreakTotals& totals = breaks_[report.cache_break->reason];
    totals.count += 1;
    totals.lost_tokens += lost_tokens;
  }
}

void PrefixTotals::AddBreak(std::string_view reason, std::uint64_t lost_tokens) {
  auto it = breaks_.find(reason);
  if (it == breaks_.end()) it = breaks_.emplace(std::string(reason), BreakTotals{}).first;
  it->second.count += 1;
  it->second.lost_tokens += lost_tokens;
}

void PrefixTotals::WriteBytes(JsonValue* out) const {
  out->Set("prompt_bytes", Num(prompt_bytes_));
  out->Set("shared_prefix_bytes", Num(shared_));
  out->Set("max_shared_prefix_bytes", Num(max_shared_));
}

void PrefixTotals::WriteReuseAndBreaks(JsonValue* out) const {
  out->Set("reuse_bp", Num(BasisPoints(shared_, prompt_bytes_)));
  out->Set("max_reuse_bp", Num(BasisPoints(max_shared_clamped_, prompt_bytes_)));
  JsonValue breaks = JsonValue::Object();
  for (const auto& [reason, totals] : breaks_) {  // std::map: sorted by reason
    JsonValue entry = JsonValue::Object();
    entry.Set("count", Num(totals.count));
    entry.Set("lost_tokens", Num(totals.lost_tokens));
    breaks.Set(reason, std::move(entry));
  }
  out->Set("breaks", std::move(breaks));
}

}  // namespace agentctx
