// SPDX-License-Identifier: MIT
// Applying an `*** Update File:` hunk's chunks to a file's text (ours, after upstream's rules).
// Algorithm: 1. split the text into lines (a final LF ends the last line; a file whose first
// line ends in CRLF is a CRLF file: CRs are stripped and put back on write); 2. for each chunk
// in order, from the line after the previous chunk: find its `@@ <line>` if any, then its old
// lines — exact, then ignoring trailing whitespace, then ignoring surrounding whitespace, then
// with typographic dashes, quotes and spaces folded to ASCII; a chunk closed by
// `*** End of File` is tried at the end of the file first; old lines ending in an empty line
// are retried without it (the file's final newline); a chunk with no old lines is inserted
// right after its `@@` line, or at the end of the file without one; 3. replace from the bottom
// up; 4. join, ending with a newline.
// Errors (kInvalidInput): which chunk did not match and the lines that were looked for.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "agentctx/result.h"
#include "tools/patch_parser.h"

namespace agentctx {

/// The new text of `path` (used in messages only) after `chunks`.
Result<std::string> ApplyPatchChunks(std::string_view content,
                                     const std::vector<PatchChunk>& chunks, std::string_view path);

/// `line` trimmed, with typographic dashes, quotes and odd spaces folded to ASCII.
std::string FoldPunctuation(std::string_view line);

}  // namespace agentctx
