// SPDX-License-Identifier: MIT
// fs.* inspection methods (see fs_methods.h).
#include "engine/fs_methods.h"

#include <algorithm>
#include <utility>

#include "engine/envelope.h"
#include "protocol/json_codec.h"
#include "support/utf8.h"

namespace agentctx {
namespace {

constexpr std::int64_t kDefaultMaxBytes = 1 << 20;

std::string InvalidInput(std::string message) {
  return ErrorEnvelope(Error{ErrorCode::kInvalidInput, std::move(message), {}});
}

}  // namespace

bool IsFsMethod(std::string_view method) {
  return method == "fs.stat" || method == "fs.read" || method == "fs.list" || method == "fs.write";
}

std::string CallFsMethod(const std::map<std::string, std::shared_ptr<FileSystem>>& file_systems,
                         std::string_view method, std::string_view input_json) {
  auto parsed = ParseJson(input_json);
  if (!parsed) return ErrorEnvelope(parsed.error());
  const JsonValue& input = *parsed;
  if (!input.is_object()) return InvalidInput(std::string(method) + ": input must be an object");
  auto fs_name = input.GetString("fs");
  auto path = input.GetString("path");
  if (!fs_name || !path) {
    return InvalidInput(std::string(method) + ": \"fs\" and \"path\" must be strings");
  }
  auto it = file_systems.find(std::string(*fs_name));
  if (it == file_systems.end()) {
    return InvalidInput(std::string(method) + ": unknown file system: " + std::string(*fs_name));
  }
  FileSystem& fs = *it->second;

  JsonValue out = JsonValue::Object();
  if (method == "fs.stat") {
    auto st = fs.Stat(*path);
    if (!st) return ErrorEnvelope(st.error());
    out.Set("kind", JsonValue::String(std::string(FileKindName(st->kind))));
    out.Set("size", JsonValue::Int(static_cast<std::int64_t>(st->size)));
    out.Set("mtime_ms", JsonValue::Int(st->mtime_ms));
  } else if (method == "fs.read") {
    std::int64_t max_bytes = kDefaultMaxBytes;
    if (input.Find("max_bytes") != nullptr) {
      auto v = input.GetInt("max_bytes");
      if (!v || *v < 0) return InvalidInput("fs.read: \"max_bytes\" must be an integer >= 0");
      max_bytes = *v;
    }
    auto bytes = fs.Read(*path, static_cast<std::uint64_t>(max_bytes));
    if (!bytes) return ErrorEnvelope(bytes.error());
    out.Set("text", JsonValue::String(LossyUtf8(*bytes)));
    out.Set("bytes", JsonValue::Int(static_cast<std::int64_t>(bytes->size())));
  } else if (method == "fs.list") {
    auto entries = fs.List(*path);
    if (!entries) return ErrorEnvelope(entries.error());
    std::sort(entries->begin(), entries->end(),
              [](const DirEntry& a, const DirEntry& b) { return a.name < b.name; });
    JsonValue list = JsonValue::Array();
    for (const DirEntry& e : *entries) {
      JsonValue entry = JsonValue::Object();
      entry.Set("name", JsonValue::String(LossyUtf8(e.name)));
      entry.Set("kind", JsonValue::String(std::string(FileKindName(e.kind))));
      list.Push(std::move(entry));
    }
    out.Set("entries", std::move(list));
  } else {  // fs.write
    auto text = input.GetString("text");
    if (!text) return InvalidInput("fs.write: \"text\" must be a string");
    bool create_parents = false;
    if (input.Find("create_parents") != nullptr) {
      auto v = input.GetBool("create_parents");
      if (!v) return InvalidInput("fs.write: \"create_parents\" must be a boolean");
      create_parents = *v;
    }
    auto written = fs.Write(*path, *text, create_parents);
    if (!written) return ErrorEnvelope(written.error());
    out.Set("bytes", JsonValue::Int(static_cast<std::int64_t>(text->size())));
  }
  return OkEnvelope(out);
}

}  // namespace agentctx
