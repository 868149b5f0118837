// SPDX-License-Identifier: MIT
// Rollout line checks during resume (ours, docs/RELIABILITY.md): reordered or duplicated lines
// are said, never accepted silently.
// Rules:
//  1. Duplicates. Each response_item has identity keys: `call <type> <call_id>` for a `*_call`,
//     `output <type> <call_id>` for a `*_output`, and `id <id>` for any item with a non-empty
//     string `id`. An item with a key already in the history (since the last compaction, whose
//     replacement items are keyed afresh) is skipped with warning `rollout_duplicate_item`
//     ``skipped rollout line <n>: duplicate of line <m> (<key>)``, so a resumed request never
//     carries an item twice. Items without keys (most messages) are never deduplicated.
//  2. Order. A history line (response_item, compacted) whose `timestamp` is older than an
//     earlier history line's, or a `*_call` whose call id already had an output, is out of
//     order. (Other lines are not compared: Codex writes token_count events with slightly
//     earlier timestamps.) The lines are still applied in file order, and one warning
//     `rollout_out_of_order` says so: ``rollout lines out of order: line <n> is older than
//     line <m> (<k> lines in all)``. Unparsable or missing timestamps are not compared.
// Invariants: pure; memory is one string per keyed item of the current history.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "protocol/items.h"
#include "protocol/json_value.h"
#include "protocol/warning.h"

namespace agentctx {

/// Rule 1: the identity keys of one item (possibly none).
std::vector<std::string> ItemKeys(const JsonValue& item);

class RolloutLineChecks {
 public:
  /// Rule 1: true when `item` (line `line_number`) duplicates an item already kept (warned);
  /// else its keys are remembered and false.
  bool IsDuplicate(const JsonValue& item, std::uint64_t line_number,
                   std::vector<Warning>* warnings);
  /// A compaction replaced the history (rule 1: keyed afresh, line 0): by the raw items of
  /// `replacement` when it is an array (canonical items may have lost their ids), else by
  /// `history`.
  void ResetTo(const JsonValue* replacement, const std::vector<RecordedItem>& history);
  /// Rule 2: notes history line `line_number`'s timestamp (when it has one).
  void NoteTimestamp(const JsonValue& line, std::uint64_t line_number);
  /// Rule 2: the out-of-order warning, when any line was out of order.
  void Finish(std::vector<Warning>* warnings) const;

 private:
  void NoteLate(std::uint64_t line_number, std::uint64_t newer_line);

  std::map<std::string, std::uint64_t> seen_;     // key -> line number
  std::map<std::string, std::uint64_t> outputs_;  // call id answered -> line number
  std::optional<std::int64_t> newest_ms_;
  std::uint64_t newest_line_ = 0;
  std::uint64_t first_late_line_ = 0;  // 0: none yet
  std::uint64_t first_late_newer_ = 0;
  std::uint64_t late_lines_ = 0;
};

}  // namespace agentctx
