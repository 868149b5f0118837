// SPDX-License-Identifier: MIT
// JsFileSystem: decoding of the JS answers (see js_file_system.h for the contract).
// Every val access is type-checked first: embind's as<T>() throws a JS TypeError on a wrong type,
// and a JS exception unwinding through -fno-exceptions wasm frames would skip destructors.
#include "js_file_system.h"

#include <utility>

#include "agentctx/string_growth.h"

namespace agentctx {
namespace {

using emscripten::typed_memory_view;
using emscripten::val;

constexpr const char* kMethods[] = {"stat", "read", "list", "write", "sandboxed"};

bool IsObject(const val& v) {
  if (v.isNull() || v.isUndefined()) return false;
  std::string type = v.typeOf().as<std::string>();
  return type == "object" || type == "function";
}

bool IsFunction(const val& v) { return v.typeOf().as<std::string>() == "function"; }

// A non-negative integral JS number that fits in uint64_t (sizes).
bool AsSize(const val& v, std::uint64_t* out) {
  if (!v.isNumber()) return false;
  double d = v.as<double>();
  if (!(d >= 0) || d > 9007199254740991.0 || d != static_cast<double>(static_cast<uint64_t>(d))) {
    return false;
  }
  *out = static_cast<std::uint64_t>(d);
  return true;
}

bool ParseKind(const val& v, FileKind* out) {
  if (!v.isString()) return false;
  std::string name = v.as<std::string>();
  for (FileKind kind : {FileKind::kFile, FileKind::kDir, FileKind::kSymlink, FileKind::kOther}) {
    if (name == FileKindName(kind)) {
      *out = kind;
      return true;
    }
  }
  return false;
}

bool IsFileSystemCode(ErrorCode code) {
  switch (code) {
    case ErrorCode::kNotFound:
    case ErrorCode::kPermissionDenied:
    case ErrorCode::kNotCapable:
    case ErrorCode::kNotADirectory:
    case ErrorCode::kIsADirectory:
    case ErrorCode::kInvalidPath:
    case ErrorCode::kIo:
      return true;
    default:
      return false;
  }
}

// Message = the path, so Display() is "<code>: <path>"; a JS message goes to details.
Error MakeError(ErrorCode code, std::string_view path, std::string js_message) {
  Error error{code, std::string(path), {{"path", std::string(path)}}};
  if (!js_message.empty()) error.details.emplace_back("message", std::move(js_message));
  return error;
}

Error Malformed(std::string_view method, std::string_view path) {
  return MakeError(ErrorCode::kIo, path,
                   "malformed answer from JS FileSystem." + std::string(method));
}

// Classifies an answer: true when it is {ok:true,…}; otherwise fills *error.
bool CheckAnswer(const val& answer, std::string_view method, std::string_view path, Error* error) {
  if (!IsObject(answer)) {
    *error = Malformed(method, path);
    return false;
  }
  val ok = answer["ok"];
  if (ok.isTrue()) return true;
  if (!ok.isFalse()) {
    *error = Malformed(method, path);
    return false;
  }
  ErrorCode code = ErrorCode::kIo;
  val code_val = answer["code"];
  if (!code_val.isString() || !ErrorCodeFromName(code_val.as<std::string>(), &code) ||
      !IsFileSystemCode(code)) {
    code = ErrorCode::kIo;
  }
  val message = answer["message"];
  *error = MakeError(code, path, message.isString() ? message.as<std::string>() : std::string());
  return false;
}

}  // namespace

bool JsFileSystem::IsValid(const val& fs) {
  if (!IsObject(fs)) return false;
  for (const char* method : kMethods) {
    if (!IsFunction(fs[method])) return false;
  }
  return true;
}

JsFileSystem::JsFileSystem(val fs) : fs_(std::move(fs)) {
  sandboxed_ = fs_.call<val>("sandboxed").isTrue();
}

Result<FileStat> JsFileSystem::Stat(std::string_view path) {
  val answer = fs_.call<val>("stat", std::string(path));
  Error error;
  if (!CheckAnswer(answer, "stat", path, &error)) return Fail(std::move(error));
  FileStat stat;
  val mtime = answer["mtime_ms"];
  if (!ParseKind(answer["kind"], &stat.kind) || !AsSize(answer["size"], &stat.size)) {
    return Fail(Malformed("stat", path));
  }
  if (mtime.isNumber()) {
    double ms = mtime.as<double>();
    if (ms >= -9007199254740991.0 && ms <= 9007199254740991.0) {
      stat.mtime_ms = static_cast<std::int64_t>(ms);
    }
  } else if (!mtime.isUndefined()) {
    return Fail(Malformed("stat", path));
  }
  return stat;
}

Result<std::string> JsFileSystem::Read(std::string_view path, std::uint64_t max_bytes) {
  val answer = fs_.call<val>("read", std::string(path), static_cast<double>(max_bytes));
  Error error;
  if (!CheckAnswer(answer, "read", path, &error)) return Fail(std::move(error));
  val data = answer["data"];
  std::uint64_t length = 0;
  if (!data.instanceof (val::global("Uint8Array")) || !AsSize(data["length"], &length)) {
    return Fail(Malformed("read", path));
  }
  if (length > max_bytes) {
    length = max_bytes;
    data = data.call<val>("subarray", 0.0, static_cast<double>(length));
  }
  std::string bytes;
  ResizeForOverwrite(&bytes, static_cast<std::size_t>(length));
  if (length > 0) {
    // The one copy: JS writes straight into the std::string's storage.
    val(typed_memory_view(bytes.size(), reinterpret_cast<unsigned char*>(bytes.data())))
        .call<void>("set", data);
  }
  return bytes;
}

Result<std::vector<DirEntry>> JsFileSystem::List(std::string_view path) {
  val answer = fs_.call<val>("list", std::string(path));
  Error error;
  if (!CheckAnswer(answer, "list", path, &error)) return Fail(std::move(error));
  val entries = answer["entries"];
  std::uint64_t count = 0;
  if (!entries.isArray() || !AsSize(entries["length"], &count))
    return Fail(Malformed("list", path));
  if (count > kMaxJsListEntries) {
    return Fail(MakeError(ErrorCode::kIo, path,
                          "JS FileSystem.list answered " + std::to_string(count) +
                              " entries; the limit is " + std::to_string(kMaxJsListEntries)));
  }
  std::vector<DirEntry> out;
  out.reserve(static_cast<std::size_t>(count));
  for (std::uint64_t i = 0; i < count; ++i) {
    val entry = entries[static_cast<double>(i)];
    if (!IsObject(entry) || !entry["name"].isString()) return Fail(Malformed("list", path));
    DirEntry dir_entry;
    dir_entry.name = entry["name"].as<std::string>();
    if (!ParseKind(entry["kind"], &dir_entry.kind) || dir_entry.name.empty() ||
        dir_entry.name == "." || dir_entry.name == ".." ||
        dir_entry.name.find('/') != std::string::npos) {
      return Fail(Malformed("list", path));
    }
    out.push_back(std::move(dir_entry));
  }
  return out;
}

Result<void> JsFileSystem::Write(std::string_view path, std::string_view bytes,
                                 bool create_parents) {
  // The one copy: a JS-owned Uint8Array, so the JS side may keep it (wasm memory can move).
  val data = val::global("Uint8Array").new_(static_cast<double>(bytes.size()));
  if (!bytes.empty()) {
    data.call<void>(
        "set",
        val(typed_memory_view(bytes.size(), reinterpret_cast<const unsigned char*>(bytes.data()))));
  }
  val answer = fs_.call<val>("write", std::string(path), data, create_parents);
  Error error;
  if (!CheckAnswer(answer, "write", path, &error)) return Fail(std::move(error));
  return {};
}

Result<void> JsFileSystem::RemoveFile(std::string_view path) {
  if (!IsFunction(fs_["removeFile"])) return FileSystem::RemoveFile(path);
  val answer = fs_.call<val>("removeFile", std::string(path));
  Error error;
  if (!CheckAnswer(answer, "removeFile", path, &error)) return Fail(std::move(error));
  return {};
}

}  // namespace agentctx
