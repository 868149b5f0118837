// SPDX-License-Identifier: MIT
// The pure new-history rebuild of local compaction, also used on resume for a Codex `compacted`
// line without `replacement_history`.
// Algorithm (BuildCompactedHistory):
//  1. Collect the real user messages of history (message_kind.h: neither contextual nor summaries),
//     each as the texts of its `input_text` parts joined by "\n" (images are dropped).
//  2. Newest first, keep them while the running total of ceil(bytes/4) stays ≤ 20000
//     (COMPACT_USER_MESSAGE_MAX_TOKENS); the first one that would cross is middle-cut in tokens
//     mode to the remaining budget (remaining·4 bytes, support/truncate.h) and the walk stops.
//  3. Back in chronological order, each becomes a user message with one `input_text` part;
//     then the user message `summary_text` is appended.
// Invariants: pure; the output items are canonical (protocol/items.h); history is not modified.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/items.h"
#include "protocol/json_value.h"

namespace agentctx {

/// COMPACT_USER_MESSAGE_MAX_TOKENS: the most tokens of user messages kept (step 2 above).
inline constexpr std::uint64_t kCompactUserMessageMaxTokens = 20000;
/// The summary used when the model returned no text.
inline constexpr std::string_view kNoSummaryAvailable = "(no summary available)";

/// The text of each real user message of `history`, in order (parts joined by "\n").
std::vector<std::string> CollectRealUserTexts(const std::vector<RecordedItem>& history);

/// Step 2 above over `texts` (oldest first); returns the kept texts, oldest first.
std::vector<std::string> SelectUserTexts(const std::vector<std::string>& texts,
                                         std::uint64_t max_tokens);

/// The new history: kept real user messages, then the user message `summary_text`. An empty
/// `summary_text` becomes `(no summary available)` (upstream, for imported lines).
std::vector<JsonValue> BuildCompactedHistory(const std::vector<RecordedItem>& history,
                                             std::string_view summary_text);

/// The same as recorded items (turn id of the newest history item, origin `compaction`): the
/// resume rebuilder for `compacted` lines without replacement_history.
std::vector<RecordedItem> RebuildCompactedHistory(const std::vector<RecordedItem>& history,
                                                  std::string_view message);

}  // namespace agentctx
