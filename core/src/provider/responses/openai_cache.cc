// SPDX-License-Identifier: MIT
// OpenAI breakpoint caching; see openai_cache.h.
#include "provider/responses/openai_cache.h"

#include <algorithm>

#include "protocol/json_codec.h"
#include "provider/anthropic/anthropic_body.h"

namespace agentctx {
namespace {

constexpr std::string_view kBlockEnd = "}]}";

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

bool IsInputBlock(const JsonValue& part) {
  const std::string_view type = part.GetString("type").value_or("");
  return type == "input_text" || type == "input_image" || type == "input_file";
}

}  // namespace

bool CanCarryBreakpoint(std::string_view item) {
  // Cheap rejections first: most items are tool calls, string tool outputs or model output.
  if (item.size() < kBlockEnd.size() || item.substr(item.size() - kBlockEnd.size()) != kBlockEnd)
    return false;
  const bool message = StartsWith(item, "{\"type\":\"message\"");
  if (!message && !StartsWith(item, "{\"type\":\"function_call_output\"") &&
      !StartsWith(item, "{\"type\":\"custom_tool_call_output\"")) {
    return false;
  }
  auto parsed = ParseJson(item);
  if (!parsed || !parsed->is_object() || parsed->members().empty()) return false;
  if (message) {
    const std::string_view role = parsed->GetString("role").value_or("");
    if (role != "user" && role != "developer") return false;
  }
  // The parts array is the item's last member, so its last block closes at `}]}`.
  const JsonMember& last = parsed->members().back();
  if (last.key != (message ? "content" : "output") || !last.value.is_array()) return false;
  const auto& parts = last.value.items();
  return !parts.empty() && parts.back().is_object() && IsInputBlock(parts.back());
}

bool IsImplicitBreakpointItem(std::string_view item) {
  // The engine's own bytes start with the type (and a message's role) — no parse for them.
  if (StartsWith(item, "{\"type\":\"function_call_output\"") ||
      StartsWith(item, "{\"type\":\"custom_tool_call_output\"") ||
      StartsWith(item, "{\"type\":\"message\",\"role\":\"user\"") ||
      StartsWith(item, "{\"type\":\"message\",\"role\":\"developer\"")) {
    return true;
  }
  if (StartsWith(item, "{\"type\":\"message\",\"role\":\"")) return false;  // assistant, system
  auto parsed = ParseJson(item);
  if (!parsed || !parsed->is_object()) return false;
  const std::string_view type = parsed->GetString("type").value_or("message");
  if (type == "function_call_output" || type == "custom_tool_call_output") return true;
  const std::string_view role = parsed->GetString("role").value_or("");
  return type == "message" && (role == "user" || role == "developer");
}

void AppendWithBreakpoint(std::string* out, std::string_view item) {
  out->append(item.substr(0, item.size() - kBlockEnd.size()));
  out->append(kBreakpointField);
  out->append(kBlockEnd);
}

BreakpointPlan PlanOpenAiBreakpoints(const BodyParams& p, std::string_view instructions_json,
                                     const std::vector<ItemSegment>& items) {
  const bool explicit_mode = p.cache_mode == OpenAiCacheMode::kExplicit;
  std::vector<std::uint64_t> ends;  // prompt bytes up to and including item i
  std::uint64_t total = instructions_json.size() + p.tools_bytes.size();
  ends.reserve(items.size());
  for (const ItemSegment& item : items) ends.push_back(total += item.bytes.size());

  // Each boundary's item: the newest markable one at or before the boundary and after `floor`.
  constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  auto markable_at_or_before = [&](std::size_t from, std::size_t floor) {
    for (std::size_t i = from + 1; i-- > floor;) {
      if (CanCarryBreakpoint(items[i].bytes)) return i;
    }
    return kNone;
  };
  std::size_t context_run = 0;  // items in the leading run of context items
  while (context_run < items.size() && IsContextOrigin(items[context_run].origin)) ++context_run;
  const std::size_t context = context_run == 0 ? kNone : markable_at_or_before(context_run - 1, 0);
  std::size_t compaction = kNone;
  for (std::size_t i = items.size(); i-- > context_run;) {
    if (items[i].origin == "compaction") {
      compaction = i;
      break;
    }
  }
  const std::size_t history =
      compaction == kNone ? kNone : markable_at_or_before(compaction, context_run);
  const std::size_t newest = items.empty() ? kNone : markable_at_or_before(items.size() - 1, 0);

  std::vector<MarkCandidate> candidates;
  auto add = [&](BreakpointAt at, std::size_t index, std::string_view missing,
                 std::string_view placed_reason, int value) {
    MarkCandidate c{at, {}, 0, placed_reason, CacheTtl::k5m, 0, value};
    if (index == kNone) {
      c.skip = missing;
    } else {
      c.message_index = index;
      c.prefix_bytes = ends[index];
      if (at != BreakpointAt::kNewest && explicit_mode && index == newest) {
        c.skip = "same_as_newest";
      } else if (at == BreakpointAt::kStableHistory && index == context) {
        c.skip = "same_as_session_context";
      } else if (at == BreakpointAt::kNewest && !explicit_mode) {
        c.skip = "implicit_breakpoint";
      }
    }
    candidates.push_back(c);
  };
  add(BreakpointAt::kContext, context, "no_session_context", "end_of_session_context", 2);
  add(BreakpointAt::kStableHistory, history, "no_compaction", "end_of_stable_history", 1);
  add(BreakpointAt::kNewest, newest, "no_markable_item", "newest_history_item", 3);
  // With `implicit` the provider's own breakpoint is one of the writes.
  const std::size_t budget = explicit_mode ? kOpenAiMaxCacheWrites : kOpenAiMaxCacheWrites - 1;
  return PlaceMarks(candidates, budget, kOpenAiMinCacheableTokens);
}

std::vector<std::size_t> MarkedItems(const BreakpointPlan& plan) {
  std::vector<std::size_t> out;
  for (const PlannedBreakpoint& c : plan.candidates) {
    if (c.placed) out.push_back(c.message_index);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

void AppendPromptCacheOptions(std::string* out, const BodyParams& p) {
  out->append(",\"prompt_cache_options\":{\"mode\":\"");
  out->append(ToWire(p.cache_mode));
  out->append("\",\"ttl\":\"");
  out->append(ToWire(p.cache_ttl));
  out->append("\"}");
}

}  // namespace agentctx
