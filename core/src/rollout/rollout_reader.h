// SPDX-License-Identifier: MIT
// Tolerant rollout JSONL reader (resume and replay read rollouts with it; docs/replay.md).
// Algorithm:
//  0. A UTF-8 BOM at the very start of the text is dropped (the host does the same when it
//     reads the session id, so `resume` and `replay` accept the same files).
//  1. Split on LF; a CR right before an LF is stripped (older Codex files are CRLF); an empty
//     final segment (text ending in LF, or empty text) is ignored.
//  1'. Blank lines (empty or whitespace only) are skipped wherever they are, as Codex's reader
//     does, with one warning `rollout_blank_line` for all of them (``skipped <k> blank rollout
//     lines (first: line <n>)``). Line numbers still count them.
//  2. Each line must be a JSON object. An invalid **last** line is skipped with warning
//     `rollout_torn_line` (a write cut short by a crash); any other invalid line fails the
//     whole parse with kRolloutCorrupt naming its 1-based line number (details "line").
//  2'. (ours, issue 17) A line longer than kMaxRolloutLineBytes is not parsed: it is skipped
//     with warning `rollout_line_too_large` (``skipped rollout line <n>: <size> bytes, over
//     the limit of <limit> bytes``) and the rest is read as usual, so the session resumes
//     (an unanswered call it leaves behind gets `aborted`, as for_prompt pairs every call).
//  3. Nothing is interpreted here: unknown types and fields are kept in the record and
//     ignored by the consumers (resume_state.h, replay.h).
// ForEachRolloutRecord applies the same rules one line at a time and keeps none of them (the
// replay's single pass: its memory is the text and one parsed line, not every parsed line).
// Invariants: pure; never aborts on bad input.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

#include "agentctx/result.h"
#include "protocol/json_value.h"
#include "protocol/warning.h"

namespace agentctx {

/// The longest rollout line parsed (64 MiB: twice the SSE event limit, so any item a stream
/// could deliver fits with its JSON escaping).
inline constexpr std::size_t kMaxRolloutLineBytes = std::size_t{64} << 20;

/// One parsed line.
struct RolloutRecord {
  std::uint64_t line_number = 0;  ///< 1-based
  JsonValue line;                 ///< the whole line (a JSON object)

  /// The line's `type` ("" when absent or not a string).
  std::string_view type() const;
  /// The line's `payload`, or nullptr when absent.
  const JsonValue* payload() const;
  /// For event_msg lines: the payload's `type` ("" otherwise).
  std::string_view event_type() const;
};

struct ParsedRollout {
  std::vector<RolloutRecord> records;
  std::vector<Warning> warnings;
};

/// Parses rollout text. Errors: kRolloutCorrupt (`rollout line <n> is
/// invalid: <why>`, details {"line": "<n>"}).
Result<ParsedRollout> ParseRollout(std::string_view text);
/// The same with another line limit (tests).
Result<ParsedRollout> ParseRollout(std::string_view text, std::size_t max_line_bytes);

/// The rules above one line at a time: `visit` gets each valid line in order (the record is the
/// visitor's to keep or drop); warnings are appended to `*warnings` as ParseRollout lists them.
/// Returns the number of valid lines. A corrupt line stops the pass with kRolloutCorrupt after
/// the lines before it were visited. A line for which `validate_only` (when set) returns true
/// is checked by the same rules but not built nor visited (a line the caller would drop).
Result<std::uint64_t> ForEachRolloutRecord(
    std::string_view text, const std::function<void(RolloutRecord&&)>& visit,
    std::vector<Warning>* warnings, std::size_t max_line_bytes = kMaxRolloutLineBytes,
    const std::function<bool(std::string_view line)>& validate_only = {});

/// Each valid line whose bytes contain `needle`, parsed (a cheap pre-scan for a rare line type:
/// the other lines are never parsed). Invalid lines are skipped silently (the full pass reports
/// them). `visit` returns false to stop.
void ForEachRolloutLineContaining(std::string_view text, std::string_view needle,
                                  const std::function<bool(const RolloutRecord&)>& visit);

}  // namespace agentctx
