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
  ParsedRollout out;
  auto keep = [&out](RolloutRecord&& record) { out.records.push_back(std::move(record)); };
  ACTX_TRY_VOID(ForEachRolloutRecord(text, keep, &out.warnings, max_line_bytes));
  return out;
}

Result<std::uint64_t> ForEachRolloutRecord(
    std::string_view text, const std::function<void(RolloutRecord&&)>& visit,
    std::vector<Warning>* warnings, std::size_t max_line_bytes,
    const std::function<bool(std::string_view line)>& validate_only) {
  // Step 0: a UTF-8 BOM before the first line.
  if (text.substr(0, kUtf8Bom.size()) == kUtf8Bom) text.remove_prefix(kUtf8Bom.size());
  std::uint64_t records = 0;
  std::uint64_t blank_lines = 0;
  std::uint64_t first_blank = 0;
  std::uint64_t number = 0;
  std::size_t start = 0;
  // Step 1: line bounds, one at a time; an empty final segment is no line.
  while (start < text.size()) {
    std::size_t lf = text.find('\n', start);
    const bool last = lf == std::string_view::npos || lf + 1 == text.size();
    std::string_view line =
        lf == std::string_view::npos ? text.substr(start) : text.substr(start, lf - start);
    start = lf == std::string_view::npos ? text.size() : lf + 1;
    if (lf != std::string_view::npos && !line.empty() && line.back() == '\r') {
      line.remove_suffix(1);
    }
    ++number;
    // Step 2: parse it.
    if (IsBlank(line)) {
      if (blank_lines++ == 0) first_blank = number;
      continue;
    }
    if (line.size() > max_line_bytes) {
      warnings->push_back(Warning{WarningCode::kRolloutLineTooLarge,
                                  "skipped rollout line " + std::to_string(number) + ": " +
                                      std::to_string(line.size()) + " bytes, over the limit of " +
                                      std::to_string(max_line_bytes) + " bytes"});
      continue;
    }
    std::string problem;
    if (validate_only && validate_only(line)) {
      bool object = false;
      Result<void> valid = ValidateJson(line, &object);
      if (!valid.has_value()) {
        problem = valid.error().message;
      } else if (!object) {
        problem = "not a JSON object";
      } else {
        ++records;
        continue;
      }
    } else {
      Result<JsonValue> parsed = ParseJson(line);
      if (!parsed.has_value()) {
        problem = parsed.error().message;
      } else if (!parsed->is_object()) {
        problem = "not a JSON object";
      } else {
        ++records;
        visit(RolloutRecord{number, std::move(parsed).value()});
        continue;
      }
    }
    if (last) {
      warnings->push_back(Warning{WarningCode::kRolloutTornLine,
                                  "skipped the torn last rollout line " + std::to_string(number)});
      break;
    }
    Error error{ErrorCode::kRolloutCorrupt,
                "rollout line " + std::to_string(number) + " is invalid: " + problem,
                {{"line", std::to_string(number)}}};
    return Fail(std::move(error));
  }
  if (blank_lines > 0) {
    warnings->push_back(Warning{WarningCode::kRolloutBlankLine,
                                "skipped " + std::to_string(blank_lines) +
                                    (blank_lines == 1 ? " blank rollout line (line "
                                                      : " blank rollout lines (first: line ") +
                                    std::to_string(first_blank) + ")"});
  }
  return records;
}

void ForEachRolloutLineContaining(std::string_view text, std::string_view needle,
                                  const std::function<bool(const RolloutRecord&)>& visit) {
  std::size_t at = text.find(needle);
  while (at != std::string_view::npos) {
    const std::size_t begin = at == 0 ? 0 : text.rfind('\n', at - 1);
    const std::size_t line_start = begin == std::string_view::npos || at == 0 ? 0 : begin + 1;
    std::size_t line_end = text.find('\n', at);
    if (line_end == std::string_view::npos) line_end = text.size();
    std::string_view line = text.substr(line_start, line_end - line_start);
    if (line_start == 0 && line.substr(0, kUtf8Bom.size()) == kUtf8Bom) {
      line.remove_prefix(kUtf8Bom.size());
    }
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.size() <= kMaxRolloutLineBytes) {
      Result<JsonValue> parsed = ParseJson(line);
      if (parsed.has_value() && parsed->is_object() &&
          !visit(RolloutRecord{0, std::move(parsed).value()})) {
        return;
      }
    }
    at = line_end >= text.size() ? std::string_view::npos : text.find(needle, line_end + 1);
  }
}

}  // namespace agentctx
