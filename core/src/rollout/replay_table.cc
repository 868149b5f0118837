// SPDX-License-Identifier: MIT
// Text rendering of a replay report for the CLI (SPEC §13.4, issue 13); see replay.h. It reads
// only the report JSON, so every figure is the one `replay --json` prints. Integer math only:
// percentages are basis points printed with two decimals, dollars are rounded half up to
// 4 decimals from the exact decimal costs of the report.
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

constexpr Column kRequestColumns[] = {
    {"request", 10, false}, {"line", 6, true},      {"time", 26, false},
    {"input", 9, true},     {"cached", 9, true},    {"lost", 9, true},
    {"cause", 32, false},   {"section", 12, false}, {"lost cost", 10, true}};

void Header(std::string* out) {
  out->append("  ");
  for (const Column& c : kRequestColumns) {
    Pad(out, c.title, c.width, c.right);
    out->push_back(' ');
  }
  while (!out->empty() && out->back() == ' ') out->pop_back();
  out->push_back('\n');
}

void RequestRow(std::string* out, const JsonValue& r) {
  std::string cells[] = {Text(r.Find("request_id")),
                         Text(r.Find("line")),
                         Text(r.Find("time")),
                         Text(r.Find("input_tokens")),
                         Text(r.Find("cached_input_tokens")),
                         Text(r.Find("lost_tokens")),
                         Text(r.Find("cause")),
                         Text(r.Find("cause_section")),
                         Dollars(r.Find("lost_cost_usd"))};
  out->append("  ");
  for (std::size_t i = 0; i < std::size(kRequestColumns); ++i) {
    Pad(out, cells[i], kRequestColumns[i].width, kRequestColumns[i].right);
    out->push_back(' ');
  }
  while (!out->empty() && out->back() == ' ') out->pop_back();
  out->push_back('\n');
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
  Row(&out, "lines", Text(report.Find("lines")));
  if (const JsonValue* w = report.Find("warnings"); w != nullptr && w->is_array()) {
    for (const JsonValue& warning : w->items()) {
      Row(&out, "warning", Text(warning.Find("code")) + ": " + Text(warning.Find("message")));
    }
  }
  std::string count = Text(s.Find("requests")) + " reconstructed";
  if (U64(s.Find("usage_only_requests")) > 0) {
    count += " + " + Text(s.Find("usage_only_requests")) + " usage-only";
  }
  Row(&out, "requests",
      count + ", " + Text(s.Find("requests_with_usage")) + " with usage (" +
          Text(s.Find("usage_source")) + ", " + Text(s.Find("repeated_usage_lines")) +
          " repeated lines skipped)");
  Row(&out, "compactions", Text(s.Find("compactions")));
  Row(&out, "prompt reuse",
      PercentOf(s.Find("reuse_bp")) + " of prompt bytes shared with the previous request (best " +
          PercentOf(s.Find("max_reuse_bp")) + ")");
  Row(&out, "input tokens",
      Text(s.Find("input_tokens")) + ", cached " + Text(s.Find("cached_input_tokens")) + " (" +
          PercentOf(s.Find("reported_cached_bp")) + "), output " + Text(s.Find("output_tokens")));
  Row(&out, "uncached input",
      Text(s.Find("uncached_input_tokens")) + " = new " + Text(s.Find("new_input_tokens")) +
          " + lost " + Text(s.Find("lost_tokens")));
  if (const JsonValue* t = s.Find("rollout_total_token_usage"); t != nullptr && t->is_object()) {
    bool match = s.GetBool("usage_matches_rollout_total").value_or(false);
    Row(&out, "rollout total",
        std::string(match ? "matches" : "DIFFERS: ") +
            (match ? ""
                   : "input " + Text(t->Find("input_tokens")) + ", cached " +
                         Text(t->Find("cached_input_tokens")) + ", output " +
                         Text(t->Find("output_tokens"))));
  }
  const JsonValue* cost = s.Find("cost");
  const JsonValue* prices = s.Find("prices_per_million_usd");
  if (cost != nullptr && prices != nullptr) {
    // Anthropic's rule (issue 15) adds the cache writes' premium and names its prices.
    const bool anthropic = s.Find("pricing") != nullptr;
    std::string line = Dollars(cost->Find("total_usd")) + " (cached input " +
                       Dollars(cost->Find("cached_input_usd")) + ", uncached input " +
                       Dollars(cost->Find("uncached_input_usd"));
    if (anthropic) line += ", cache-write premium " + Dollars(cost->Find("cache_write_extra_usd"));
    line += ", output " + Dollars(cost->Find("output_usd")) + "; misses cost " +
            Dollars(cost->Find("lost_extra_usd")) + " more than cached) at $" +
            Text(prices->Find("input")) + " / $" + Text(prices->Find("cached_input")) + " / $";
    const JsonValue* one_hour = s.Find("cache_write_1h_input_tokens");
    if (anthropic) line += Text(prices->Find("cache_write")) + " / $";
    if (anthropic && one_hour != nullptr) line += Text(prices->Find("cache_write_1h")) + " / $";
    line += Text(prices->Find("output"));
    line += anthropic
                ? (one_hour != nullptr ? " per million input / cache read / cache write (5 min) / "
                                         "cache write (1 h) / output (Anthropic pricing, "
                                       : " per million input / cache read / cache write / "
                                         "output (Anthropic pricing, ")
                : " per million input / cached / output";
    if (anthropic) line += Text(s.Find("cache_write_input_tokens")) + " tokens written";
    if (anthropic && one_hour != nullptr) line += ", " + Text(one_hour) + " of them for 1 h";
    if (anthropic) line += ")";
    Row(&out, "cost", line);
  }
  Row(&out, "idle TTL", Text(s.Find("ttl_ms")) + " ms");

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
      Pad(&out, std::to_string(n), 9, true);
      Pad(&out, std::to_string(tokens), 12, true);
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
    Header(&out);
    for (const JsonValue* r : misses) RequestRow(&out, *r);
  }
  if (all_requests) {
    out.append("requests\n");
    Header(&out);
    for (const JsonValue& r : requests.items()) RequestRow(&out, r);
  }
  return out;
}

}  // namespace agentctx
