// SPDX-License-Identifier: MIT
// The in-memory FileSystem. See memory_file_system.h for the invariants.
#include "support/memory_file_system.h"

#include <algorithm>

#include "support/paths.h"

namespace agentctx {

struct MemoryFileSystem::Node {
  FileKind kind = FileKind::kDir;
  std::string data;    // file or other contents
  std::string target;  // symlink target, verbatim
  std::int64_t mtime_ms = 0;
  std::map<std::string, std::unique_ptr<Node>> children;  // dirs only; sorted by name bytes
};

MemoryFileSystem::MemoryFileSystem() : root_(std::make_unique<Node>()) {}
MemoryFileSystem::~MemoryFileSystem() = default;

Result<void> MemoryFileSystem::CheckPath(std::string_view path, Op op) const {
  if (!IsNormalizedAbsolute(path)) {
    std::string shown;
    for (char c : path) shown += c == '\0' ? std::string("\\0") : std::string(1, c);
    return Fail(ErrorCode::kInvalidPath, "not an absolute normalised path: " + shown);
  }
  auto it = injected_.find({std::string(path), static_cast<int>(op)});
  if (it != injected_.end()) return Fail(it->second, std::string(path));
  return {};
}

Result<MemoryFileSystem::Resolved> MemoryFileSystem::Lookup(std::string_view path,
                                                            bool follow_last) const {
  std::vector<std::string> pending = Segments(path);
  std::reverse(pending.begin(), pending.end());  // a stack: back() is the next segment
  std::vector<Node*> parents;
  std::vector<std::string> names;
  Node* cur = root_.get();
  int hops = 0;
  while (!pending.empty()) {
    std::string seg = std::move(pending.back());
    pending.pop_back();
    if (seg.empty() || seg == ".") continue;
    if (seg == "..") {
      if (!parents.empty()) {
        cur = parents.back();
        parents.pop_back();
        names.pop_back();
      }
      continue;
    }
    if (cur->kind != FileKind::kDir) return Fail(ErrorCode::kNotADirectory, std::string(path));
    auto it = cur->children.find(seg);
    if (it == cur->children.end()) return Fail(ErrorCode::kNotFound, std::string(path));
    Node* next = it->second.get();
    if (next->kind == FileKind::kSymlink && (follow_last || !pending.empty())) {
      if (++hops > kMaxSymlinkHops) {
        return Fail(ErrorCode::kIo, "too many levels of symbolic links: " + std::string(path));
      }
      if (next->target.empty()) return Fail(ErrorCode::kNotFound, std::string(path));
      if (next->target[0] == '/') {
        cur = root_.get();
        parents.clear();
        names.clear();
      }
      std::vector<std::string> target = Segments(next->target);
      for (auto t = target.rbegin(); t != target.rend(); ++t) pending.push_back(*t);
      continue;
    }
    parents.push_back(cur);
    names.push_back(seg);
    cur = next;
  }
  std::string resolved = "/";
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) resolved += '/';
    resolved += names[i];
  }
  return Resolved{cur, std::move(resolved)};
}

Result<MemoryFileSystem::Resolved> MemoryFileSystem::ParentDir(std::string_view path, bool create) {
  std::string parent = Parent(path);
  auto found = Lookup(parent, true);
  if (found.has_value()) {
    if (found->node->kind != FileKind::kDir) {
      return Fail(ErrorCode::kNotADirectory, std::string(path));
    }
    return found;
  }
  if (found.error().code != ErrorCode::kNotFound || !create) {
    Error e = std::move(found).error();
    e.message = std::string(path);
    return Fail(std::move(e));
  }
  // Walk the parent once, creating missing directories; symlinks are resolved as met. The
  // resolved path grows in place (a copy per level made deep trees quadratic).
  Node* cur = root_.get();
  std::string cur_path = "/";
  for (const std::string& seg : Segments(parent)) {
    if (cur_path.back() != '/') cur_path += '/';
    cur_path += seg;
    auto it = cur->children.find(seg);
    if (it == cur->children.end()) {
      auto dir = std::make_unique<Node>();
      dir->mtime_ms = clock_ms_;
      cur = cur->children.emplace(seg, std::move(dir)).first->second.get();
      continue;
    }
    Node* next = it->second.get();
    if (next->kind == FileKind::kSymlink) {
      auto target = Lookup(cur_path, true);
      if (!target.has_value()) {
        Error e = std::move(target).error();
        e.message = std::string(path);
        return Fail(std::move(e));  // e.g. a dangling symlink in the way: not_found
      }
      next = target->node;
      cur_path = std::move(target->path);
    }
    if (next->kind != FileKind::kDir) return Fail(ErrorCode::kNotADirectory, std::string(path));
    cur = next;
  }
  return Resolved{cur, std::move(cur_path)};
}

Result<MemoryFileSystem::Node*> MemoryFileSystem::Place(std::string_view path) {
  if (!IsNormalizedAbsolute(path) || path == "/") {
    return Fail(ErrorCode::kInvalidPath, "cannot place a node at: " + std::string(path));
  }
  ACTX_TRY(Resolved dir, ParentDir(path, true));
  auto& slot = dir.node->children[std::string(BaseName(path))];
  if (!slot) slot = std::make_unique<Node>();
  return slot.get();
}

Result<FileStat> MemoryFileSystem::Stat(std::string_view path) {
  ACTX_TRY_VOID(CheckPath(path, Op::kStat));
  ACTX_TRY(Resolved r, Lookup(path, true));
  FileStat st;
  st.kind = r.node->kind;
  st.size = r.node->kind == FileKind::kDir ? 0 : r.node->data.size();
  st.mtime_ms = r.node->mtime_ms;
  return st;
}

Result<std::string> MemoryFileSystem::Read(std::string_view path, std::uint64_t max_bytes) {
  ACTX_TRY_VOID(CheckPath(path, Op::kRead));
  ACTX_TRY(Resolved r, Lookup(path, true));
  if (r.node->kind == FileKind::kDir) return Fail(ErrorCode::kIsADirectory, std::string(path));
  const std::string& data = r.node->data;
  std::uint64_t n = std::min<std::uint64_t>(data.size(), max_bytes);
  return data.substr(0, static_cast<std::size_t>(n));
}

Result<std::vector<DirEntry>> MemoryFileSystem::List(std::string_view path) {
  ACTX_TRY_VOID(CheckPath(path, Op::kList));
  ACTX_TRY(Resolved r, Lookup(path, true));
  if (r.node->kind != FileKind::kDir) return Fail(ErrorCode::kNotADirectory, std::string(path));
  std::vector<DirEntry> out;
  out.reserve(r.node->children.size());
  for (const auto& [name, child] : r.node->children) out.push_back(DirEntry{name, child->kind});
  return out;
}

Result<void> MemoryFileSystem::Write(std::string_view path, std::string_view bytes,
                                     bool create_parents) {
  ACTX_TRY_VOID(CheckPath(path, Op::kWrite));
  if (path == "/") return Fail(ErrorCode::kIsADirectory, std::string(path));
  ACTX_TRY(Resolved dir, ParentDir(path, create_parents));
  auto it = dir.node->children.find(std::string(BaseName(path)));
  Node* node = nullptr;
  if (it == dir.node->children.end()) {
    auto file = std::make_unique<Node>();
    file->kind = FileKind::kFile;
    file->mtime_ms = clock_ms_;
    file->data.assign(bytes.data(), bytes.size());
    dir.node->children[std::string(BaseName(path))] = std::move(file);
    return {};
  }
  node = it->second.get();
  if (node->kind == FileKind::kSymlink) {
    ACTX_TRY(Resolved target, Lookup(path, true));
    node = target.node;
  }
  if (node->kind == FileKind::kDir) return Fail(ErrorCode::kIsADirectory, std::string(path));
  if (node->kind != FileKind::kFile) {
    return Fail(ErrorCode::kIo, "not a regular file: " + std::string(path));
  }
  node->data.assign(bytes.data(), bytes.size());
  node->mtime_ms = std::max(clock_ms_, node->mtime_ms + 1);
  return {};
}

Result<void> MemoryFileSystem::RemoveFile(std::string_view path) {
  ACTX_TRY_VOID(CheckPath(path, Op::kRemove));
  if (path == "/") return Fail(ErrorCode::kIsADirectory, std::string(path));
  ACTX_TRY(Resolved dir, Lookup(Parent(path), true));
  if (dir.node->kind != FileKind::kDir) return Fail(ErrorCode::kNotADirectory, std::string(path));
  auto it = dir.node->children.find(std::string(BaseName(path)));
  if (it == dir.node->children.end()) return Fail(ErrorCode::kNotFound, std::string(path));
  if (it->second->kind == FileKind::kDir) return Fail(ErrorCode::kIsADirectory, std::string(path));
  dir.node->children.erase(it);
  return {};
}

Result<void> MemoryFileSystem::AddFile(std::string_view path, std::string_view bytes,
                                       std::optional<std::int64_t> mtime_ms) {
  ACTX_TRY(Node * node, Place(path));
  bool was_file = node->kind == FileKind::kFile;
  std::int64_t previous = node->mtime_ms;
  node->kind = FileKind::kFile;
  node->children.clear();
  node->target.clear();
  node->data.assign(bytes.data(), bytes.size());
  if (mtime_ms.has_value()) {
    node->mtime_ms = *mtime_ms;
  } else {
    node->mtime_ms = was_file ? std::max(clock_ms_, previous + 1) : clock_ms_;
  }
  return {};
}

Result<void> MemoryFileSystem::AddDir(std::string_view path, std::optional<std::int64_t> mtime_ms) {
  if (path == "/") {
    if (mtime_ms.has_value()) root_->mtime_ms = *mtime_ms;
    return {};
  }
  ACTX_TRY(Node * node, Place(path));
  if (node->kind != FileKind::kDir) {
    node->kind = FileKind::kDir;
    node->data.clear();
    node->target.clear();
  }
  node->mtime_ms = mtime_ms.value_or(clock_ms_);
  return {};
}

Result<void> MemoryFileSystem::AddOther(std::string_view path,
                                        std::optional<std::int64_t> mtime_ms) {
  ACTX_TRY(Node * node, Place(path));
  node->kind = FileKind::kOther;
  node->children.clear();
  node->data.clear();
  node->target.clear();
  node->mtime_ms = mtime_ms.value_or(clock_ms_);
  return {};
}

Result<void> MemoryFileSystem::AddSymlink(std::string_view path, std::string_view target) {
  ACTX_TRY(Node * node, Place(path));
  node->kind = FileKind::kSymlink;
  node->children.clear();
  node->data.clear();
  node->target.assign(target.data(), target.size());
  node->mtime_ms = clock_ms_;
  return {};
}

Result<void> MemoryFileSystem::SetMtime(std::string_view path, std::int64_t mtime_ms) {
  if (!IsNormalizedAbsolute(path)) return Fail(ErrorCode::kInvalidPath, std::string(path));
  ACTX_TRY(Resolved r, Lookup(path, true));
  r.node->mtime_ms = mtime_ms;
  return {};
}

Result<void> MemoryFileSystem::Remove(std::string_view path) {
  if (!IsNormalizedAbsolute(path) || path == "/") {
    return Fail(ErrorCode::kInvalidPath, "cannot remove: " + std::string(path));
  }
  ACTX_TRY(Resolved dir, Lookup(Parent(path), true));
  if (dir.node->kind != FileKind::kDir) return Fail(ErrorCode::kNotADirectory, std::string(path));
  if (dir.node->children.erase(std::string(BaseName(path))) == 0) {
    return Fail(ErrorCode::kNotFound, std::string(path));
  }
  return {};
}

void MemoryFileSystem::InjectError(std::string_view path, Op op, ErrorCode code) {
  injected_[{std::string(path), static_cast<int>(op)}] = code;
}

void MemoryFileSystem::ClearError(std::string_view path, Op op) {
  injected_.erase({std::string(path), static_cast<int>(op)});
}

void MemoryFileSystem::ClearErrors() { injected_.clear(); }

}  // namespace agentctx
