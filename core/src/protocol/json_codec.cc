// SPDX-License-Identifier: MIT
// RapidJSON SAX reader -> JsonValue. Iterative parsing (no recursion on input depth) with
// numbers as strings, so the lexeme is kept and no float is ever converted.
#include "protocol/json_codec.h"

#include <string>
#include <vector>

#include "support/utf8.h"

#define RAPIDJSON_ASSERT(x) ACTX_ASSERT(x)
#include <rapidjson/error/en.h>
#include <rapidjson/reader.h>
#include <rapidjson/stringbuffer.h>

namespace agentctx {
namespace {

class TreeBuilder {
 public:
  /// `build` false: nothing is built, only the depth is followed (ValidateJson). One handler
  /// type for both, so the reader's parse loop is instantiated once (the Embind module's size).
  explicit TreeBuilder(bool build) : build_(build) {}

  bool Null() { return !build_ || Add(JsonValue()); }
  bool Bool(bool b) { return !build_ || Add(JsonValue::Bool(b)); }
  bool Int(int) { return false; }  // never called with kParseNumbersAsStringsFlag
  bool Uint(unsigned) { return false; }
  bool Int64(int64_t) { return false; }
  bool Uint64(uint64_t) { return false; }
  bool Double(double) { return false; }
  bool RawNumber(const char* str, rapidjson::SizeType len, bool) {
    return !build_ || Add(JsonValue::RawNumber(std::string(str, len)));
  }
  bool String(const char* str, rapidjson::SizeType len, bool) {
    return !build_ || Add(JsonValue::String(Clean(str, len)));
  }
  bool StartObject() { return Open(JsonValue::Object()); }
  bool Key(const char* str, rapidjson::SizeType len, bool) {
    if (build_) pending_keys_.push_back(Clean(str, len));
    return true;
  }
  bool EndObject(rapidjson::SizeType) { return Close(); }
  bool StartArray() { return Open(JsonValue::Array()); }
  bool EndArray(rapidjson::SizeType) { return Close(); }

  bool depth_exceeded() const { return depth_exceeded_; }
  bool root_is_object() const { return root_is_object_; }
  JsonValue TakeRoot() { return std::move(root_); }

 private:
  static std::string Clean(const char* str, rapidjson::SizeType len) {
    std::string_view s(str, len);
    return IsValidUtf8(s) ? std::string(s) : LossyUtf8(s);
  }

  bool Add(JsonValue v) {
    if (stack_.empty()) {
      root_ = std::move(v);
      return true;
    }
    JsonValue& top = stack_.back();
    if (top.is_array()) {
      top.Push(std::move(v));
    } else {
      // Appended as read; repeated keys are merged once the object is complete (Close).
      top.members().push_back(JsonMember{std::move(pending_keys_.back()), std::move(v)});
      pending_keys_.pop_back();
    }
    return true;
  }
  bool Open(JsonValue v) {
    if (depth_ == 0) root_is_object_ = v.is_object();
    if (depth_ >= kMaxJsonDepth) {
      depth_exceeded_ = true;
      return false;
    }
    ++depth_;
    if (build_) stack_.push_back(std::move(v));
    return true;
  }
  bool Close() {
    --depth_;
    if (!build_) return true;
    JsonValue done = std::move(stack_.back());
    stack_.pop_back();
    // Duplicate keys: the last value wins, at the first key's place (as JsonValue::Set leaves
    // it), merged in n log n: a check of each key against the earlier ones made an object of
    // 100 000 keys take 44 s.
    if (done.is_object()) MergeDuplicateKeys(&done.members());
    return Add(std::move(done));
  }

  std::vector<JsonValue> stack_;
  std::vector<std::string> pending_keys_;
  JsonValue root_;
  int depth_ = 0;
  bool build_ = true;
  bool root_is_object_ = false;
  bool depth_exceeded_ = false;
};

template <typename Handler>
Result<void> Read(std::string_view text, Handler& handler) {
  rapidjson::Reader reader;
  rapidjson::MemoryStream ms(text.data(), text.size());
  rapidjson::EncodedInputStream<rapidjson::UTF8<>, rapidjson::MemoryStream> is(ms);
  constexpr unsigned kFlags =
      rapidjson::kParseIterativeFlag | rapidjson::kParseNumbersAsStringsFlag;
  rapidjson::ParseResult ok = reader.Parse<kFlags>(is, handler);
  if (!ok) {
    std::string message = handler.depth_exceeded() ? "JSON nesting exceeds the maximum depth"
                                                   : rapidjson::GetParseError_En(ok.Code());
    Error error{ErrorCode::kInvalidJson,
                "invalid JSON at byte " + std::to_string(ok.Offset()) + ": " + message,
                {{"offset", std::to_string(ok.Offset())}}};
    return Fail(std::move(error));
  }
  return {};
}

}  // namespace

Result<void> ValidateJson(std::string_view text, bool* object) {
  TreeBuilder validator(/*build=*/false);
  ACTX_TRY_VOID(Read(text, validator));
  if (object != nullptr) *object = validator.root_is_object();
  return {};
}

Result<JsonValue> ParseJson(std::string_view text) {
  TreeBuilder builder(/*build=*/true);
  ACTX_TRY_VOID(Read(text, builder));
  return builder.TakeRoot();
}

}  // namespace agentctx
