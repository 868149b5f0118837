// SPDX-License-Identifier: MIT
// Applying Update File chunks (ours); see patch_chunks.h.
#include "tools/patch_chunks.h"

#include <algorithm>
#include <cstdint>
#include <optional>

#include "support/utf8.h"

namespace agentctx {
namespace {

struct Replacement {
  std::size_t start;
  std::size_t old_len;
  std::vector<std::string> lines;
};

std::string_view TrimEnd(std::string_view s) {
  std::string_view t = TrimUnicode(s);
  if (t.empty()) return t;
  // Keep the leading part: trim only the end.
  return s.substr(0, static_cast<std::size_t>(t.data() - s.data()) + t.size());
}

std::uint32_t Decode(std::string_view s, std::size_t i, std::size_t* len) {
  return DecodeUtf8At(s, i, len);
}

char FoldedAscii(std::uint32_t c) {
  switch (c) {
    case 0x2010:
    case 0x2011:
    case 0x2012:
    case 0x2013:
    case 0x2014:
    case 0x2015:
    case 0x2212:
      return '-';
    case 0x2018:
    case 0x2019:
    case 0x201A:
    case 0x201B:
      return '\'';
    case 0x201C:
    case 0x201D:
    case 0x201E:
    case 0x201F:
      return '"';
    case 0x00A0:
    case 0x2002:
    case 0x2003:
    case 0x2004:
    case 0x2005:
    case 0x2006:
    case 0x2007:
    case 0x2008:
    case 0x2009:
    case 0x200A:
    case 0x202F:
    case 0x205F:
    case 0x3000:
      return ' ';
    default:
      return '\0';
  }
}

enum class Strictness { kExact, kTrimEnd, kTrim, kFolded };

bool LineEquals(std::string_view a, std::string_view b, Strictness how) {
  switch (how) {
    case Strictness::kExact:
      return a == b;
    case Strictness::kTrimEnd:
      return TrimEnd(a) == TrimEnd(b);
    case Strictness::kTrim:
      return TrimUnicode(a) == TrimUnicode(b);
    case Strictness::kFolded:
      return FoldPunctuation(a) == FoldPunctuation(b);
  }
  return false;
}

// The first index >= start where `pattern` matches `lines` (upstream's seek order: each
// strictness level over all positions before the next, laxer one).
std::optional<std::size_t> Seek(const std::vector<std::string>& lines,
                                const std::vector<std::string>& pattern, std::size_t start,
                                bool end_of_file) {
  if (pattern.empty()) return start;
  if (pattern.size() > lines.size()) return std::nullopt;
  const std::size_t last = lines.size() - pattern.size();
  std::size_t from = end_of_file ? last : start;
  for (Strictness how :
       {Strictness::kExact, Strictness::kTrimEnd, Strictness::kTrim, Strictness::kFolded}) {
    for (std::size_t i = from; i <= last; ++i) {
      bool ok = true;
      for (std::size_t k = 0; k < pattern.size() && ok; ++k) {
        ok = LineEquals(lines[i + k], pattern[k], how);
      }
      if (ok) return i;
    }
  }
  if (end_of_file && start < from) return Seek(lines, pattern, start, false);
  return std::nullopt;
}

std::string Joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& line : lines) {
    if (!out.empty()) out += "\n";
    out += line;
  }
  return out;
}

}  // namespace

std::string FoldPunctuation(std::string_view line) {
  std::string_view t = TrimUnicode(line);
  std::string out;
  out.reserve(t.size());
  for (std::size_t i = 0; i < t.size();) {
    std::size_t len = 0;
    char folded = FoldedAscii(Decode(t, i, &len));
    if (folded != '\0') {
      out.push_back(folded);
    } else {
      out.append(t.substr(i, len));
    }
    i += len;
  }
  return out;
}

Result<std::string> ApplyPatchChunks(std::string_view content,
                                     const std::vector<PatchChunk>& chunks, std::string_view path) {
  const std::size_t first_newline = content.find('\n');
  const bool crlf = first_newline != std::string_view::npos && first_newline > 0 &&
                    content[first_newline - 1] == '\r';
  std::vector<std::string> lines;
  for (std::size_t start = 0; start < content.size();) {
    std::size_t end = content.find('\n', start);
    if (end == std::string_view::npos) end = content.size();
    std::string_view line = content.substr(start, end - start);
    if (crlf && !line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.emplace_back(line);
    start = end + 1;
  }

  std::vector<Replacement> replacements;
  std::size_t line_index = 0;
  for (std::size_t c = 0; c < chunks.size(); ++c) {
    const PatchChunk& chunk = chunks[c];
    const std::string which = "chunk " + std::to_string(c + 1) + " of " + std::string(path);
    if (chunk.context.has_value()) {
      std::optional<std::size_t> at = Seek(lines, {*chunk.context}, line_index, false);
      if (!at.has_value()) {
        return Fail(ErrorCode::kInvalidInput,
                    which + ": its `@@ " + *chunk.context + "` line was not found" +
                        (line_index > 0 ? " after the previous chunk" : ""));
      }
      line_index = *at + 1;
    }
    if (chunk.old_lines.empty()) {
      std::size_t at = chunk.context.has_value() && !chunk.end_of_file ? line_index : lines.size();
      replacements.push_back({at, 0, chunk.new_lines});
      continue;
    }
    const std::vector<std::string>* pattern = &chunk.old_lines;
    const std::vector<std::string>* replacement = &chunk.new_lines;
    std::optional<std::size_t> at = Seek(lines, *pattern, line_index, chunk.end_of_file);
    std::vector<std::string> trimmed_old;
    std::vector<std::string> trimmed_new;
    if (!at.has_value() && pattern->back().empty()) {
      trimmed_old.assign(pattern->begin(), pattern->end() - 1);
      trimmed_new = *replacement;
      if (!trimmed_new.empty() && trimmed_new.back().empty()) trimmed_new.pop_back();
      pattern = &trimmed_old;
      replacement = &trimmed_new;
      at = Seek(lines, *pattern, line_index, chunk.end_of_file);
    }
    if (!at.has_value()) {
      return Fail(ErrorCode::kInvalidInput,
                  which + " does not match the file: these lines were not found" +
                      (line_index > 0 ? " after the previous chunk" : "") + ":\n" +
                      Joined(chunk.old_lines));
    }
    replacements.push_back({*at, pattern->size(), *replacement});
    line_index = *at + pattern->size();
  }

  std::stable_sort(replacements.begin(), replacements.end(),
                   [](const Replacement& a, const Replacement& b) { return a.start < b.start; });
  for (std::size_t i = 1; i < replacements.size(); ++i) {
    const Replacement& prev = replacements[i - 1];
    if (replacements[i].start < prev.start + prev.old_len) {
      return Fail(ErrorCode::kInvalidInput, "chunks of " + std::string(path) +
                                                " overlap (each chunk must come after the "
                                                "previous one in the file)");
    }
  }
  for (std::size_t i = replacements.size(); i-- > 0;) {
    const Replacement& r = replacements[i];
    lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(r.start),
                lines.begin() + static_cast<std::ptrdiff_t>(r.start + r.old_len));
    lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(r.start), r.lines.begin(),
                 r.lines.end());
  }
  std::string out;
  const std::string_view eol = crlf ? "\r\n" : "\n";
  for (const std::string& line : lines) {
    out += line;
    out += eol;
  }
  return out;
}

}  // namespace agentctx
