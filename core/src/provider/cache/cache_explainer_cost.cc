// SPDX-License-Identifier: MIT
// Cache explainer, off the Responses step path (see cache_explainer.h): Anthropic's
// breakpoint rule (steps 4–5), the reported usage and the summary with its cost. Compiled -Oz
// in the Embind build (cmake/Emscripten.cmake).
#include <algorithm>
#include <utility>

#include "provider/cache/cache_explainer.h"

namespace agentctx {
namespace {

// Anthropic looks back 20 blocks from each mark; positions count the tools mark as 0, the system
// mark as 1 and a mark after n items as 1 + n (an item is at least one block).
constexpr std::size_t kLookbackBlocks = 20;

std::size_t MarkPosition(const CacheMark& m) { return m.tools_only ? 0 : 1 + m.items; }

bool Reachable(const CacheMark& written, const std::vector<CacheMark>& marks) {
  const std::size_t at = MarkPosition(written);
  for (const CacheMark& m : marks) {
    const std::size_t from = MarkPosition(m);
    if (from >= at && from - at < kLookbackBlocks) return true;
  }
  return false;
}
JsonValue Num(std::uint64_t v) { return JsonValue::Int(static_cast<std::int64_t>(v)); }

}  // namespace

void CacheExplainer::Predict(const PromptSegments& prompt, bool same_model,
                             std::uint64_t raw_shared, CacheReport* r) const {
  // Steps 4–5 (Anthropic): reads from the previous request's marks, writes up to this one's.
  const BreakpointRule& rule = *prompt.breakpoints;
  std::uint64_t read = 0, ideal = 0;
  if (has_previous_) {
    const bool tools_intact =
        prev_segments_.size() > 1 && prev_segments_[1].bytes == prompt.tools_bytes;
    const std::int64_t gap = rule.now_ms - prev_now_ms_;
    for (const StoredMark& stored : prev_marks_) {
      const CacheMark& m = stored.mark;
      if (m.tokens < rule.min_cacheable_tokens || gap > m.ttl_ms || !Reachable(m, rule.marks)) {
        continue;
      }
      ideal = std::max(ideal, m.tokens);
      const bool intact = m.tools_only ? tools_intact : raw_shared >= stored.prefix_bytes;
      if (same_model && intact) read = std::max(read, m.tokens);
    }
  }
  std::uint64_t top = 0, top_1h = 0;
  for (const CacheMark& m : rule.marks) {
    if (m.tokens < rule.min_cacheable_tokens) continue;
    top = std::max(top, m.tokens);
    if (m.ttl_ms > kAnthropicFiveMinuteTtlMs) top_1h = std::max(top_1h, m.tokens);
  }
  r->breakpoints = true;
  r->predicted_cached_tokens = std::min(read, r->prompt_tokens);
  r->ideal_cached_tokens = std::min(ideal, r->prompt_tokens);
  r->predicted_cache_write_tokens = top > read ? top - read : 0;
  r->predicted_cache_write_1h_tokens = top_1h > read ? top_1h - read : 0;
}
void CacheExplainer::StoreMarks(const PromptSegments& prompt) {
  prev_marks_.clear();
  if (prompt.breakpoints == nullptr) return;
  prev_now_ms_ = prompt.breakpoints->now_ms;
  const std::uint64_t head = prompt.instructions_bytes.size() + prompt.tools_bytes.size();
  for (const CacheMark& m : prompt.breakpoints->marks) {
    std::uint64_t bytes = head;
    for (std::size_t i = 0; i < m.items && i < prompt.items.size(); ++i) {
      bytes += prompt.items[i].bytes.size();
    }
    prev_marks_.push_back(StoredMark{m, bytes});
  }
}

void CacheExplainer::NoteReportedUsage(std::string_view request_id, const ReportedUsage& usage) {
  // The request reported is almost always the latest one: search from the back.
  for (auto it = costs_.rbegin(); it != costs_.rend(); ++it) {
    if (it->request_id == request_id) {
      it->reported = usage;
      return;
    }
  }
  RequestCost& unknown = costs_.emplace_back();  // not explained here: priced by OpenAI's rule
  unknown.request_id = std::string(request_id);
  unknown.reported = usage;
}

std::uint64_t CacheExplainer::NoteContextEdit(std::string_view request_id,
                                              std::uint64_t reported_cached_tokens) {
  for (auto it = costs_.rbegin(); it != costs_.rend(); ++it) {
    if (it->request_id != request_id) continue;
    const std::uint64_t lost = it->predicted_cached > reported_cached_tokens
                                   ? it->predicted_cached - reported_cached_tokens
                                   : 0;
    if (lost > 0) totals_.AddBreak("context_edited", lost);
    return lost;
  }
  return 0;
}

JsonValue CacheExplainer::SummaryCostJson(const TypedPrices& typed, CachePricing current) const {
  const CachePrices openai = PricesFor(CachePricing::kOpenAi, typed);
  const CachePrices openai_writes = PricesFor(CachePricing::kOpenAi, typed, true);
  const CachePrices anthropic = PricesFor(CachePricing::kAnthropic, typed);
  bool any_openai = false;
  bool any_anthropic = false;
  bool any_openai_writes = false;
  std::uint64_t predicted = 0, input = 0, output = 0;
  ReportedUsage reported;
  for (const RequestCost& c : costs_) {
    const CachePrices& p = c.breakpoints ? anthropic : c.write_premium ? openai_writes : openai;
    any_openai = any_openai || !c.breakpoints;
    any_anthropic = any_anthropic || c.breakpoints;
    any_openai_writes = any_openai_writes || c.write_premium;
    predicted += InputCostPicoUsd(CacheTokens{c.prompt_tokens, c.predicted_cached,
                                              c.predicted_write, c.predicted_write_1h, 0},
                                  p);
    if (!c.reported) continue;
    const ReportedUsage& u = *c.reported;
    reported.input_tokens += u.input_tokens;
    reported.cached_tokens += u.cached_tokens;
    reported.cache_write_tokens += u.cache_write_tokens;
    reported.output_tokens += u.output_tokens;
    // The 1 h writes as the provider reported them; a usage that does not split its writes by
    // TTL is priced by the predicted 1 h share.
    const std::uint64_t write_1h = u.cache_write_1h_tokens.value_or(c.predicted_write_1h);
    input += InputCostPicoUsd(CacheTokens{u.input_tokens, u.cached_tokens, u.cache_write_tokens,
                                          std::min(u.cache_write_tokens, write_1h), 0},
                              p);
    output += u.output_tokens * p.output;
  }
  // The rules the requests were priced by; before any request, the session's.
  const bool by_anthropic = costs_.empty() ? current == CachePricing::kAnthropic : any_anthropic;
  const bool by_openai = costs_.empty() ? current == CachePricing::kOpenAi : any_openai;
  JsonValue out = JsonValue::Object();
  out.Set("pricing", JsonValue::String(by_anthropic && by_openai ? "mixed"
                                       : by_anthropic            ? "anthropic"
                                                                 : "openai"));
  JsonValue prices = JsonValue::Object();
  prices.Set("input", UsdPerMillion(typed.input));
  if (by_openai) prices.Set("cached_input", UsdPerMillion(openai.cached));
  if (by_anthropic) {
    prices.Set("cache_read", UsdPerMillion(anthropic.cached));
    prices.Set("cache_write", UsdPerMillion(anthropic.write_5m));
    prices.Set("cache_write_1h", UsdPerMillion(anthropic.write_1h));
  } else if (any_openai_writes) {  // OpenAI's GPT-5.6+ writes
    prices.Set("cache_write", UsdPerMillion(openai_writes.write_5m));
  }
  prices.Set("output", UsdPerMillion(typed.output));
  out.Set("prices_per_million_usd", std::move(prices));
  out.Set("predicted_input_usd", UsdNumber(predicted));
  JsonValue r = JsonValue::Object();
  r.Set("input_tokens", Num(reported.input_tokens));
  r.Set("cached_tokens", Num(reported.cached_tokens));
  r.Set("cache_write_tokens", Num(reported.cache_write_tokens));
  r.Set("output_tokens", Num(reported.output_tokens));
  r.Set("input_usd", UsdNumber(input));
  r.Set("output_usd", UsdNumber(output));
  r.Set("total_usd", UsdNumber(input + output));
  out.Set("reported", std::move(r));
  return out;
}

JsonValue CacheExplainer::Summary(const TypedPrices* prices, CachePricing current) const {
  auto num = Num;
  std::uint64_t reported = 0, reported_write = 0;
  for (const RequestCost& c : costs_) {
    if (!c.reported) continue;
    reported += c.reported->cached_tokens;
    reported_write += c.reported->cache_write_tokens;
  }
  JsonValue out = JsonValue::Object();
  out.Set("requests", num(totals_.requests()));
  totals_.WriteBytes(&out);
  out.Set("predicted_cached_tokens", num(sum_predicted_));
  out.Set("ideal_cached_tokens", num(sum_ideal_));
  out.Set("reported_cached_tokens", num(reported));
  totals_.WriteReuseAndBreaks(&out);
  if (any_breakpoints_) {
    out.Set("predicted_cache_write_tokens", num(sum_write_));
    out.Set("predicted_cache_write_1h_tokens", num(sum_write_1h_));
    out.Set("reported_cache_write_tokens", num(reported_write));
  } else if (reported_write > 0) {  // OpenAI's GPT-5.6+ report their writes
    out.Set("reported_cache_write_tokens", num(reported_write));
  }
  if (prices != nullptr) out.Set("cost", SummaryCostJson(*prices, current));
  return out;
}

}  // namespace agentctx
