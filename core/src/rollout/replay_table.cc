// SPDX-License-Identifier: MIT
// Text rendering of a replay report for the CLI; see replay.h. It reads only the report JSON, so
// every figure is the one `replay --json` prints. Integer math only: counts are grouped by
// thousands (1,234), percentages are basis points printed with two decimals, dollars are rounded
// half up to 4 decimals from the exact decimal costs of the report. The top-misses table fits
// 100 columns. A rollout without usage says so instead of a $0 cost.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "rollout/replay.h"
#include "rollout/replay_causes.h"

namespace agentctx {
namespace {

std::string Text(const JsonValue* v) {
  if (v == nullptr || v->is_null()) return "-";
  if (v->is_number() || v->is_string()) return v->string_value();
  return ToJson(*v);
}

// Digits in groups of three, `1,234,567`, as the playground writes numbers.
std::string Grouped(std::uint64_t n) {
  std::string digits = std::to_string(n);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out.push_back(',');
    out.push_back(digits[i]);
  }
  return out;
}

// A count from the report, grouped; "-" when absent or not a non-negative integer.
std::string Count(const JsonValue* v) {
  if (v == nullptr || !v->is_number()) return "-";
  std::optional<std::int64_t> n = v->int_value();
  return n && *n >= 0 ? Grouped(static_cast<std::uint64_t>(*n)) : Text(v);
}

std::uint64_t U64(const JsonValue* v) {
  std::optional<std::int64_t> n = v != nullptr ? v->int_value() : std::nullopt;
  return n && *n > 0 ? static_cast<std::uint64_t>(*n) : 0;
}

std::string Percent(std::uint64_t bp) {
  std::string frac = std::to_string(bp % 100);
  if (frac.size() < 2) frac.insert(0, "0");
  return std::to_string(bp / 100) + "." + frac + "%";
}

std::string PercentOf(const JsonValue* bp) {
  return bp != nullptr && bp->is_number() ? Percent(U64(bp)) : "-";
}

// A USD decimal lexeme (UsdNumber) as `$W.FFFF`, rounded half up.
std::string Dollars(const JsonValue* usd) {
  if (usd == nullptr || !usd->is_number()) return "-";
  const std::string& s = usd->string_value();
  std::size_t dot = s.find('.');
  std::string whole = s.substr(0, dot);
  std::string frac = dot == std::string::npos ? "" : s.substr(dot + 1);
  frac.resize(12, '0');
  std::uint64_t w = 0;
  for (char c : whole) w = w * 10 + static_cast<std::uint64_t>(c - '0');
  std::uint64_t f4 = 0;
  for (std::size_t i = 0; i < 4; ++i) f4 = f4 * 10 + static_cast<std::uint64_t>(frac[i] - '0');
  if (frac[4] >= '5') ++f4;
  if (f4 == 10000) {
    ++w;
    f4 = 0;
  }
  std::string f = std::to_string(f4);
  f.insert(0, 4 - f.size(), '0');
  return "$" + std::to_string(w) + "." + f;
}

void Pad(std::string* out, const std::string& text, std::size_t width, bool right) {
  if (right) out->append(width > text.size() ? width - text.size() : 0, ' ');
  out->append(text);
  if (!right) out->append(width > text.size() ? width - text.size() : 0, ' ');
}

void Row(std::string* out, const std::string& label, const std::string& value) {
  Pad(out, label, 22, false);
  out->append(value);
  out->push_back('\n');
}

struct Column {
  const char* title;
  std::size_t width;
  bool right;
};

// The top misses fit 100 columns: the cause (and its section) come last, unpadded. The full
// request list adds the time and the cached tokens.
constexpr Column kMissColumns[] = {{"request", 8, false},  {"line", 5, true},
                                   {"input", 9, true},     {"lost", 9, true},
                                   {"miss cost", 9, true}, {"cause", 0, false}};
constexpr Column kRequestColumns[] = {
    {"request", 8, false}, {"line", 5, true}, {"time", 24, false},    {"input", 9, true},
    {"cached", 9, true},   {"lost", 9, true}, {"miss cost", 9, true}, {"cause", 0, false}};

template <std::size_t N>
void Line(std::string* out, const Column (&columns)[N], const std::string (&cells)[N]) {
  out->append("  ");
  for (std::size_t i = 0; i < N; ++i) {
    Pad(out, cells[i], columns[i].width, columns[i].right);
    out->append("  ");
  }
  while (!out->empty() && out->back() == ' ') out->pop_back();
  out->push_back('\n');
}

template <std::size_t N>
void Header(std::string* out, const Column (&columns)[N]) {
  std::string cells[N];
  for (std::size_t i = 0; i < N; ++i) cells[i] = columns[i].title;
  Line(out, columns, cells);
}

// `cause (section)`, or the cause alone when there is no section.
std::string Cause(const JsonValue& r) {
  std::string cause = Text(r.Find("cause"));
  const JsonValue* section = r.Find("cause_section");
  if (section != nullptr && section->is_string()) cause += " (" + section->string_value() + ")";
  // The provider's own reason, where the rollout recorded it.
  if (const JsonValue* p = r.Find("provider_cache"); p != nullptr && p->is_object()) {
    cause +=
        "; provider: " + Text(p->Find("provider_reason")) + " (" + Text(p->Find("verdict")) + ")";
  }
  return cause;
}

void MissRow(std::string* out, const JsonValue& r) {
  const std::string cells[] = {Text(r.Find("request_id")),       Text(r.Find("line")),
                               Count(r.Find("input_tokens")),    Count(r.Find("lost_tokens")),
                               Dollars(r.Find("lost_cost_usd")), Cause(r)};
  Line(out, kMissColumns, cells);
}

void RequestRow(std::string* out, const JsonValue& r) {
  const std::string cells[] = {Text(r.Find("request_id")),
                               Text(r.Find("line")),
                               Text(r.Find("time")),
                               Count(r.Find("input_tokens")),
                               Count(r.Find("cached_input_tokens")),
                               Count(r.Find("lost_tokens")),
                               Dollars(r.Find("lost_cost_usd")),
                               Cause(r)};
  Line(out, kRequestColumns, cells);
}

}  // namespace

std::string RenderReplayTable(const JsonValue& report, bool all_requests,
                              std::uint64_t top_misses) {
  const JsonValue empty = JsonValue::Object();
  const JsonValue empty_list = JsonValue::Array();
  const JsonValue* summary_ptr = report.Find("summary");
  const JsonValue& s = summary_ptr != nullptr ? *summary_ptr : empty;
  const JsonValue* requests_ptr = report.Find("requests");
  const JsonValue& requests =
      requests_ptr != nullptr && requests_ptr->is_array() ? *requests_ptr : empty_list;
  std::string out;
  Row(&out, "session", Text(report.Find("session_id")));
  Row(&out, "cli version", Text(report.Find("cli_version")));
  Row(&out, "lines", Count(report.Find("lines")));
  if (const JsonValue* w = report.Find("warnings"); w != nullptr && w->is_array()) {
    for (const JsonValue& warning : w->items()) {
      Row(&out, "warning", Text(warning.Find("code")) + ": " + Text(warning.Find("message")));
    }
  }
  // A rollout without token counts (an older Codex layout) has no usage: its cost cannot be
  // estimated, and saying $0 would be false. Its byte reuse is still known.
  const bool usage = U64(s.Find("requests_with_usage")) > 0;
  std::string count = Count(s.Find("requests")) + " reconstructed";
  if (U64(s.Find("usage_only_requests")) > 0) {
    count += " + " + Count(s.Find("usage_only_requests")) + " usage-only";
  }
  const std::uint64_t repeated = U64(s.Find("repeated_usage_lines"));
  Row(&out, "requests",
      count + ", " +
          (usage ? Count(s.Find("requests_with_usage")) + " with usage (" +
                       Text(s.Find("usage_source")) + ", " + Grouped(repeated) +
                       (repeated == 1 ? " repeated line skipped)" : " repeated lines skipped)")
                 : std::string("none with usage (the rollout records no token counts)")));
  Row(&out, "compactions", Count(s.Find("compactions")));
  Row(&out, "prompt reuse",
      PercentOf(s.Find("reuse_bp")) + " of prompt bytes shared with the previous request (best " +
          PercentOf(s.Find("max_reuse_bp")) + ")");
  if (usage) {
    Row(&out, "input tokens",
        Count(s.Find("input_tokens")) + ", cached " + Count(s.Find("cached_input_tokens")) + " (" +
            PercentOf(s.Find("reported_cached_bp")) + "), output " +
            Count(s.Find("output_tokens")));
    Row(&out, "uncached input",
        Count(s.Find("uncached_input_tokens")) + " = new " + Count(s.Find("new_input_tokens")) +
            " + lost " + Count(s.Find("lost_tokens")));
  } else {
    Row(&out, "input tokens", "no usage recorded");
  }
  if (const JsonValue* t = s.Find("rollout_total_token_usage"); t != nullptr && t->is_object()) {
    bool match = s.GetBool("usage_matches_rollout_total").value_or(false);
    Row(&out, "rollout total",
        std::string(match ? "matches" : "DIFFERS: ") +
            (match ? ""
                   : "input " + Count(t->Find("input_tokens")) + ", cached " +
                         Count(t->Find("cached_input_tokens")) + ", output " +
                         Count(t->Find("output_tokens"))));
  }
  const JsonValue* cost = s.Find("cost");
  const JsonValue* prices = s.Find("prices_per_million_usd");
  if (!usage) {
    Row(&out, "cost", "no usage recorded — cost cannot be estimated");
  } else if (cost != nullptr && prices != nullptr) {
    // A rule that bills cache writes adds their premium and names its prices (the summary names
    // that rule in "pricing").
    const bool bills_writes = s.Find("pricing") != nullptr;
    const bool openai = s.GetString("pricing") == CachePricingName(CachePricing::kOpenAi);
    const std::string rule_label(
        CachePricingLabel(openai ? CachePricing::kOpenAi : kWriteBillingPricing));
    const std::string short_ttl = openai ? "30 min" : "5 min", long_ttl = openai ? "12 h" : "1 h";
    std::string line = Dollars(cost->Find("total_usd")) + " (cached input " +
                       Dollars(cost->Find("cached_input_usd")) + ", uncached input " +
                       Dollars(cost->Find("uncached_input_usd"));
    if (bills_writes)
      line += ", cache-write premium " + Dollars(cost->Find("cache_write_extra_usd"));
    line += ", output " + Dollars(cost->Find("output_usd")) + "; misses cost " +
            Dollars(cost->Find("lost_extra_usd")) + " more than cached) at $" +
            Text(prices->Find("input")) + " / $" + Text(prices->Find("cached_input")) + " / $";
    const JsonValue* one_hour = s.Find("cache_write_1h_input_tokens");
    if (bills_writes) line += Text(prices->Find("cache_write")) + " / $";
    if (bills_writes && one_hour != nullptr) line += Text(prices->Find("cache_write_1h")) + " / $";
    line += Text(prices->Find("output"));
    line += bills_writes
                ? (one_hour != nullptr ? " per million input / cache read / cache write (" +
                                             short_ttl + ") / cache write (" + long_ttl +
                                             ") / output (" + rule_label + " pricing, "
                                       : " per million input / cache read / cache write / "
                                         "output (" +
                                             rule_label + " pricing, ")
                : " per million input / cached / output";
    if (bills_writes) line += Count(s.Find("cache_write_input_tokens")) + " tokens written";
    if (bills_writes && one_hour != nullptr)
      line += ", " + Count(one_hour) + " of them for " + long_ttl;
    if (bills_writes) line += ")";
    Row(&out, "cost", line);
  }
  Row(&out, "idle TTL", Count(s.Find("ttl_ms")) + " ms");
  if (const JsonValue* d = s.Find("provider_diagnostics"); d != nullptr && d->is_object()) {
    Row(&out, "provider reasons",
        Count(d->Find("compared")) + " compared: " + Count(d->Find("agrees")) + " agree, " +
            Count(d->Find("differs")) + " differ, " + Count(d->Find("unavailable")) +
            " unavailable");
  }

  // Uncached input by cause.
  const JsonValue* by_cause = s.Find("lost_tokens_by_cause");
  const JsonValue* by_cause_usd = cost != nullptr ? cost->Find("by_cause_usd") : nullptr;
  std::uint64_t uncached = U64(s.Find("uncached_input_tokens"));
  if (by_cause != nullptr && by_cause->is_object() && !by_cause->members().empty()) {
    out.append("uncached input by cause\n");
    Pad(&out, "  cause", 36, false);
    Pad(&out, "requests", 9, true);
    Pad(&out, "tokens", 12, true);
    Pad(&out, "share", 9, true);
    Pad(&out, "cost", 11, true);
    out.push_back('\n');
    for (const JsonMember& m : by_cause->members()) {
      std::uint64_t n = 0;
      for (const JsonValue& r : requests.items()) {
        const JsonValue* rc = r.Find("lost_tokens_by_cause");
        if (rc != nullptr && rc->Find(m.key) != nullptr) ++n;
      }
      std::uint64_t tokens = U64(&m.value);
      Pad(&out, "  " + m.key, 36, false);
      Pad(&out, Grouped(n), 9, true);
      Pad(&out, Grouped(tokens), 12, true);
      Pad(&out, Percent(BasisPoints(tokens, uncached)), 9, true);
      Pad(&out, Dollars(by_cause_usd != nullptr ? by_cause_usd->Find(m.key) : nullptr), 11, true);
      out.push_back('\n');
    }
  }

  // Top misses: requests by lost tokens, most first (ties: earlier first).
  std::vector<const JsonValue*> misses;
  for (const JsonValue& r : requests.items()) {
    if (U64(r.Find("lost_tokens")) > 0) misses.push_back(&r);
  }
  std::stable_sort(misses.begin(), misses.end(), [](const JsonValue* a, const JsonValue* b) {
    return U64(a->Find("lost_tokens")) > U64(b->Find("lost_tokens"));
  });
  if (misses.size() > top_misses) misses.resize(top_misses);
  if (misses.empty()) {
    Row(&out, "top misses", "none");
  } else {
    out.append("top misses\n");
    Header(&out, kMissColumns);
    for (const JsonValue* r : misses) MissRow(&out, *r);
  }
  if (all_requests) {
    out.append("requests\n");
    Header(&out, kRequestColumns);
    for (const JsonValue& r : requests.items()) RequestRow(&out, r);
  }
  return out;
}

}  // namespace agentctx
