// SPDX-License-Identifier: MIT
// Text rendering of a replay report for the CLI (SPEC §13.4); see replay.h. Integer math only:
// percentages are basis points printed with two decimals.
#include <optional>
#include <string>

#include "rollout/replay.h"

namespace agentctx {
namespace {

std::string IntText(const JsonValue* v) {
  if (v == nullptr || v->is_null()) return "-";
  if (v->is_number()) return v->string_value();
  if (v->is_string()) return v->string_value();
  return ToJson(*v);
}

std::string Percent(const JsonValue* bp) {
  std::optional<std::int64_t> v = bp != nullptr ? bp->int_value() : std::nullopt;
  if (!v) return "-";
  std::string frac = std::to_string(*v % 100);
  if (frac.size() < 2) frac.insert(0, "0");
  return std::to_string(*v / 100) + "." + frac + "%";
}

void Pad(std::string* out, const std::string& text, std::size_t width, bool right) {
  if (right) out->append(width > text.size() ? width - text.size() : 0, ' ');
  out->append(text);
  if (!right) out->append(width > text.size() ? width - text.size() : 0, ' ');
}

// One row of label + value.
void Row(std::string* out, const std::string& label, const std::string& value) {
  Pad(out, label, 22, false);
  out->append(value);
  out->push_back('\n');
}

}  // namespace

std::string RenderReplayTable(const JsonValue& report) {
  const JsonValue empty = JsonValue::Object();
  const JsonValue* summary_ptr = report.Find("summary");
  const JsonValue& s = summary_ptr != nullptr ? *summary_ptr : empty;
  std::string out;
  Row(&out, "session", IntText(report.Find("session_id")));
  Row(&out, "lines", IntText(report.Find("lines")));
  if (const JsonValue* w = report.Find("warnings"); w != nullptr && w->is_array()) {
    for (const JsonValue& warning : w->items()) {
      Row(&out, "warning", IntText(warning.Find("code")) + ": " + IntText(warning.Find("message")));
    }
  }
  Row(&out, "requests", IntText(s.Find("requests")));
  Row(&out, "compactions", IntText(s.Find("compactions")));
  Row(&out, "prompt bytes", IntText(s.Find("prompt_bytes")));
  Row(&out, "shared prefix bytes",
      IntText(s.Find("shared_prefix_bytes")) + " (" + Percent(s.Find("reuse_bp")) + ")");
  Row(&out, "max shared bytes",
      IntText(s.Find("max_shared_prefix_bytes")) + " (" + Percent(s.Find("max_reuse_bp")) + ")");
  Row(&out, "predicted cached", IntText(s.Find("predicted_cached_tokens")) + " tokens");
  Row(&out, "ideal cached", IntText(s.Find("ideal_cached_tokens")) + " tokens");
  Row(&out, "reported cached",
      IntText(s.Find("cached_input_tokens")) + " of " + IntText(s.Find("input_tokens")) +
          " input tokens (" + Percent(s.Find("reported_cached_bp")) + ", " +
          IntText(s.Find("requests_with_usage")) + " requests)");

  const JsonValue* breaks = s.Find("breaks");
  if (breaks == nullptr || !breaks->is_object() || breaks->members().empty()) {
    Row(&out, "breaks", "none");
    return out;
  }
  out.append("breaks\n");
  Pad(&out, "  reason", 36, false);
  Pad(&out, "count", 7, true);
  Pad(&out, "lost_tokens", 13, true);
  out.push_back('\n');
  for (const JsonMember& m : breaks->members()) {
    Pad(&out, "  " + m.key, 36, false);
    Pad(&out, IntText(m.value.Find("count")), 7, true);
    Pad(&out, IntText(m.value.Find("lost_tokens")), 13, true);
    out.push_back('\n');
  }
  out.append("break details\n");
  Pad(&out, "  request", 11, false);
  Pad(&out, "line", 7, true);
  out.append("  ");
  Pad(&out, "reason", 33, false);
  Pad(&out, "section", 14, false);
  Pad(&out, "item", 6, true);
  Pad(&out, "offset", 10, true);
  Pad(&out, "lost", 8, true);
  out.push_back('\n');
  if (const JsonValue* requests = report.Find("requests"); requests != nullptr) {
    for (const JsonValue& r : requests->items()) {
      const JsonValue* b = r.Find("break");
      if (b == nullptr || !b->is_object()) continue;
      Pad(&out, "  " + IntText(r.Find("request_id")), 11, false);
      Pad(&out, IntText(r.Find("line")), 7, true);
      out.append("  ");
      Pad(&out, IntText(b->Find("reason")), 33, false);
      Pad(&out, IntText(b->Find("section")), 14, false);
      Pad(&out, IntText(b->Find("item_index")), 6, true);
      Pad(&out, IntText(b->Find("byte_offset")), 10, true);
      Pad(&out, IntText(b->Find("lost_tokens")), 8, true);
      out.push_back('\n');
    }
  }
  return out;
}

}  // namespace agentctx
