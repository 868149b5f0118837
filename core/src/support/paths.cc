// SPDX-License-Identifier: MIT
// Lexical POSIX paths. See paths.h.
#include "support/paths.h"

namespace agentctx {

namespace {

Unexpected<Error> InvalidPath(std::string_view path, const char* why) {
  std::string message(why);
  message += ": ";
  for (char c : path) {
    if (c == '\0') {
      message += "\\0";
    } else {
      message += c;
    }
  }
  return Fail(ErrorCode::kInvalidPath, message);
}

}  // namespace

bool IsNormalizedAbsolute(std::string_view path) {
  if (path.empty() || path[0] != '/') return false;
  if (path.size() == 1) return true;
  if (path.back() == '/') return false;
  std::size_t start = 1;
  while (start <= path.size()) {
    std::size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    std::string_view seg = path.substr(start, end - start);
    if (seg.empty() || seg == "." || seg == "..") return false;
    if (seg.find('\0') != std::string_view::npos) return false;
    start = end + 1;
  }
  return true;
}

Result<std::string> NormalizeAbsolute(std::string_view path) {
  if (path.empty()) return InvalidPath(path, "empty path");
  if (path.find('\0') != std::string_view::npos) return InvalidPath(path, "path contains NUL");
  if (path[0] != '/') return InvalidPath(path, "path is not absolute");
  std::string out = "/";
  std::size_t start = 1;
  while (start <= path.size()) {
    std::size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    std::string_view seg = path.substr(start, end - start);
    start = end + 1;
    if (seg.empty() || seg == ".") continue;
    if (seg == "..") {
      if (out.size() == 1) return InvalidPath(path, "`..` above the root");
      out.resize(out.rfind('/') == 0 ? 1 : out.rfind('/'));
      continue;
    }
    if (out.size() > 1) out += '/';
    out.append(seg.data(), seg.size());
  }
  return out;
}

Result<std::string> ResolvePath(std::string_view cwd, std::string_view path) {
  if (path.empty()) return InvalidPath(path, "empty path");
  if (path.find('\0') != std::string_view::npos) return InvalidPath(path, "path contains NUL");
  if (path[0] == '/') return NormalizeAbsolute(path);
  if (cwd.empty() || cwd[0] != '/') return InvalidPath(cwd, "cwd is not absolute");
  std::string joined(cwd);
  joined += '/';
  joined.append(path.data(), path.size());
  return NormalizeAbsolute(joined);
}

std::string Parent(std::string_view path) {
  std::size_t slash = path.rfind('/');
  if (slash == std::string_view::npos || slash == 0) return "/";
  return std::string(path.substr(0, slash));
}

std::string Join(std::string_view dir, std::string_view name) {
  std::string out(dir);
  if (out.empty() || out.back() != '/') out += '/';
  out.append(name.data(), name.size());
  return out;
}

std::string_view BaseName(std::string_view path) {
  std::size_t slash = path.rfind('/');
  if (slash == std::string_view::npos) return path;
  return path.substr(slash + 1);
}

std::vector<std::string> Segments(std::string_view path) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    if (end > start) out.emplace_back(path.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

bool IsUnder(std::string_view path, std::string_view root) {
  if (root == "/") return !path.empty() && path[0] == '/';
  if (path.size() < root.size() || path.substr(0, root.size()) != root) return false;
  return path.size() == root.size() || path[root.size()] == '/';
}

}  // namespace agentctx
