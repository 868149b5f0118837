// SPDX-License-Identifier: MIT
// Text rules of the mock model; see mock_text.h.
#include "mock_model/mock_text.h"

#include "support/text.h"
#include "support/utf8.h"

namespace agentctx {
namespace {

MockCallRequest MockCall(std::string_view name, std::string_view path) {
  MockCallRequest call;
  call.name = std::string(name);
  call.path = std::string(path);
  return call;
}

constexpr std::string_view kStripChars = "\"'`()[]{}<>,;:!?";
constexpr std::string_view kWritePrefix = "#mock-write:";
constexpr std::string_view kListPrefix = "#mock-list:";
constexpr std::string_view kEditPrefix = "#mock-edit:";
constexpr std::string_view kEditAllPrefix = "#mock-edit-all:";
constexpr std::string_view kPatchPrefix = "#mock-patch:";
constexpr std::string_view kGrepPrefix = "#mock-grep:";
constexpr std::string_view kGlobPrefix = "#mock-glob:";
constexpr std::string_view kCallPrefix = "#mock-call:";
constexpr std::string_view kEndPatch = "*** End Patch";
constexpr std::string_view kFailPrefix = "#mock-fail:";
constexpr std::string_view kFailOncePrefix = "#mock-fail-once:";
constexpr std::string_view kRemovalNotice =
    "The previously provided AGENTS.md instructions no longer apply.";

bool IsStripChar(char c) { return kStripChars.find(c) != std::string_view::npos; }
bool IsAsciiAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}
char AsciiUpper(char c) { return (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c; }

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
  std::vector<std::string_view> lines;
  for (std::size_t start = 0; start <= u.size();) {
    std::size_t end = u.find('\n', start);
    if (end == std::string_view::npos) end = u.size();
    lines.push_back(u.substr(start, end - start));
    start = end + 1;
  }
  for (std::size_t l = 0; l < lines.size(); ++l) {
    std::string_view line = lines[l];
    for (std::string_view token : Tokens(line)) {
      // The rest of the line from just after `prefix` (directives that own their line).
      std::size_t token_at = static_cast<std::size_t>(token.data() - line.data());
      auto rest_after = [&](std::string_view prefix) {
        return line.substr(token_at + prefix.size());
      };
      if (token.substr(0, kWritePrefix.size()) == kWritePrefix) {
        // The directive owns the rest of the line: `<path>=<content>`.
        std::string_view rest = rest_after(kWritePrefix);
        std::size_t eq = rest.find('=');
        if (eq != std::string_view::npos && eq > 0) {
          MockCallRequest call;
          call.name = "write_file";
          call.path = std::string(rest.substr(0, eq));
          call.content = std::string(rest.substr(eq + 1));
          calls.push_back(std::move(call));
        }
        break;
      }
      bool edit_all = token.substr(0, kEditAllPrefix.size()) == kEditAllPrefix;
      if (edit_all || token.substr(0, kEditPrefix.size()) == kEditPrefix) {
        // `<path>=<old>=><new>`: the path ends at the first `=`, old at the first `=>` after it.
        std::string_view rest = rest_after(edit_all ? kEditAllPrefix : kEditPrefix);
        std::size_t eq = rest.find('=');
        std::size_t arrow = eq == std::string_view::npos ? eq : rest.find("=>", eq + 1);
        if (eq != std::string_view::npos && eq > 0 && arrow != std::string_view::npos) {
          MockCallRequest call;
          call.name = "edit_file";
          call.path = std::string(rest.substr(0, eq));
          call.old_string = std::string(rest.substr(eq + 1, arrow - eq - 1));
          call.new_string = std::string(rest.substr(arrow + 2));
          call.replace_all = edit_all;
          calls.push_back(std::move(call));
        }
        break;
      }
      if (token.substr(0, kPatchPrefix.size()) == kPatchPrefix) {
        std::string_view rest = TrimUnicode(rest_after(kPatchPrefix));
        MockCallRequest call;
        call.name = "apply_patch";
        if (rest.empty()) {  // block form: the following lines through `*** End Patch`
          while (l + 1 < lines.size()) {
            std::string_view next = lines[++l];
            call.content.append(next);
            call.content.push_back('\n');
            if (TrimUnicode(next) == kEndPatch) break;
          }
        } else {
          for (std::size_t i = 0; i < rest.size(); ++i) {
            if (rest[i] == '\\' && i + 1 < rest.size() && rest[i + 1] == 'n') {
              call.content.push_back('\n');
              ++i;
            } else {
              call.content.push_back(rest[i]);
            }
          }
        }
        if (!call.content.empty()) calls.push_back(std::move(call));
        break;
      }
      if (token.substr(0, kCallPrefix.size()) == kCallPrefix) {
        // `<tool>=<arguments>`: any tool by its advertised name, arguments verbatim.
        std::string_view rest = rest_after(kCallPrefix);
        std::size_t eq = rest.find('=');
        std::string_view name = TrimUnicode(rest.substr(0, eq));
        if (!name.empty()) {
          MockCallRequest call;
          call.name = std::string(name);
          call.content = eq == std::string_view::npos
                             ? std::string("{}")
                             : std::string(TrimUnicode(rest.substr(eq + 1)));
          if (call.content.empty()) call.content = "{}";
          call.raw = true;
          calls.push_back(std::move(call));
        }
        break;
      }
      if (token.substr(0, kGrepPrefix.size()) == kGrepPrefix) {
        std::string_view pattern = TrimUnicode(rest_after(kGrepPrefix));
        if (!pattern.empty()) {
          MockCallRequest call;
          call.name = "grep";
          call.content = std::string(pattern);
          calls.push_back(std::move(call));
        }
        break;
      }
      if (token.substr(0, kGlobPrefix.size()) == kGlobPrefix) {
        std::string_view pattern = token.substr(kGlobPrefix.size());
        if (!pattern.empty()) {
          MockCallRequest call;
          call.name = "glob";
          call.content = std::string(pattern);
          calls.push_back(std::move(call));
        }
        continue;
      }
      if (token.substr(0, kListPrefix.size()) == kListPrefix) {
        std::string_view path = token.substr(kListPrefix.size());
        if (!path.empty()) calls.push_back(MockCall("list_dir", path));
        continue;
      }
      if (token.substr(0, 10) == "#mock-fail") continue;
      std::string_view stripped = StripReferenceToken(token);
      if (IsFileReference(stripped)) calls.push_back(MockCall("read_file", stripped));
    }
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
