// SPDX-License-Identifier: MIT
// Oldest-item dropping; see request_trim.h.
#include "compaction/request_trim.h"

namespace agentctx {
namespace {

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// function_call ↔ function_call_output, custom_tool_call ↔ custom_tool_call_output.
bool IsCall(std::string_view type) { return type == "function_call" || type == "custom_tool_call"; }
bool IsOutput(std::string_view type) { return EndsWith(type, "_call_output"); }
bool Pairs(std::string_view call_type, std::string_view output_type) {
  return output_type.size() == call_type.size() + 7 &&
         output_type.substr(0, call_type.size()) == call_type;
}

}  // namespace

std::vector<std::size_t> OldestItemGroup(const std::vector<TrimItemRef>& items) {
  std::vector<std::size_t> group;
  if (items.size() <= 1) return group;
  group.push_back(0);
  const TrimItemRef& oldest = items[0];
  if (IsCall(oldest.type) && !oldest.call_id.empty()) {
    for (std::size_t i = 1; i < items.size(); ++i) {
      if (IsOutput(items[i].type) && Pairs(oldest.type, items[i].type) &&
          items[i].call_id == oldest.call_id) {
        group.push_back(i);
      }
    }
  }
  return group;
}

std::string CompactionTrimmedMessage(std::uint64_t n) {
  return "Trimmed " + std::to_string(n) +
         " oldest item(s) from the compaction request to fit the context window.";
}

}  // namespace agentctx
