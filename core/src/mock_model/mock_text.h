// SPDX-License-Identifier: MIT
// Text rules of the mock model: directives and file references found in the last
// real user message `U`, and the AGENTS.md reply directives.
// Invariants: pure functions over valid UTF-8; ASCII-only case folding; no state.
//  - Tokens are split on Unicode White_Space. A token is stripped of leading ``"'`()[]{}<>,;:!?``
//    and of trailing ones plus at most one trailing `.` (so `README.md.` and `(a.rs).` work).
//  - A file reference has no `://` and contains `/` or matches
//    `^[A-Za-z0-9_-][A-Za-z0-9_.-]*\.[A-Za-z0-9]{1,8}$` with >= 2 characters before the last dot.
//  - `#mock-write:<path>=<rest of line>` consumes the rest of its line (the content is never
//    scanned for references); `#mock-list:<path>` is one token; `#mock-fail…` tokens are skipped.
//  - Ours, for the agent-grade tools (each consumes the rest of its line unless noted):
//    `#mock-edit:<path>=<old>=><new>` (edit_file; `#mock-edit-all:` adds replace_all),
//    `#mock-grep:<pattern>` (grep; the pattern is the trimmed rest of the line),
//    `#mock-glob:<pattern>` (glob; one token), `#mock-patch:<patch>` (apply_patch: with
//    nothing after the colon, the patch is the following lines through the first line that
//    trims to `*** End Patch`; otherwise the rest of the line with each two-character `\n`
//    read as a line break).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace agentctx {

/// A tool call requested by `U` (before filtering by the request's tools).
struct MockCallRequest {
  std::string name;     // read_file | list_dir | write_file | edit_file | apply_patch | grep | glob
  std::string path;     // read_file, list_dir, write_file, edit_file
  std::string content;  // write_file; apply_patch: the patch; grep, glob: the pattern
  std::string old_string;    // edit_file
  std::string new_string;    // edit_file
  bool replace_all = false;  // edit_file
  bool raw = false;          // #mock-call: `content` holds the arguments verbatim
};

/// The calls `U` asks for, in order of appearance (mock_rules.h rule 3), unlimited and
/// unfiltered.
std::vector<MockCallRequest> ExtractMockCalls(std::string_view u);
/// `token` stripped as a reference candidate (see the header comment).
std::string_view StripReferenceToken(std::string_view token);
/// True if the stripped token is a file reference.
bool IsFileReference(std::string_view stripped);

/// `#mock-fail:<code>` / `#mock-fail-once:<code>` (the first one in `u` with a non-empty code of
/// `[A-Za-z0-9_-]` characters).
struct MockFailDirective {
  std::string code;
  bool once = false;
};
std::optional<MockFailDirective> FindFailDirective(std::string_view u);

/// AGENTS.md reply directives (last occurrence wins).
struct ReplyDirectives {
  bool uppercase = false;
  std::optional<std::string> prefix;
  std::optional<std::string> suffix;
};
/// Parses one AGENTS.md part: none if it carries the removal notice; each line trimmed and
/// matched case-insensitively against `reply prefix: X`, `reply suffix: X`,
/// `reply in uppercase` (optional trailing `.`). Empty X is ignored.
ReplyDirectives ParseReplyDirectives(std::string_view agents_part);
/// Applies uppercase (ASCII), then `X + " " + text`, then `text + " " + X`.
std::string ApplyReplyDirectives(const ReplyDirectives& directives, std::string text);

/// The first line of `text` (up to the first LF), cut to at most `max_chars` characters.
std::string_view FirstLine(std::string_view text, std::size_t max_chars);

}  // namespace agentctx
