// SPDX-License-Identifier: MIT
// The options of `rollout.inspect` (issue 13); see ReplayOptionsFromJson in replay.h.
#include <optional>
#include <string>

#include "rollout/replay.h"

namespace agentctx {
namespace {

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

Result<ReplayOptions> ReplayOptionsFromJson(const JsonValue& input) {
  ReplayOptions o;
  if (const JsonValue* ttl = input.Find("ttl_ms"); ttl != nullptr && !ttl->is_null()) {
    std::optional<std::int64_t> v = ttl->int_value();
    if (!v || *v < 0) return Fail(Bad("rollout.inspect: `ttl_ms` must be an integer >= 0"));
    o.ttl_ms = *v;
  }
  if (const JsonValue* prices = input.Find("prices"); prices != nullptr && !prices->is_null()) {
    if (!prices->is_object()) return Fail(Bad("rollout.inspect: `prices` must be an object"));
    struct Slot {
      const char* key;
      std::uint64_t* value;
    };
    for (Slot slot : {Slot{"input", &o.prices.input}, Slot{"cached_input", &o.prices.cached_input},
                      Slot{"output", &o.prices.output}}) {
      const JsonValue* v = prices->Find(slot.key);
      if (v == nullptr) continue;
      std::optional<std::uint64_t> micros = Micros(*v);
      if (!micros) {
        return Fail(Bad(std::string("rollout.inspect: `prices.") + slot.key +
                        "` must be USD per million tokens, a number >= 0 with at most 6 decimals"));
      }
      *slot.value = *micros;
    }
  }
  for (const char* key : {"dump_requests", "requests"}) {
    const JsonValue* v = input.Find(key);
    if (v == nullptr || v->is_null()) continue;
    if (!v->is_bool())
      return Fail(Bad(std::string("rollout.inspect: `") + key + "` must be a bool"));
    (std::string_view(key) == "requests" ? o.table_all_requests : o.dump_requests) =
        v->bool_value();
  }
  if (const JsonValue* top = input.Find("top"); top != nullptr && !top->is_null()) {
    std::optional<std::int64_t> v = top->int_value();
    if (!v || *v < 0) return Fail(Bad("rollout.inspect: `top` must be an integer >= 0"));
    o.top_misses = static_cast<std::uint64_t>(*v);
  }
  return o;
}

}  // namespace agentctx
