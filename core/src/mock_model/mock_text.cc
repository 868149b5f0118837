// SPDX-License-Identifier: MIT
// Text rules of the mock model (SPEC §14.1); see mock_text.h.
#include "mock_model/mock_text.h"

#include "support/utf8.h"

namespace agentctx {
namespace {

constexpr std::string_view kStripChars = "\"'`()[]{}<>,;:!?";
constexpr std::string_view kWritePrefix = "#mock-write:";
constexpr std::string_view kListPrefix = "#mock-list:";
constexpr std::string_view kFailPrefix = "#mock-fail:";
constexpr std::string_view kFailOncePrefix = "#mock-fail-once:";
constexpr std::string_view kRemovalNotice =
    "The previously provided AGENTS.md instructions no longer apply.";

bool IsStripChar(char c) { return kStripChars.find(c) != std::string_view::npos; }
bool IsAsciiAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}
char AsciiLower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }
char AsciiUpper(char c) { return (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c; }

bool StartsWithIgnoreAsciiCase(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    if (AsciiLower(s[i]) != AsciiLower(prefix[i])) return false;
  }
  return true;
}

// Length of the Unicode White_Space character at s[i], or 0 if s[i] starts something else.
std::size_t WhiteSpaceAt(std::string_view s, std::size_t i) {
  std::size_t n = Utf8SequenceLength(s, i, nullptr);
  if (n == 0) return 0;
  return TrimUnicode(s.substr(i, n)).empty() ? n : 0;
}

// Splits `line` into Unicode-whitespace-separated tokens (views into `line`).
std::vector<std::string_view> Tokens(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < line.size()) {
    std::size_t ws = WhiteSpaceAt(line, i);
    if (ws != 0) {
      i += ws;
      continue;
    }
    std::size_t start = i;
    while (i < line.size() && WhiteSpaceAt(line, i) == 0) {
      std::size_t n = Utf8SequenceLength(line, i, nullptr);
      i += n == 0 ? 1 : n;
    }
    out.push_back(line.substr(start, i - start));
  }
  return out;
}

}  // namespace

std::string_view StripReferenceToken(std::string_view token) {
  while (!token.empty() && IsStripChar(token.front())) token.remove_prefix(1);
  bool dot_removed = false;
  while (!token.empty()) {
    char c = token.back();
    if (IsStripChar(c)) {
      token.remove_suffix(1);
    } else if (c == '.' && !dot_removed) {
      token.remove_suffix(1);
      dot_removed = true;
    } else {
      break;
    }
  }
  return token;
}

bool IsFileReference(std::string_view t) {
  if (t.empty() || t.find("://") != std::string_view::npos) return false;
  if (t.find('/') != std::string_view::npos) return true;
  // ^[A-Za-z0-9_-][A-Za-z0-9_.-]*\.[A-Za-z0-9]{1,8}$ with >= 2 characters before the last dot.
  auto name_char = [](char c) { return IsAsciiAlnum(c) || c == '_' || c == '-'; };
  if (!name_char(t[0])) return false;
  for (char c : t) {
    if (!name_char(c) && c != '.') return false;
  }
  std::size_t dot = t.rfind('.');
  if (dot == std::string_view::npos || dot < 2) return false;
  std::size_t ext = t.size() - dot - 1;
  if (ext < 1 || ext > 8) return false;
  for (std::size_t i = dot + 1; i < t.size(); ++i) {
    if (!IsAsciiAlnum(t[i])) return false;
  }
  return true;
}

std::vector<MockCallRequest> ExtractMockCalls(std::string_view u) {
  std::vector<MockCallRequest> calls;
  std::size_t line_start = 0;
  while (line_start <= u.size()) {
    std::size_t line_end = u.find('\n', line_start);
    if (line_end == std::string_view::npos) line_end = u.size();
    std::string_view line = u.substr(line_start, line_end - line_start);
    for (std::string_view token : Tokens(line)) {
      if (token.substr(0, kWritePrefix.size()) == kWritePrefix) {
        // The directive owns the rest of the line: `<path>=<content>`.
        std::size_t at = static_cast<std::size_t>(token.data() - line.data()) + kWritePrefix.size();
        std::string_view rest = line.substr(at);
        std::size_t eq = rest.find('=');
        if (eq != std::string_view::npos && eq > 0) {
          calls.push_back(
              {"write_file", std::string(rest.substr(0, eq)), std::string(rest.substr(eq + 1))});
        }
        break;
      }
      if (token.substr(0, kListPrefix.size()) == kListPrefix) {
        std::string_view path = token.substr(kListPrefix.size());
        if (!path.empty()) calls.push_back({"list_dir", std::string(path), ""});
        continue;
      }
      if (token.substr(0, 10) == "#mock-fail") continue;
      std::string_view stripped = StripReferenceToken(token);
      if (IsFileReference(stripped)) calls.push_back({"read_file", std::string(stripped), ""});
    }
    line_start = line_end + 1;
  }
  return calls;
}

std::optional<MockFailDirective> FindFailDirective(std::string_view u) {
  for (std::size_t i = u.find("#mock-fail"); i != std::string_view::npos;
       i = u.find("#mock-fail", i + 1)) {
    std::string_view at = u.substr(i);
    bool once = at.substr(0, kFailOncePrefix.size()) == kFailOncePrefix;
    if (!once && at.substr(0, kFailPrefix.size()) != kFailPrefix) continue;
    std::string_view rest = at.substr(once ? kFailOncePrefix.size() : kFailPrefix.size());
    std::size_t n = 0;
    while (n < rest.size() && (IsAsciiAlnum(rest[n]) || rest[n] == '_' || rest[n] == '-')) ++n;
    if (n == 0) continue;
    return MockFailDirective{std::string(rest.substr(0, n)), once};
  }
  return std::nullopt;
}

ReplyDirectives ParseReplyDirectives(std::string_view part) {
  ReplyDirectives d;
  if (part.find(kRemovalNotice) != std::string_view::npos) return d;
  std::size_t start = 0;
  while (start <= part.size()) {
    std::size_t end = part.find('\n', start);
    if (end == std::string_view::npos) end = part.size();
    std::string_view line = TrimUnicode(part.substr(start, end - start));
    start = end + 1;
    if (StartsWithIgnoreAsciiCase(line, "reply prefix:")) {
      std::string_view x = TrimUnicode(line.substr(13));
      if (!x.empty()) d.prefix = std::string(x);
    } else if (StartsWithIgnoreAsciiCase(line, "reply suffix:")) {
      std::string_view x = TrimUnicode(line.substr(13));
      if (!x.empty()) d.suffix = std::string(x);
    } else if (StartsWithIgnoreAsciiCase(line, "reply in uppercase") &&
               (line.size() == 18 || (line.size() == 19 && line[18] == '.'))) {
      d.uppercase = true;
    }
  }
  return d;
}

std::string ApplyReplyDirectives(const ReplyDirectives& d, std::string text) {
  if (d.uppercase) {
    for (char& c : text) c = AsciiUpper(c);
  }
  if (d.prefix.has_value()) text = *d.prefix + " " + text;
  if (d.suffix.has_value()) text = text + " " + *d.suffix;
  return text;
}

std::string_view FirstLine(std::string_view text, std::size_t max_chars) {
  std::size_t end = text.find('\n');
  if (end != std::string_view::npos) text = text.substr(0, end);
  std::size_t i = 0;
  for (std::size_t count = 0; i < text.size() && count < max_chars; ++count) {
    std::size_t n = Utf8SequenceLength(text, i, nullptr);
    i += n == 0 ? 1 : n;
  }
  return text.substr(0, i);
}

}  // namespace agentctx
