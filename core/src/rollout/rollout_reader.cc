// SPDX-License-Identifier: MIT
// Tolerant rollout reader ; see rollout_reader.h.
#include "rollout/rollout_reader.h"

#include <string>
#include <utility>

#include "protocol/json_codec.h"

namespace agentctx {
namespace {

constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

// Empty or only spaces, tabs, CRs, form feeds and vertical tabs.
bool IsBlank(std::string_view line) {
  return line.find_first_not_of(" \t\r\f\v") == std::string_view::npos;
}

}  // namespace

std::string_view RolloutRecord::type() const { return line.GetString("type").value_or(""); }

const JsonValue* RolloutRecord::payload() const { return line.Find("payload"); }

std::string_view RolloutRecord::event_type() const {
  if (type() != "event_msg") return "";
  const JsonValue* p = payload();
  if (p == nullptr) return "";
  return p->GetString("type").value_or("");
}

Result<ParsedRollout> ParseRollout(std::string_view text) {
  return ParseRollout(text, kMaxRolloutLineBytes);
}

Result<ParsedRollout> ParseRollout(std::string_view text, std::size_t max_line_bytes) {
  // Step 0: a UTF-8 BOM before the first line.
  if (text.substr(0, kUtf8Bom.size()) == kUtf8Bom) text.remove_prefix(kUtf8Bom.size());
  // Step 1: line bounds.
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t lf = text.find('\n', start);
    if (lf == std::string_view::npos) {
      if (start < text.size()) lines.push_back(text.substr(start));  // else: empty final segment
      break;
    }
    std::string_view line = text.substr(start, lf - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    start = lf + 1;
  }

  // Step 2: parse each line.
  ParsedRollout out;
  out.records.reserve(lines.size());
  std::uint64_t blank_lines = 0;
  std::uint64_t first_blank = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::uint64_t number = i + 1;
    if (IsBlank(lines[i])) {
      if (blank_lines++ == 0) first_blank = number;
      continue;
    }
    if (lines[i].size() > max_line_bytes) {
      out.warnings.push_back(Warning{WarningCode::kRolloutLineTooLarge,
                                     "skipped rollout line " + std::to_string(number) + ": " +
                                         std::to_string(lines[i].size()) +
                                         " bytes, over the limit of " +
                                         std::to_string(max_line_bytes) + " bytes"});
      continue;
    }
    Result<JsonValue> parsed = ParseJson(lines[i]);
    std::string problem;
    if (!parsed.has_value()) {
      problem = parsed.error().message;
    } else if (!parsed->is_object()) {
      problem = "not a JSON object";
    }
    if (problem.empty()) {
      out.records.push_back(RolloutRecord{number, std::move(parsed).value()});
      continue;
    }
    if (i + 1 == lines.size()) {
      out.warnings.push_back(
          Warning{WarningCode::kRolloutTornLine,
                  "skipped the torn last rollout line " + std::to_string(number)});
      break;
    }
    Error error{ErrorCode::kRolloutCorrupt,
                "rollout line " + std::to_string(number) + " is invalid: " + problem,
                {{"line", std::to_string(number)}}};
    return Fail(std::move(error));
  }
  if (blank_lines > 0) {
    out.warnings.push_back(Warning{WarningCode::kRolloutBlankLine,
                                   "skipped " + std::to_string(blank_lines) +
                                       (blank_lines == 1 ? " blank rollout line (line "
                                                         : " blank rollout lines (first: line ") +
                                       std::to_string(first_blank) + ")"});
  }
  return out;
}

}  // namespace agentctx
