// SPDX-License-Identifier: MIT
// Middle truncation of text to a byte budget (tool outputs on record; reused by local
// compaction to cut the oldest kept user message). Lives in support so tools and compaction
// share it without a dependency between them.
// Algorithm: text of at most `budget_bytes` bytes is returned unchanged. Otherwise keep
// `left = floor(budget/2)` bytes from the start and `right = budget − left` bytes from the end,
// each shrunk to a character boundary (the left end moves down, the right start moves up), and
// put between them `…<n> chars truncated…` (bytes mode, n = removed characters) or
// `…<n> tokens truncated…` (tokens mode, n = ceil(removed bytes / 4)). Budget 0 → the marker
// alone. `…` is U+2026. Integer arithmetic only.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "agentctx/wire_enums.h"

namespace agentctx {

/// `text` middle-cut to `budget_bytes` (the marker is not counted); `text` should be UTF-8.
std::string TruncateMiddle(std::string_view text, std::uint64_t budget_bytes, TruncationMode mode);

}  // namespace agentctx
