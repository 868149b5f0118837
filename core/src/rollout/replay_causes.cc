// SPDX-License-Identifier: MIT
// Replay causes and costs; see replay_causes.h.
#include "rollout/replay_causes.h"

#include <map>
#include <utility>

#include "provider/cache/cache_diagnosis.h"
#include "provider/cache/miss_cause.h"
#include "rollout/timestamp.h"

namespace agentctx {
namespace {

constexpr std::size_t kNewInput = 0;

std::size_t CauseIndex(std::string_view name) {
  for (std::size_t i = 0; i < kReplayCauses.size(); ++i) {
    if (kReplayCauses[i] == name) return i;
  }
  return kReplayCauses.size() - 1;  // an unknown break reason counts as a server miss
}

std::size_t CauseIndex(ReplayCause cause) { return static_cast<std::size_t>(cause); }

// The provider's cacheable part of a repeated prefix of `t` tokens: whole blocks of 128 from 1024,
// or all of it for a cache that reads up to its marks.
std::uint64_t CacheableBy(CachePricing rule, std::uint64_t t) {
  return CachesWholePrefix(rule) ? t : Cacheable(t);
}

// The provider's minimum for `model`.
std::uint64_t MinimumBy(CachePricing rule, std::string_view model) {
  return MinCacheableTokensOf(rule, model);
}

JsonValue Num(std::uint64_t v) { return JsonValue::Int(static_cast<std::int64_t>(v)); }

JsonValue OptNum(const std::optional<std::uint64_t>& v) { return v ? Num(*v) : JsonValue(); }

std::uint64_t Min(std::uint64_t a, std::uint64_t b) { return a < b ? a : b; }

// Picodollars of one request's usage: cached, uncached and output tokens at their prices, and
// the cache writes' premium over the input price.
struct Cost {
  std::uint64_t cached = 0, uncached = 0, write_extra = 0, output = 0;
  std::uint64_t total() const { return cached + uncached + write_extra + output; }
};

std::uint64_t WritesOf(const ReplayUsage& u) {
  std::uint64_t cached = Min(u.cached, u.input);
  return Min(u.cache_write, u.input - cached);
}

// Of the writes, those recorded as 1 h writes (priced write_1h); the rest are 5 min writes.
std::uint64_t OneHourWritesOf(const ReplayUsage& u) { return Min(u.cache_write_1h, WritesOf(u)); }

Cost CostOf(const ReplayUsage& u, const CachePrices& p) {
  std::uint64_t cached = Min(u.cached, u.input);
  std::uint64_t premium_5m = p.write_5m > p.input ? p.write_5m - p.input : 0;
  std::uint64_t premium_1h = p.write_1h > p.input ? p.write_1h - p.input : 0;
  std::uint64_t one_hour = OneHourWritesOf(u);
  return Cost{cached * p.cached, (u.input - cached) * p.input,
              (WritesOf(u) - one_hour) * premium_5m + one_hour * premium_1h, u.output * p.output};
}

JsonValue CausesJson(const std::array<std::uint64_t, kReplayCauses.size()>& by_cause,
                     std::uint64_t scale, bool usd) {
  JsonValue out = JsonValue::Object();
  for (std::size_t i = 0; i < kReplayCauses.size(); ++i) {
    if (by_cause[i] == 0) continue;
    out.Set(kReplayCauses[i], usd ? UsdNumber(by_cause[i] * scale) : Num(by_cause[i]));
  }
  return out;
}

}  // namespace

ReplayPricing ResolveReplayPricing(const ReplayOptions& options, bool usage_reports_cache_writes,
                                   bool openai_write_model) {
  ReplayPricing out;
  if (options.provider) {
    out.rule = CachePricingFor(*options.provider);
  } else if (usage_reports_cache_writes && !openai_write_model) {
    out.rule = kWriteBillingPricing;
  }
  // Under OpenAI's rule only the models that bill writes (GPT-5.6+) report them.
  out.prices = PricesFor(out.rule, options.prices, usage_reports_cache_writes);
  // OpenAI bills (and reports) writes for its GPT-5.6+ models only.
  out.bills_writes =
      BillsCacheWrites(out.rule) || (usage_reports_cache_writes && openai_write_model);
  return out;
}

void AttributeCauses(const ReplayOptions& options, CachePricing rule,
                     std::vector<ReplayRequest>* requests) {
  const ReplayRequest* prev = nullptr;
  for (ReplayRequest& r : *requests) {
    if (!r.usage) continue;
    const ReplayUsage& u = *r.usage;
    std::uint64_t cached = Min(u.cached, u.input);
    std::uint64_t uncached = u.input - cached;
    if (prev == nullptr) {
      // Step 1: the first request repeats nothing.
      r.new_input = uncached;
      r.ideal_tokens = 0;
      r.predicted_tokens = 0;
    } else {
      // Step 2.
      std::uint64_t prev_input = prev->usage->input;
      std::uint64_t raw = Min(prev_input, u.input);
      bool below = raw < MinimumBy(rule, r.model);
      std::uint64_t ideal = below ? raw : CacheableBy(rule, raw);
      r.lost = ideal > cached ? ideal - cached : 0;
      r.new_input = uncached - r.lost;
      r.ideal_tokens = ideal;
      r.predicted_tokens = ideal;
      if (r.sent_ms && prev->done_ms) r.gap_ms = *r.sent_ms - *prev->done_ms;
      // Step 3: the client-side share.
      std::optional<std::size_t> client;
      if (r.reconstructed && r.report.cache_break) {
        const CacheBreak& b = *r.report.cache_break;
        std::uint64_t after = prev_input;
        std::uint64_t prev_bytes = r.report.max_shared_prefix_bytes;
        bool namespace_change = IsNamespaceChange(b.reason);
        if (!namespace_change && prev_bytes > 0) {
          std::uint64_t tail = prev_bytes - Min(r.report.shared_prefix_bytes, prev_bytes);
          after = prev_input * tail / prev_bytes;  // ≤ 10¹⁶ for any real session
        }
        std::uint64_t before = Min(prev_input - Min(after, prev_input), u.input);
        std::uint64_t expected = below ? before : CacheableBy(rule, before);
        if (expected > ideal) expected = ideal;
        r.predicted_tokens = expected;
        // Below the minimum nothing was cacheable whatever the client sent (step 4).
        r.client_lost = below ? 0 : Min(r.lost, ideal - expected);
        client = CauseIndex(b.reason);
        r.by_cause[*client] += r.client_lost;
        if (b.reason == "provider_changed") {
          // Another provider's cache: nothing was readable there (best possible 0).
          r.ideal_tokens = 0;
          r.predicted_tokens = 0;
        }
      }
      // Step 4: the rest, by the rule every reader of usage shares (miss_cause.h).
      std::uint64_t rest = r.lost - r.client_lost;
      if (rest > 0) {
        UnexplainedMiss miss;
        miss.tokens = rest;
        miss.below_minimum = below;
        miss.gap_ms = r.gap_ms;
        miss.ttl_ms = options.ttl_ms;
        miss.context_edited = r.context_edited;
        miss.block_tokens = CacheBlockTokens(rule);
        r.by_cause[CauseIndex(ProviderSideCause(miss))] += rest;
      }
    }
    r.by_cause[kNewInput] += r.new_input;
    // Step 5.
    std::optional<std::size_t> best;
    for (std::size_t i = 1; i < kReplayCauses.size(); ++i) {
      if (r.by_cause[i] > 0 && (!best || r.by_cause[i] > r.by_cause[*best])) best = i;
    }
    if (!best && uncached > 0) best = kNewInput;
    r.cause = best;
    prev = &r;
  }
}

JsonValue ReplayRequestJson(const ReplayRequest& r, const ReplayPricing& pricing) {
  const bool bills_writes = pricing.bills_writes;
  JsonValue out = JsonValue::Object();
  out.Set("request_id", JsonValue::String(r.request_id));
  out.Set("line", Num(r.line));
  std::optional<std::int64_t> time = r.sent_ms ? r.sent_ms : r.done_ms;
  out.Set("time", time ? JsonValue::String(FormatTimestamp(*time)) : JsonValue());
  out.Set("model", JsonValue::String(r.model));
  out.Set("reconstructed", JsonValue::Bool(r.reconstructed));
  out.Set("after_compaction", JsonValue::Bool(r.compaction_before));
  if (r.reconstructed) {
    const CacheReport& c = r.report;
    out.Set("input_items", Num(r.input_items));
    out.Set("prompt_bytes", Num(c.prompt_bytes));
    out.Set("prompt_tokens", Num(c.prompt_tokens));
    out.Set("shared_prefix_bytes", Num(c.shared_prefix_bytes));
    out.Set("reuse_bp", Num(c.reuse_bp));
    out.Set("max_reuse_bp", Num(c.max_reuse_bp));
  } else {
    for (std::string_view key : {"input_items", "prompt_bytes", "prompt_tokens",
                                 "shared_prefix_bytes", "reuse_bp", "max_reuse_bp"}) {
      out.Set(key, JsonValue());
    }
  }
  bool tokens = r.usage.has_value();
  out.Set("predicted_cached_tokens",
          tokens ? OptNum(r.predicted_tokens)
                 : (r.reconstructed ? Num(r.report.predicted_cached_tokens) : JsonValue()));
  out.Set("ideal_cached_tokens",
          tokens ? OptNum(r.ideal_tokens)
                 : (r.reconstructed ? Num(r.report.ideal_cached_tokens) : JsonValue()));
  if (r.reconstructed && r.report.cache_break) {
    const CacheBreak& b = *r.report.cache_break;
    JsonValue brk = JsonValue::Object();
    brk.Set("reason", JsonValue::String(b.reason));
    brk.Set("section", JsonValue::String(b.section));
    if (b.item_index) brk.Set("item_index", Num(*b.item_index));
    brk.Set("byte_offset", Num(b.byte_offset));
    brk.Set("lost_tokens", Num(tokens ? r.client_lost : b.lost_tokens));
    out.Set("break", std::move(brk));
  } else {
    out.Set("break", JsonValue());
  }
  if (r.provider_diagnosis) {
    // The provider's own verdict beside the break (cache_diagnosis.h), when the session asked.
    JsonValue p = JsonValue::Object();
    for (std::string_view key : {"provider_reason", "verdict", "provider"}) {
      const JsonValue* v = r.provider_diagnosis->Find(key);
      p.Set(key, v != nullptr ? *v : JsonValue());
    }
    out.Set("provider_cache", std::move(p));
  }
  if (!tokens) {
    for (std::string_view key :
         {"input_tokens", "cached_input_tokens", "cache_write_input_tokens", "output_tokens",
          "uncached_input_tokens", "new_input_tokens", "lost_tokens", "cause", "cause_section",
          "lost_tokens_by_cause", "gap_ms", "cost_usd", "lost_cost_usd"}) {
      if (key != "cache_write_input_tokens" || bills_writes) out.Set(key, JsonValue());
    }
    return out;
  }
  const ReplayUsage& u = *r.usage;
  std::uint64_t cached = Min(u.cached, u.input);
  out.Set("input_tokens", Num(u.input));
  out.Set("cached_input_tokens", Num(u.cached));
  if (bills_writes) out.Set("cache_write_input_tokens", Num(WritesOf(u)));
  if (bills_writes && OneHourWritesOf(u) > 0) {
    out.Set("cache_write_1h_input_tokens", Num(OneHourWritesOf(u)));
  }
  out.Set("output_tokens", Num(u.output));
  out.Set("uncached_input_tokens", Num(u.input - cached));
  out.Set("new_input_tokens", Num(r.new_input));
  out.Set("lost_tokens", Num(r.lost));
  out.Set("cause", r.cause ? JsonValue::String(std::string(kReplayCauses[*r.cause])) : JsonValue());
  bool client =
      r.cause && r.report.cache_break && kReplayCauses[*r.cause] == r.report.cache_break->reason;
  out.Set("cause_section", client ? JsonValue::String(r.report.cache_break->section) : JsonValue());
  out.Set("lost_tokens_by_cause", CausesJson(r.by_cause, 1, false));
  out.Set("gap_ms", r.gap_ms ? JsonValue::Int(*r.gap_ms) : JsonValue());
  out.Set("cost_usd", UsdNumber(CostOf(u, pricing.prices).total()));
  out.Set("lost_cost_usd", UsdNumber(r.lost * pricing.prices.input));
  return out;
}

JsonValue ReplaySummaryJson(const std::vector<ReplayRequest>& requests, const ReplayFacts& facts,
                            const ReplayOptions& options, const ReplayPricing& pricing) {
  const bool bills_writes = pricing.bills_writes;
  const CachePrices& p = pricing.prices;
  std::uint64_t writes = 0, writes_1h = 0;
  std::uint64_t usage_only = 0, with_usage = 0;
  PrefixTotals prefix;  // the reconstructed requests, as the session's cache_summary counts them
  std::uint64_t predicted = 0, ideal = 0;
  ReplayUsage total;
  std::uint64_t uncached = 0, new_input = 0, lost = 0;
  std::array<std::uint64_t, kReplayCauses.size()> by_cause{};
  Cost cost;
  DiagnosisTotals diagnoses;  // the provider verdicts the rollout recorded
  for (const ReplayRequest& r : requests) {
    if (r.provider_diagnosis)
      diagnoses.Add(r.provider_diagnosis->GetString("verdict").value_or(""));
    if (r.reconstructed) {
      // A break counts the client-side share of the reported loss where usage is known.
      const CacheReport& c = r.report;
      prefix.Add(c, c.cache_break ? (r.usage ? r.client_lost : c.cache_break->lost_tokens) : 0);
    } else {
      ++usage_only;
    }
    if (!r.usage) {
      if (facts.usage_source == "none" && r.reconstructed) {
        predicted += r.report.predicted_cached_tokens;
        ideal += r.report.ideal_cached_tokens;
      }
      continue;
    }
    ++with_usage;
    const ReplayUsage& u = *r.usage;
    total.input += u.input;
    total.cached += u.cached;
    total.output += u.output;
    total.reasoning += u.reasoning;
    writes += WritesOf(u);
    writes_1h += OneHourWritesOf(u);
    predicted += r.predicted_tokens.value_or(0);
    ideal += r.ideal_tokens.value_or(0);
    uncached += u.input - Min(u.cached, u.input);
    new_input += r.new_input;
    lost += r.lost;
    for (std::size_t i = 0; i < by_cause.size(); ++i) by_cause[i] += r.by_cause[i];
    Cost c = CostOf(u, p);
    cost.cached += c.cached;
    cost.uncached += c.uncached;
    cost.write_extra += c.write_extra;
    cost.output += c.output;
  }

  JsonValue s = JsonValue::Object();
  s.Set("requests", Num(prefix.requests()));
  s.Set("usage_only_requests", Num(usage_only));
  prefix.WriteBytes(&s);
  s.Set("predicted_cached_tokens", Num(predicted));
  s.Set("ideal_cached_tokens", Num(ideal));
  prefix.WriteReuseAndBreaks(&s);
  s.Set("compactions", Num(facts.compactions));
  s.Set("unrebuilt_compactions", Num(facts.unrebuilt_compactions));
  s.Set("usage_source", JsonValue::String(facts.usage_source));
  s.Set("repeated_usage_lines", Num(facts.repeated_usage_lines));
  s.Set("requests_with_usage", Num(with_usage));
  s.Set("input_tokens", Num(total.input));
  s.Set("cached_input_tokens", Num(total.cached));
  if (bills_writes) s.Set("cache_write_input_tokens", Num(writes));
  // Only when the usage split its writes by TTL (agentctx records the provider's split).
  if (bills_writes && writes_1h > 0) s.Set("cache_write_1h_input_tokens", Num(writes_1h));
  s.Set("output_tokens", Num(total.output));
  s.Set("reasoning_output_tokens", Num(total.reasoning));
  s.Set("reported_cached_bp", Num(BasisPoints(total.cached, total.input)));
  s.Set("uncached_input_tokens", Num(uncached));
  s.Set("new_input_tokens", Num(new_input));
  s.Set("lost_tokens", Num(lost));
  s.Set("lost_tokens_by_cause", CausesJson(by_cause, 1, false));
  if (!diagnoses.empty()) s.Set("provider_diagnostics", diagnoses.ToJson());
  if (facts.rollout_total) {
    const ReplayUsage& t = *facts.rollout_total;
    JsonValue rt = JsonValue::Object();
    rt.Set("input_tokens", Num(t.input));
    rt.Set("cached_input_tokens", Num(t.cached));
    rt.Set("output_tokens", Num(t.output));
    rt.Set("reasoning_output_tokens", Num(t.reasoning));
    s.Set("rollout_total_token_usage", std::move(rt));
    s.Set("usage_matches_rollout_total",
          JsonValue::Bool(t.input == total.input && t.cached == total.cached &&
                          t.output == total.output));
  } else {
    s.Set("rollout_total_token_usage", JsonValue());
    s.Set("usage_matches_rollout_total", JsonValue());
  }
  s.Set("ttl_ms", JsonValue::Int(options.ttl_ms));
  if (bills_writes)
    s.Set("pricing", JsonValue::String(std::string(CachePricingName(pricing.rule))));
  JsonValue prices = JsonValue::Object();
  prices.Set("input", UsdPerMillion(p.input));
  prices.Set("cached_input", UsdPerMillion(p.cached));
  if (bills_writes) prices.Set("cache_write", UsdPerMillion(p.write_5m));
  if (bills_writes && writes_1h > 0) prices.Set("cache_write_1h", UsdPerMillion(p.write_1h));
  prices.Set("output", UsdPerMillion(p.output));
  s.Set("prices_per_million_usd", std::move(prices));
  JsonValue c = JsonValue::Object();
  c.Set("cached_input_usd", UsdNumber(cost.cached));
  c.Set("uncached_input_usd", UsdNumber(cost.uncached));
  if (bills_writes) c.Set("cache_write_extra_usd", UsdNumber(cost.write_extra));
  c.Set("output_usd", UsdNumber(cost.output));
  c.Set("total_usd", UsdNumber(cost.total()));
  c.Set("by_cause_usd", CausesJson(by_cause, p.input, true));
  std::uint64_t saving = p.input > p.cached ? p.input - p.cached : 0;
  c.Set("lost_extra_usd", UsdNumber(lost * saving));
  s.Set("cost", std::move(c));
  return s;
}

}  // namespace agentctx
