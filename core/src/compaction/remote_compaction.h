// SPDX-License-Identifier: MIT
// Remote compaction v1 (`responses/compact`): input trimming before the request and the keep
// rules for the returned `{"output":[…]}`.
// Input trimming (TrimRemoteInput): the input is for_prompt(history); walking from the end, the
// content of each tool output (function_call_output / custom_tool_call_output) is replaced by
// `Output exceeded the available model context and was truncated` until
// estimate_prompt ≤ usable. An output is only replaced when that makes it smaller (ours: a
// short output such as `aborted` is left alone). Without thresholds nothing is trimmed.
// Keep rules (KeepRemoteCompactionItem), on canonical items: user messages that are not
// contextual (real user messages; summaries too, as upstream), assistant messages and
// `compaction` items are kept; developer and contextual messages, other roles, reasoning, tool
// calls and outputs are dropped. The session then reinjects as after a local compaction
// (reinjection.h; with no user message: before the `compaction` item, which stays last) and
// persists `compacted{"message":"", replacement_history}`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "agentctx/result.h"
#include "compaction/token_accounting.h"
#include "protocol/json_value.h"
#include "protocol/warning.h"

namespace agentctx {

inline constexpr std::string_view kTruncatedToolOutputText =
    "Output exceeded the available model context and was truncated";

struct RemoteTrim {
  /// Per input item: the replacement item's canonical bytes, or nullopt when unchanged.
  std::vector<std::optional<std::string>> replaced;
  std::uint64_t replaced_count = 0;
  std::uint64_t estimate = 0;  ///< estimate_prompt after trimming
};

/// The input trimming above. `items[i].item` must be set for an output to be replaceable.
RemoteTrim TrimRemoteInput(std::string_view instructions_bytes, std::string_view tools_bytes,
                           const std::vector<EstimateItem>& items, std::uint64_t usable);

/// The keep rule for one canonical output item.
bool KeepRemoteCompactionItem(const JsonValue& item);

/// Parses a `responses/compact` body, canonicalises each output item (dropped items warn
/// `unsupported_item`) and applies the keep rule. Errors: kInvalidJson (bad JSON),
/// kInvalidInput (no `output` array).
Result<std::vector<JsonValue>> ParseRemoteCompactionOutput(std::string_view body,
                                                           std::vector<Warning>* warnings);

}  // namespace agentctx
