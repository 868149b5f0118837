// SPDX-License-Identifier: MIT
// JsFileSystem: decoding of the JS answers (see js_file_system.h for the contract).
// Every val access is type-checked first: embind's as<T>() throws a JS TypeError on a wrong type,
// and a JS exception unwinding through -fno-exceptions wasm frames would skip destructors.
#include "js_file_system.h"

#include <emscripten/em_js.h>
#include <emscripten/emscripten.h>

#include <cstring>
#include <utility>

#include "agentctx/string_growth.h"

// The read and list fast paths: one call into JS does the method call and the shape checks of
// the usual answer, and one more copies its bytes into wasm memory, where reading the answer
// through val took a dozen JS calls per read and about as many per listed entry (each property a
// name to decode, each check a call). The answer waits in Module.actxPendingAnswer between the
// two calls (the calls are synchronous, calls into the module from a FileSystem callback are
// refused, and the slot is set last, after any JS the answer runs). Any other answer takes the
// general path below, which reads it through val: failures, malformed answers.
// Paths are passed as UTF-8 bytes without NUL (UTF8ToString stops at one): a path with NUL
// takes the general path.

// The JavaScript bodies are kept out of clang-format (it splits `!==` and `===`).
// clang-format off
// Calls fs.read(path, maxBytes). {ok: true, data: Uint8Array}: keeps data, answers
// min(data.length, maxBytes). Anything else: keeps the answer, answers -1.
EM_JS(double, actx_js_read_begin,
      (emscripten::EM_VAL fs, const char* path, double path_bytes, double max_bytes), {
        var answer = Emval.toValue(fs)["read"](UTF8ToString(path, path_bytes), max_bytes);
        if (answer !== null && typeof answer == "object" && answer["ok"] === true) {
          var data = answer["data"];
          if (data instanceof Uint8Array) {
            var n = Math.min(data.length, max_bytes);
            Module["actxPendingAnswer"] = data;  // last: nothing read after it may replace it
            return n;
          }
        }
        Module["actxPendingAnswer"] = answer;
        return -1;
      });

// Calls fs.list(path). {ok: true, entries: [{name: string, kind}...]} with every kind known and
// at most max_entries entries: keeps them encoded (per entry: a kind byte 0-3, the name's UTF-8
// length as 4 bytes little-endian, the name) and answers the encoding's length. Anything else:
// keeps the answer, answers -1.
EM_JS(double, actx_js_list_begin,
      (emscripten::EM_VAL fs, const char* path, double path_bytes, double max_entries), {
        var answer = Emval.toValue(fs)["list"](UTF8ToString(path, path_bytes));
        // Kept last, just before returning: nothing read after it may replace it.
        var general = function() { Module["actxPendingAnswer"] = answer; return -1; };
        if (answer === null || typeof answer != "object" || answer["ok"] !== true) return general();
        var entries = answer["entries"];
        if (!Array.isArray(entries) || entries.length > max_entries) return general();
        var kinds = {"file" : 0, "dir" : 1, "symlink" : 2, "other" : 3};
        var total = 0;
        for (var i = 0; i < entries.length; i++) {
          var entry = entries[i];
          if (entry === null || typeof entry != "object" || typeof entry["name"] != "string" ||
              typeof entry["kind"] != "string" || !kinds.hasOwnProperty(entry["kind"])) {
            return general();
          }
          total += 5 + lengthBytesUTF8(entry["name"]);
        }
        var out = new Uint8Array(total);
        var at = 0;
        for (var i = 0; i < entries.length; i++) {
          var name = entries[i]["name"];
          var bytes = lengthBytesUTF8(name);
          out[at] = kinds[entries[i]["kind"]];
          out[at + 1] = bytes & 255;
          out[at + 2] = (bytes >>> 8) & 255;
          out[at + 3] = (bytes >>> 16) & 255;
          out[at + 4] = (bytes >>> 24) & 255;
          // It writes a NUL after the name too: where the next entry's kind byte goes, or past
          // the end (a typed array ignores that write). The same encoder as std::string's binding.
          stringToUTF8Array(name, out, at + 5, bytes + 1);
          at += 5 + bytes;
        }
        Module["actxPendingAnswer"] = out;
        return total;
      });

// Copies the kept bytes (actx_js_*_begin answered n >= 0) to dest[0, n) and lets them go.
EM_JS(void, actx_js_take_bytes, (char* dest, double n), {
  var data = Module["actxPendingAnswer"];
  Module["actxPendingAnswer"] = null;
  if (n > 0) HEAPU8.set(data.subarray(0, n), dest);
});

// The kept answer (actx_js_*_begin answered -1) as a new handle, and lets it go.
EM_JS(emscripten::EM_VAL, actx_js_take_answer, (), {
  var answer = Module["actxPendingAnswer"];
  Module["actxPendingAnswer"] = null;
  return Emval.toHandle(answer);
});
// clang-format on

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

// A name a listing may hold: not empty, not "." or "..", no "/".
bool IsEntryName(std::string_view name) {
  return !name.empty() && name != "." && name != ".." && name.find('/') == std::string_view::npos;
}

// The entries actx_js_list_begin encoded (per entry: kind byte, 4-byte little-endian length,
// name), or the malformed-answer error when a name may not be listed.
Result<std::vector<DirEntry>> DecodeEntries(std::string_view encoded, std::string_view path) {
  constexpr FileKind kKinds[] = {FileKind::kFile, FileKind::kDir, FileKind::kSymlink,
                                 FileKind::kOther};
  std::vector<DirEntry> out;
  std::size_t at = 0;
  while (at < encoded.size()) {
    if (encoded.size() - at < 5) return Fail(Malformed("list", path));
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(encoded[at + i]); };
    const unsigned kind = byte(0);
    const std::size_t length = std::size_t{byte(1)} | std::size_t{byte(2)} << 8 |
                               std::size_t{byte(3)} << 16 | std::size_t{byte(4)} << 24;
    at += 5;
    if (kind > 3 || encoded.size() - at < length) return Fail(Malformed("list", path));
    DirEntry entry;
    entry.kind = kKinds[kind];
    entry.name.assign(encoded.substr(at, length));
    at += length;
    if (!IsEntryName(entry.name)) return Fail(Malformed("list", path));
    out.push_back(std::move(entry));
  }
  return out;
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
  val answer = val::undefined();
  if (path.find('\0') == std::string_view::npos) {
    const double n =
        actx_js_read_begin(fs_.as_handle(), path.data(), static_cast<double>(path.size()),
                           static_cast<double>(max_bytes));
    if (n >= 0) {
      std::string bytes;
      ResizeForOverwrite(&bytes, static_cast<std::size_t>(n));
      actx_js_take_bytes(bytes.data(), n);
      return bytes;
    }
    answer = val::take_ownership(actx_js_take_answer());
  } else {
    answer = fs_.call<val>("read", std::string(path), static_cast<double>(max_bytes));
  }
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
  val answer = val::undefined();
  if (path.find('\0') == std::string_view::npos) {
    const double n =
        actx_js_list_begin(fs_.as_handle(), path.data(), static_cast<double>(path.size()),
                           static_cast<double>(kMaxJsListEntries));
    if (n >= 0) {
      std::string encoded;
      ResizeForOverwrite(&encoded, static_cast<std::size_t>(n));
      actx_js_take_bytes(encoded.data(), n);
      return DecodeEntries(encoded, path);
    }
    answer = val::take_ownership(actx_js_take_answer());
  } else {
    answer = fs_.call<val>("list", std::string(path));
  }
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
    if (!ParseKind(entry["kind"], &dir_entry.kind) || !IsEntryName(dir_entry.name)) {
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
