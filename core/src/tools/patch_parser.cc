// SPDX-License-Identifier: MIT
// Parser of the Codex patch format (ours); see patch_parser.h.
#include "tools/patch_parser.h"

namespace agentctx {
namespace {

constexpr std::string_view kBegin = "*** Begin Patch";
constexpr std::string_view kEnd = "*** End Patch";
constexpr std::string_view kAdd = "*** Add File: ";
constexpr std::string_view kDelete = "*** Delete File: ";
constexpr std::string_view kUpdate = "*** Update File: ";
constexpr std::string_view kMoveTo = "*** Move to: ";
constexpr std::string_view kEndOfFile = "*** End of File";

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && IsSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsSpace(s.back())) s.remove_suffix(1);
  return s;
}

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

Unexpected<Error> Bad(std::size_t line, std::string why) {
  return Fail(ErrorCode::kInvalidInput, "line " + std::to_string(line) + ": " + why);
}

// Lines of `text` split on LF, each without a trailing CR.
std::vector<std::string_view> Lines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    start = end + 1;
  }
  return lines;
}

class Parser {
 public:
  Parser(std::vector<std::string_view> lines, std::size_t first_line_number)
      : lines_(std::move(lines)), base_(first_line_number) {}

  Result<std::vector<PatchHunk>> Run() {
    std::vector<PatchHunk> hunks;
    // lines_[0] is the Begin marker and lines_.back() the End marker.
    i_ = 1;
    while (i_ + 1 < lines_.size()) {
      if (Trim(lines_[i_]).empty()) {  // blank lines between hunks
        ++i_;
        continue;
      }
      ACTX_TRY(PatchHunk hunk, Hunk());
      hunks.push_back(std::move(hunk));
    }
    return hunks;
  }

 private:
  std::size_t Number(std::size_t index) const { return base_ + index; }
  std::size_t Last() const { return lines_.size() - 1; }  // index of the End marker

  Result<PatchHunk> Hunk() {
    std::string_view header = Trim(lines_[i_]);
    PatchHunk hunk;
    hunk.line = Number(i_);
    auto path_after = [&](std::string_view marker) -> Result<std::string> {
      std::string_view path = Trim(header.substr(marker.size()));
      if (path.empty()) return Bad(hunk.line, "`" + std::string(Trim(marker)) + "` needs a path");
      return std::string(path);
    };
    if (StartsWith(header, kAdd)) {
      hunk.kind = PatchHunk::Kind::kAdd;
      ACTX_TRY(hunk.path, path_after(kAdd));
      ++i_;
      while (i_ < Last() && StartsWith(lines_[i_], "+")) {
        hunk.contents.append(lines_[i_].substr(1));
        hunk.contents.push_back('\n');
        ++i_;
      }
      return hunk;
    }
    if (StartsWith(header, kDelete)) {
      hunk.kind = PatchHunk::Kind::kDelete;
      ACTX_TRY(hunk.path, path_after(kDelete));
      ++i_;
      return hunk;
    }
    if (!StartsWith(header, kUpdate)) {
      return Bad(hunk.line, "`" + std::string(header) +
                                "` is not a hunk header (expected `*** Add File: <path>`, "
                                "`*** Delete File: <path>` or `*** Update File: <path>`)");
    }
    hunk.kind = PatchHunk::Kind::kUpdate;
    ACTX_TRY(hunk.path, path_after(kUpdate));
    ++i_;
    if (i_ < Last() && StartsWith(Trim(lines_[i_]), kMoveTo)) {
      std::string_view to = Trim(Trim(lines_[i_]).substr(kMoveTo.size()));
      if (to.empty()) return Bad(Number(i_), "`*** Move to:` needs a path");
      hunk.move_to = std::string(to);
      ++i_;
    }
    while (i_ < Last()) {
      if (Trim(lines_[i_]).empty()) {  // blank lines between chunks
        ++i_;
        continue;
      }
      if (StartsWith(lines_[i_], "*")) break;  // the next hunk
      ACTX_TRY(PatchChunk chunk, Chunk(hunk.chunks.empty()));
      hunk.chunks.push_back(std::move(chunk));
    }
    if (hunk.chunks.empty() && hunk.move_to.empty()) {
      return Bad(hunk.line, "`*** Update File: " + hunk.path + "` has no changes");
    }
    return hunk;
  }

  Result<PatchChunk> Chunk(bool first) {
    PatchChunk chunk;
    std::string_view head = lines_[i_];
    if (Trim(head) == "@@") {
      ++i_;
    } else if (StartsWith(head, "@@ ")) {
      chunk.context = std::string(head.substr(3));
      ++i_;
    } else if (!first) {
      return Bad(Number(i_), "expected a `@@` chunk header, got `" + std::string(head) + "`");
    }
    std::size_t parsed = 0;
    while (i_ < Last()) {
      std::string_view line = lines_[i_];
      if (Trim(line) == kEndOfFile) {
        if (parsed == 0) return Bad(Number(i_), "a chunk has no lines before `*** End of File`");
        chunk.end_of_file = true;
        ++i_;
        break;
      }
      if (line.empty()) {
        chunk.old_lines.emplace_back();
        chunk.new_lines.emplace_back();
      } else if (line[0] == ' ') {
        chunk.old_lines.emplace_back(line.substr(1));
        chunk.new_lines.emplace_back(line.substr(1));
      } else if (line[0] == '-') {
        chunk.old_lines.emplace_back(line.substr(1));
      } else if (line[0] == '+') {
        chunk.new_lines.emplace_back(line.substr(1));
      } else {
        if (parsed == 0) {
          return Bad(Number(i_), "unexpected line `" + std::string(line) +
                                     "` in a chunk: every line starts with ` ` (context), `-` "
                                     "(removed) or `+` (added)");
        }
        break;  // the next chunk or hunk
      }
      ++parsed;
      ++i_;
    }
    if (parsed == 0) return Bad(Number(i_), "a chunk has no lines");
    return chunk;
  }

  std::vector<std::string_view> lines_;
  std::size_t base_;
  std::size_t i_ = 0;
};

}  // namespace

Result<std::vector<PatchHunk>> ParsePatch(std::string_view text) {
  std::vector<std::string_view> lines = Lines(Trim(text));
  std::size_t base = 1;
  auto first_is = [](const std::vector<std::string_view>& l, std::string_view m) {
    return !l.empty() && Trim(l.front()) == m;
  };
  auto last_is = [](const std::vector<std::string_view>& l, std::string_view m) {
    return l.size() >= 2 && Trim(l.back()) == m;
  };
  if (!(first_is(lines, kBegin) && last_is(lines, kEnd)) && lines.size() >= 4) {
    std::string_view first = Trim(lines.front());
    bool heredoc = first == "<<EOF" || first == "<<'EOF'" || first == "<<\"EOF\"";
    std::string_view last = Trim(lines.back());
    if (heredoc && last.size() >= 3 && last.substr(last.size() - 3) == "EOF") {
      lines = std::vector<std::string_view>(lines.begin() + 1, lines.end() - 1);
      base = 2;
    }
  }
  if (!first_is(lines, kBegin)) return Bad(base, "the patch must start with `*** Begin Patch`");
  if (!last_is(lines, kEnd)) {
    return Bad(base + lines.size() - 1, "the patch must end with `*** End Patch`");
  }
  Parser parser(std::move(lines), base);
  return parser.Run();
}

}  // namespace agentctx
