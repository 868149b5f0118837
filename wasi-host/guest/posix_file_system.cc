// SPDX-License-Identifier: MIT
// PosixFileSystem (see the header for the contract). Only POSIX open/read/write/fstat, stat,
// opendir and mkdir: no <fstream> (missing in WASI libc++ 19), no <filesystem>.
// Listing under WASI reads the directory with one fd_readdir call into a buffer that doubles
// until every entry fits (node:wasi restarts from the first entry on each call, so wasi-libc's
// readdir, a small buffer per call, made a listing quadratic: 64 000 files took 10 s). The
// buffer is capped at kMaxListBytes of entries (documented limit: an `io` error past it).
#include "posix_file_system.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>
#if defined(__wasi__)
#include <wasi/api.h>
#include <wasi/libc-find-relpath.h>
#endif

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <utility>

#include "agentctx/string_growth.h"

namespace agentctx {
namespace {

constexpr std::size_t kReadChunk = 64 * 1024;
// A regular file up to this size is read in one call into an answer sized for it up front.
constexpr std::uint64_t kFirstReadLimit = std::uint64_t{64} * 1024 * 1024;
#if defined(__wasi__)                               // the listing (fd_readdir) is WASI-only
constexpr std::size_t kFirstListBytes = 64 * 1024;  // the listing buffer doubles from here
// About 1.5 million entries of 20-byte names; a directory past it is refused with `io`.
constexpr std::size_t kMaxListBytes = std::size_t{64} * 1024 * 1024;
#endif

Unexpected<Error> PathError(ErrorCode code, std::string_view op, std::string_view path) {
  Error error{code, std::string(op) + " " + std::string(path), {}};
  error.details.emplace_back("path", std::string(path));
  return Fail(std::move(error));
}

Unexpected<Error> ErrnoError(int err, std::string_view op, std::string_view path) {
  return PathError(ErrnoToErrorCode(err), op, path);
}

// The normalised form the core passes: leading `/`, no empty, `.` or `..` segments, no
// trailing `/` except root, no NUL.
bool IsNormalisedPath(std::string_view path) {
  if (path.empty() || path[0] != '/') return false;
  if (path.find('\0') != std::string_view::npos) return false;
  if (path.size() == 1) return true;
  std::size_t start = 1;
  while (start <= path.size()) {
    std::size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    std::string_view segment = path.substr(start, end - start);
    if (segment.empty() || segment == "." || segment == "..") return false;
    start = end + 1;
  }
  return true;
}

bool IsWithin(std::string_view root, std::string_view path) {
  if (root == "/") return true;
  if (path.size() < root.size() || path.substr(0, root.size()) != root) return false;
  return path.size() == root.size() || path[root.size()] == '/';
}

FileKind KindFromMode(mode_t mode) {
  if (S_ISREG(mode)) return FileKind::kFile;
  if (S_ISDIR(mode)) return FileKind::kDir;
  if (S_ISLNK(mode)) return FileKind::kSymlink;
  return FileKind::kOther;
}

// Opens `path` for reading without waiting (see Read). Under WASI the path is opened straight
// from its preopen with read rights only: wasi-libc's open() first asks the directory for its
// rights (fd_fdstat_get), one host call of about five a file read, each behind the host's
// sandbox wrapper. The descriptor is an ordinary one (fstat, read and close take it).
int OpenForReading(const std::string& path) {
#if defined(__wasi__)
  const char* prefix = nullptr;
  const char* relative = nullptr;
  const int dir = __wasilibc_find_abspath(path.c_str(), &prefix, &relative);
  if (dir < 0) {
    errno = ENOTCAPABLE;  // under no preopen: what wasi-libc's open() answers
    return -1;
  }
  constexpr __wasi_rights_t kReadRights =
      __WASI_RIGHTS_FD_READ | __WASI_RIGHTS_FD_SEEK | __WASI_RIGHTS_FD_TELL |
      __WASI_RIGHTS_FD_FILESTAT_GET | __WASI_RIGHTS_FD_FDSTAT_SET_FLAGS | __WASI_RIGHTS_FD_ADVISE;
  __wasi_fd_t fd = 0;
  const __wasi_errno_t err =
      __wasi_path_open(static_cast<__wasi_fd_t>(dir), __WASI_LOOKUPFLAGS_SYMLINK_FOLLOW, relative,
                       0, kReadRights, 0, __WASI_FDFLAGS_NONBLOCK, &fd);
  if (err != __WASI_ERRNO_SUCCESS) {
    errno = err;  // wasi-libc's errno values are the WASI ones
    return -1;
  }
  return static_cast<int>(fd);
#else
  return open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
#endif
}

std::int64_t MtimeMs(const struct stat& st) {
  return static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000 +
         static_cast<std::int64_t>(st.st_mtim.tv_nsec) / 1000000;
}

std::string JoinChild(std::string_view dir, const char* name) {
  std::string out(dir);
  if (out != "/") out.push_back('/');
  out += name;
  return out;
}

}  // namespace

ErrorCode ErrnoToErrorCode(int err) {
  switch (err) {
    case ENOENT:
      return ErrorCode::kNotFound;
    case EACCES:
    case EPERM:
    case EROFS:
      return ErrorCode::kPermissionDenied;
#ifdef ENOTCAPABLE
    case ENOTCAPABLE:
      return ErrorCode::kNotCapable;
#endif
    case ENOTDIR:
      return ErrorCode::kNotADirectory;
    case EISDIR:
      return ErrorCode::kIsADirectory;
    case EINVAL:
    case ENAMETOOLONG:
      return ErrorCode::kInvalidPath;
    default:
      return ErrorCode::kIo;
  }
}

PosixFileSystem::PosixFileSystem(std::string root, bool sandboxed)
    : root_(std::move(root)), sandboxed_(sandboxed) {}

bool PosixFileSystem::Sandboxed() const {
#ifdef __wasi__
  static_cast<void>(sandboxed_);
  return true;  // the guest sees only its preopens
#else
  return sandboxed_;
#endif
}

Result<void> PosixFileSystem::Check(std::string_view op, std::string_view path) const {
  if (!IsNormalisedPath(path)) return PathError(ErrorCode::kInvalidPath, op, path);
  if (!IsWithin(root_, path)) return PathError(ErrorCode::kNotCapable, op, path);
  return {};
}

Result<FileStat> PosixFileSystem::Stat(std::string_view path) {
  ACTX_TRY_VOID(Check("stat", path));
  std::string p(path);
  struct stat st;
  if (stat(p.c_str(), &st) != 0) return ErrnoError(errno, "stat", path);
  FileStat out;
  out.kind = KindFromMode(st.st_mode);
  out.size = static_cast<std::uint64_t>(st.st_size);
  out.mtime_ms = MtimeMs(st);
  return out;
}

Result<std::string> PosixFileSystem::Read(std::string_view path, std::uint64_t max_bytes) {
  ACTX_TRY_VOID(Check("read", path));
  std::string p(path);
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer, and reading one
  // (or a terminal) for its data; a read never waits (see the loop). No effect on files.
  int fd = OpenForReading(p);
  if (fd < 0) return ErrnoError(errno, "read", path);
  struct stat st;
  if (fstat(fd, &st) != 0) {
    int err = errno;
    close(fd);
    return ErrnoError(err, "read", path);
  }
  // open succeeds on a directory on Linux; answer is_a_directory on every target.
  if (S_ISDIR(st.st_mode)) {
    close(fd);
    return PathError(ErrorCode::kIsADirectory, "read", path);
  }
  // The bytes go straight into the answer. A regular file of size s is asked for s + 1 bytes
  // first: when exactly s come back, that is its end, without a second read (a grep over a
  // tree reads every file). Everything else is read until read() answers 0: a file that grew,
  // a pipe, and files whose size says nothing (procfs reports 0, sysfs 4096), where a short
  // read is not the end. A pipe or a device with nothing to give now ends the answer (EAGAIN).
  const std::uint64_t expected =
      S_ISREG(st.st_mode) && st.st_size > 0 ? static_cast<std::uint64_t>(st.st_size) : 0;
  std::uint64_t ask = expected > 0 && expected < kFirstReadLimit ? expected + 1 : kReadChunk;
  std::string out;
  while (out.size() < max_bytes) {
    std::uint64_t left = max_bytes - out.size();
    std::size_t want = static_cast<std::size_t>(left < ask ? left : ask);
    std::size_t had = out.size();
    ResizeForOverwrite(&out, had + want);
    ssize_t n = read(fd, out.data() + had, want);
    if (n < 0 && errno == EINTR) {
      out.resize(had);
      continue;
    }
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {  // never for a file
      out.resize(had);
      break;
    }
    if (n < 0) {
      int err = errno;
      close(fd);
      return ErrnoError(err, "read", path);
    }
    out.resize(had + static_cast<std::size_t>(n));
    if (n == 0) break;
    if (out.size() == expected && static_cast<std::size_t>(n) < want) break;
    ask = kReadChunk;
  }
  close(fd);
  return out;
}

namespace {

// The entry for `name` of kind `kind`; an unknown kind is asked of lstat (not followed).
DirEntry MakeEntry(std::string_view dir, std::string name, FileKind kind, bool unknown) {
  DirEntry entry{std::move(name), kind};
  if (unknown) {
    struct stat st;
    std::string child = JoinChild(dir, entry.name.c_str());
    if (lstat(child.c_str(), &st) == 0) entry.kind = KindFromMode(st.st_mode);
  }
  return entry;
}

#if defined(__wasi__)
// Parses `used` bytes of __wasi_dirent_t records (each followed by its name).
void ParseDirents(std::string_view dir, const std::vector<std::uint8_t>& buf, std::size_t used,
                  std::vector<DirEntry>* out) {
  std::size_t off = 0;
  while (off + sizeof(__wasi_dirent_t) <= used) {
    __wasi_dirent_t d;
    std::memcpy(&d, buf.data() + off, sizeof d);
    off += sizeof d;
    if (off + d.d_namlen > used) break;  // a record cut by the buffer end (not when it fits)
    std::string name(reinterpret_cast<const char*>(buf.data() + off), d.d_namlen);
    off += d.d_namlen;
    if (name == "." || name == "..") continue;
    FileKind kind = FileKind::kOther;
    if (d.d_type == __WASI_FILETYPE_REGULAR_FILE) kind = FileKind::kFile;
    if (d.d_type == __WASI_FILETYPE_DIRECTORY) kind = FileKind::kDir;
    if (d.d_type == __WASI_FILETYPE_SYMBOLIC_LINK) kind = FileKind::kSymlink;
    out->push_back(MakeEntry(dir, std::move(name), kind, d.d_type == __WASI_FILETYPE_UNKNOWN));
  }
}
#endif

}  // namespace

Result<std::vector<DirEntry>> PosixFileSystem::List(std::string_view path) {
  ACTX_TRY_VOID(Check("list", path));
  std::string p(path);
  std::vector<DirEntry> entries;
#if defined(__wasi__)
  int fd = open(p.c_str(), O_RDONLY | O_DIRECTORY);
  if (fd < 0) return ErrnoError(errno, "list", path);
  std::vector<std::uint8_t> buf(kFirstListBytes);
  for (;;) {
    __wasi_size_t used = 0;
    __wasi_errno_t rc = __wasi_fd_readdir(fd, buf.data(), static_cast<__wasi_size_t>(buf.size()),
                                          __WASI_DIRCOOKIE_START, &used);
    if (rc != __WASI_ERRNO_SUCCESS) {
      close(fd);
      return ErrnoError(static_cast<int>(rc), "list", path);
    }
    if (used < buf.size()) {
      ParseDirents(path, buf, used, &entries);
      break;
    }
    if (buf.size() >= kMaxListBytes) {
      close(fd);
      return PathError(ErrorCode::kIo,
                       "list (the directory has more than 64 MiB of entries, the listing limit)",
                       path);
    }
    buf.resize(buf.size() * 2);  // read it again, whole, into a buffer twice the size
  }
  close(fd);
#else
  DIR* dir = opendir(p.c_str());
  if (dir == nullptr) return ErrnoError(errno, "list", path);
  errno = 0;
  while (dirent* e = readdir(dir)) {
    std::string_view name(e->d_name);
    if (name == "." || name == "..") continue;
    FileKind kind = FileKind::kOther;
    if (e->d_type == DT_REG) kind = FileKind::kFile;
    if (e->d_type == DT_DIR) kind = FileKind::kDir;
    if (e->d_type == DT_LNK) kind = FileKind::kSymlink;
    entries.push_back(MakeEntry(path, std::string(name), kind, e->d_type == DT_UNKNOWN));
    errno = 0;
  }
  int err = errno;
  closedir(dir);
  if (err != 0) return ErrnoError(err, "list", path);
#endif
  return entries;
}

Result<void> PosixFileSystem::MakeParents(std::string_view path) const {
  // Directories strictly between root_ and the file: root_ itself is assumed to exist.
  std::size_t start = root_ == "/" ? 1 : root_.size() + 1;
  while (true) {
    std::size_t slash = path.find('/', start);
    if (slash == std::string_view::npos) return {};
    std::string dir(path.substr(0, slash));
    struct stat st;
    if (stat(dir.c_str(), &st) == 0) {
      if (!S_ISDIR(st.st_mode)) return PathError(ErrorCode::kNotADirectory, "write", dir);
    } else if (errno != ENOENT) {
      return ErrnoError(errno, "write", dir);
    } else if (mkdir(dir.c_str(), 0777) != 0 && errno != EEXIST) {
      return ErrnoError(errno, "write", dir);
    }
    start = slash + 1;
  }
}

Result<void> PosixFileSystem::Write(std::string_view path, std::string_view bytes,
                                    bool create_parents) {
  ACTX_TRY_VOID(Check("write", path));
  if (create_parents) ACTX_TRY_VOID(MakeParents(path));
  std::string p(path);
  // O_NONBLOCK, as for reads: a FIFO without a reader fails at once (ENXIO) instead of holding
  // the thread until one comes, and a full pipe ends the write with an error. No effect on files.
  int fd = open(p.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NONBLOCK, 0666);
  if (fd < 0) return ErrnoError(errno, "write", path);
  std::size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      int err = n < 0 ? errno : EIO;
      close(fd);
      return ErrnoError(err, "write", path);
    }
    done += static_cast<std::size_t>(n);
  }
  if (close(fd) != 0) return ErrnoError(errno, "write", path);
  return {};
}

Result<void> PosixFileSystem::RemoveFile(std::string_view path) {
  ACTX_TRY_VOID(Check("remove", path));
  std::string p(path);
  struct stat st;
  if (lstat(p.c_str(), &st) != 0) return ErrnoError(errno, "remove", path);
  if (S_ISDIR(st.st_mode)) return PathError(ErrorCode::kIsADirectory, "remove", path);
  if (unlink(p.c_str()) != 0) return ErrnoError(errno, "remove", path);
  return {};
}

}  // namespace agentctx
