// SPDX-License-Identifier: MIT
// Where the initial context goes back after a compaction, local or remote.
//  - kBeforeLastUserMessage (mid-turn): the full initial context (a full render) is inserted before
//    the last real user message of the new history; else before the last summary message; else
//    before the last `compaction` item (remote: it stays last); else at the end. The baseline
//    becomes the snapshot that was rendered.
//  - kDoNotInject (pre-turn, model switch, manual): nothing is inserted and the baseline is
//    cleared, so the next turn start renders the full context after the summary.
// Pure; mirrors upstream insert_initial_context_before_last_real_user_or_summary.
#pragma once

#include <cstddef>
#include <vector>

#include "protocol/json_value.h"

namespace agentctx {

enum class ContextInjection { kBeforeLastUserMessage, kDoNotInject };

/// The index in `new_history` at which the initial context is inserted (size() = append).
std::size_t ReinjectionIndex(const std::vector<JsonValue>& new_history);

/// `new_history` with `context` inserted at ReinjectionIndex().
std::vector<JsonValue> InsertInitialContext(std::vector<JsonValue> new_history,
                                            std::vector<JsonValue> context);

}  // namespace agentctx
