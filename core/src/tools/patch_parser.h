// SPDX-License-Identifier: MIT
// Parser of the Codex patch format used by `apply_patch` (the format upstream models are
// trained on; this implementation is ours):
//   *** Begin Patch
//   *** Add File: <path>          then `+<line>` lines: the new file (each line + LF)
//   *** Delete File: <path>
//   *** Update File: <path>
//   *** Move to: <path>           optional, right after Update File
//   @@ [<line to find first>]     a chunk: ` ` context, `-` removed, `+` added lines; the first
//                                 chunk may omit its `@@`; an empty line is an empty context line
//   *** End of File               optional, ends a chunk that must match at the end of the file
//   *** End Patch
// Lenient like upstream: the text is trimmed, lines may end in CRLF, markers may carry
// surrounding spaces, blank lines between chunks are skipped, and a heredoc wrapper
// (`<<'EOF'` … `EOF`) is removed. Ours: an Update File with a Move to may have no chunks (a
// pure rename).
// Errors (kInvalidInput) name the 1-based patch line: `line <n>: <why>`.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "agentctx/result.h"

namespace agentctx {

struct PatchChunk {
  std::optional<std::string> context;  // the `@@ <line>` to find before old_lines
  std::vector<std::string> old_lines;  // context and `-` lines, in order
  std::vector<std::string> new_lines;  // context and `+` lines, in order
  bool end_of_file = false;            // `*** End of File` closed the chunk
};

struct PatchHunk {
  enum class Kind { kAdd, kDelete, kUpdate };
  Kind kind = Kind::kAdd;
  std::string path;                // as written in the patch (relative or absolute)
  std::string move_to;             // kUpdate with `*** Move to:`; empty otherwise
  std::string contents;            // kAdd: the file's bytes
  std::vector<PatchChunk> chunks;  // kUpdate
  std::size_t line = 0;            // 1-based line of the hunk header
};

/// Parses a whole patch; an empty hunk list is valid syntax (the caller decides).
Result<std::vector<PatchHunk>> ParsePatch(std::string_view text);

}  // namespace agentctx
