// SPDX-License-Identifier: MIT
// The AGENTS.md byte budget and the truncation note. See budget.h for the rules.
#include "agents_md/budget.h"

#include <algorithm>

namespace agentctx {

namespace {

void WarnTruncated(const std::string& path, std::uint64_t remaining,
                   std::vector<AgentsMdWarning>* warnings) {
  warnings->push_back({WarningCode::kAgentsMdTruncated, "AGENTS.md instructions truncated: `" +
                                                            path +
                                                            "` exceeds the remaining budget of " +
                                                            std::to_string(remaining) + " bytes"});
}

}  // namespace

bool CutToBudget(ByteBudget* budget, const std::string& path, std::uint64_t size, std::string* raw,
                 std::vector<AgentsMdWarning>* warnings) {
  const std::uint64_t remaining = budget->remaining;
  const std::uint64_t seen = std::max<std::uint64_t>(size, raw->size());
  if (seen <= remaining) return false;
  if (raw->size() > remaining) raw->resize(static_cast<std::size_t>(remaining));
  budget->omitted += seen - raw->size();
  WarnTruncated(path, remaining, warnings);
  return true;
}

void SkipForBudget(ByteBudget* budget, const std::string& path, std::uint64_t size,
                   std::vector<AgentsMdWarning>* warnings) {
  budget->omitted += size;
  WarnTruncated(path, budget->remaining, warnings);
}

std::string TruncationNote(std::uint64_t omitted, std::uint64_t max_bytes) {
  return "[AGENTS.md instructions truncated: " + std::to_string(omitted) +
         " bytes omitted to fit the " + std::to_string(max_bytes) + "-byte limit]";
}

std::uint64_t CutGlobalToLimit(const std::string& path, std::uint64_t size, std::string* raw,
                               std::vector<AgentsMdWarning>* warnings) {
  const std::uint64_t seen = std::max<std::uint64_t>(size, raw->size());
  if (seen <= kGlobalAgentsMdMaxBytes) return 0;
  if (raw->size() > kGlobalAgentsMdMaxBytes) {
    raw->resize(static_cast<std::size_t>(kGlobalAgentsMdMaxBytes));
  }
  warnings->push_back({WarningCode::kAgentsMdTruncated,
                       "global AGENTS.md instructions truncated: `" + path + "` is " +
                           std::to_string(seen) + " bytes, over the limit of " +
                           std::to_string(kGlobalAgentsMdMaxBytes) + " bytes"});
  return seen - raw->size();
}

std::string GlobalTruncationNote(std::uint64_t omitted) {
  return "[global AGENTS.md instructions truncated: " + std::to_string(omitted) +
         " bytes omitted to fit the " + std::to_string(kGlobalAgentsMdMaxBytes) + "-byte limit]";
}

void AppendNoteLine(std::string* text, const std::string& note) {
  if (!text->empty()) *text += text->back() == '\n' ? "\n" : "\n\n";
  *text += note;
}

void AppendTruncationNote(std::string* text, std::uint64_t omitted, std::uint64_t max_bytes) {
  AppendNoteLine(text, TruncationNote(omitted, max_bytes));
}

}  // namespace agentctx
