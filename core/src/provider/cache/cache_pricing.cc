// SPDX-License-Identifier: MIT
// Prompt-cache pricing per provider; see cache_pricing.h.
#include "provider/cache/cache_pricing.h"

#include <string>

#include "provider/anthropic/breakpoint_planner.h"
#include "provider/responses/responses_dialect.h"

namespace agentctx {
namespace {

std::uint64_t Min(std::uint64_t a, std::uint64_t b) { return a < b ? a : b; }

Error Bad(std::string message) { return Error{ErrorCode::kInvalidInput, std::move(message), {}}; }

// A non-negative decimal JSON number with at most 6 fraction digits (no exponent), times 10⁶;
// nullopt otherwise (or past 10¹² USD per million).
std::optional<std::uint64_t> Micros(const JsonValue& v) {
  if (!v.is_number()) return std::nullopt;
  const std::string& s = v.string_value();
  std::uint64_t whole = 0, frac = 0;
  std::size_t i = 0, digits = 0, frac_digits = 0;
  for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i, ++digits) {
    if (digits >= 12) return std::nullopt;
    whole = whole * 10 + static_cast<std::uint64_t>(s[i] - '0');
  }
  if (digits == 0) return std::nullopt;
  if (i < s.size() && s[i] == '.') {
    for (++i; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i, ++frac_digits) {
      if (frac_digits >= 6) return std::nullopt;
      frac = frac * 10 + static_cast<std::uint64_t>(s[i] - '0');
    }
    if (frac_digits == 0) return std::nullopt;
  }
  if (i != s.size()) return std::nullopt;
  for (; frac_digits < 6; ++frac_digits) frac *= 10;
  return whole * 1000000 + frac;
}

}  // namespace

std::string_view CachePricingName(CachePricing pricing) {
  return pricing == CachePricing::kAnthropic ? "anthropic" : "openai";
}

bool CachesWholePrefix(CachePricing rule) { return rule == CachePricing::kAnthropic; }

bool BillsCacheWrites(CachePricing rule) { return rule == CachePricing::kAnthropic; }

std::uint64_t MinCacheableTokensOf(CachePricing rule, std::string_view model) {
  return rule == CachePricing::kAnthropic ? DefaultMinCacheableTokens(model) : 1024;
}

std::string_view CachePricingLabel(CachePricing rule) {
  return rule == CachePricing::kAnthropic ? "Anthropic" : "OpenAI";
}

CachePricing CachePricingFor(Provider provider) {
  return provider == Provider::kAnthropic ? CachePricing::kAnthropic : CachePricing::kOpenAi;
}

bool OpenAiBillsCacheWrites(std::string_view model) { return HasPromptCacheOptions(model); }

CachePrices PricesFor(CachePricing rule, const TypedPrices& t, bool openai_write_premium) {
  CachePrices p;
  p.input = t.input;
  p.output = t.output;
  if (rule == CachePricing::kOpenAi) {
    p.cached = t.cached_input;
    p.write_5m = p.write_1h =
        t.cache_write.value_or(openai_write_premium ? t.input * 5 / 4 : t.input);
    return p;
  }
  p.cached = t.cached_input_given ? t.cached_input : t.input / 10;
  p.write_5m = t.cache_write.value_or(t.input * 5 / 4);
  p.write_1h = t.cache_write.value_or(t.input * 2);
  return p;
}

std::uint64_t InputCostPicoUsd(const CacheTokens& t, const CachePrices& p) {
  const std::uint64_t cached = Min(t.cached, t.input);
  const std::uint64_t write = Min(t.write, t.input - cached);
  const std::uint64_t write_1h = Min(t.write_1h, write);
  return (t.input - cached - write) * p.input + cached * p.cached +
         (write - write_1h) * p.write_5m + write_1h * p.write_1h;
}

JsonValue UsdNumber(std::uint64_t picousd) {
  std::string whole = std::to_string(picousd / 1000000000000ULL);
  std::string frac = std::to_string(picousd % 1000000000000ULL);
  frac.insert(0, 12 - frac.size(), '0');
  while (!frac.empty() && frac.back() == '0') frac.pop_back();
  return JsonValue::RawNumber(frac.empty() ? whole : whole + "." + frac);
}

JsonValue UsdPerMillion(std::uint64_t micros) { return UsdNumber(micros * 1000000); }

Result<void> ReadTypedPrices(const JsonValue& prices, std::string_view context, TypedPrices* out) {
  const std::string where(context);
  if (!prices.is_object()) return Fail(Bad(where + ": `prices` must be an object"));
  for (std::string_view key : {"input", "cached_input", "cache_write", "output"}) {
    const JsonValue* v = prices.Find(key);
    if (v == nullptr) continue;
    std::optional<std::uint64_t> micros = Micros(*v);
    if (!micros) {
      return Fail(Bad(where + ": `prices." + std::string(key) +
                      "` must be USD per million tokens, a number >= 0 with at most 6 decimals"));
    }
    if (key == "input") out->input = *micros;
    if (key == "cached_input") {
      out->cached_input = *micros;
      out->cached_input_given = true;
    }
    if (key == "cache_write") out->cache_write = *micros;
    if (key == "output") out->output = *micros;
  }
  if (out->cache_write && *out->cache_write < out->input) {
    return Fail(Bad(where +
                    ": `prices.cache_write` must be at least `prices.input` (a cache write costs "
                    "the input price plus a premium)"));
  }
  return {};
}

}  // namespace agentctx
