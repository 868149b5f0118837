// SPDX-License-Identifier: MIT
// RapidJSON SAX reader -> JsonValue. Iterative parsing (no recursion on input depth) with
// numbers as strings, so the lexeme is kept and no float is ever converted.
#include "protocol/json_codec.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "support/utf8.h"

#define RAPIDJSON_ASSERT(x) ACTX_ASSERT(x)
#include <rapidjson/error/en.h>
#include <rapidjson/reader.h>
#include <rapidjson/stringbuffer.h>

namespace agentctx {
namespace {

// Builds the tree bottom-up: finished values wait on one stack (keys on another) until their
// container closes, which then takes them all at once, so no member or item vector ever grows
// one element at a time and the work stays linear in the input (duplicate keys included).
class TreeBuilder {
 public:
  bool Null() { return Add(JsonValue()); }
  bool Bool(bool b) { return Add(JsonValue::Bool(b)); }
  bool Int(int) { return false; }  // never called with kParseNumbersAsStringsFlag
  bool Uint(unsigned) { return false; }
  bool Int64(int64_t) { return false; }
  bool Uint64(uint64_t) { return false; }
  bool Double(double) { return false; }
  bool RawNumber(const char* str, rapidjson::SizeType len, bool) {
    return Add(JsonValue::RawNumber(std::string(str, len)));
  }
  bool String(const char* str, rapidjson::SizeType len, bool) {
    return Add(JsonValue::String(Clean(str, len)));
  }
  bool StartObject() { return Open(); }
  bool Key(const char* str, rapidjson::SizeType len, bool) {
    keys_.push_back(Clean(str, len));
    return true;
  }
  bool EndObject(rapidjson::SizeType) { return CloseObject(); }
  bool StartArray() { return Open(); }
  bool EndArray(rapidjson::SizeType) { return CloseArray(); }

  bool depth_exceeded() const { return depth_exceeded_; }
  JsonValue TakeRoot() { return std::move(root_); }

 private:
  struct Frame {
    std::size_t first_value;  // index into values_ of the container's first child
    std::size_t first_key;    // index into keys_ of an object's first key
  };

  static std::string Clean(const char* str, rapidjson::SizeType len) {
    std::string_view s(str, len);
    return IsValidUtf8(s) ? std::string(s) : LossyUtf8(s);
  }

  bool Add(JsonValue v) {
    if (frames_.empty()) {
      root_ = std::move(v);
    } else {
      values_.push_back(std::move(v));
    }
    return true;
  }
  bool Open() {
    if (static_cast<int>(frames_.size()) >= kMaxJsonDepth) {
      depth_exceeded_ = true;
      return false;
    }
    frames_.push_back(Frame{values_.size(), keys_.size()});
    return true;
  }
  bool CloseArray() {
    const Frame frame = frames_.back();
    frames_.pop_back();
    JsonValue array = JsonValue::Array();
    array.items().reserve(values_.size() - frame.first_value);
    for (std::size_t i = frame.first_value; i < values_.size(); ++i) {
      array.items().push_back(std::move(values_[i]));
    }
    values_.resize(frame.first_value);
    return Add(std::move(array));
  }
  bool CloseObject() {
    const Frame frame = frames_.back();
    frames_.pop_back();
    const std::size_t count = values_.size() - frame.first_value;
    JsonValue object = JsonValue::Object();
    std::vector<JsonMember>& members = object.members();
    members.reserve(count);
    for (std::size_t i = 0; i < count; ++i) {
      members.push_back(JsonMember{std::move(keys_[frame.first_key + i]),
                                   std::move(values_[frame.first_value + i])});
    }
    keys_.resize(frame.first_key);
    values_.resize(frame.first_value);
    MergeDuplicateKeys(&members);
    return Add(std::move(object));
  }

  // Duplicate keys: the last value wins, at the place of the key's first occurrence (as
  // JsonValue::Set would leave it). Small objects compare pairwise; larger ones sort an index
  // by key, so a hostile object of many keys costs n log n, not n^2.
  static void MergeDuplicateKeys(std::vector<JsonMember>* members) {
    const std::size_t n = members->size();
    if (n < 2) return;
    std::vector<bool> dropped;
    if (n <= kPairwiseLimit) {
      for (std::size_t i = 1; i < n; ++i) {
        for (std::size_t j = 0; j < i; ++j) {
          if (!(dropped.size() > j && dropped[j]) && (*members)[j].key == (*members)[i].key) {
            (*members)[j].value = std::move((*members)[i].value);
            if (dropped.empty()) dropped.assign(n, false);
            dropped[i] = true;
            break;
          }
        }
      }
    } else {
      std::vector<std::uint32_t> order(n);
      for (std::size_t i = 0; i < n; ++i) order[i] = static_cast<std::uint32_t>(i);
      std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
        return (*members)[a].key < (*members)[b].key;
      });
      for (std::size_t g = 0; g < n;) {
        std::size_t end = g + 1;
        while (end < n && (*members)[order[end]].key == (*members)[order[g]].key) ++end;
        if (end - g > 1) {  // order[g] is the first occurrence, order[end - 1] the last
          (*members)[order[g]].value = std::move((*members)[order[end - 1]].value);
          if (dropped.empty()) dropped.assign(n, false);
          for (std::size_t k = g + 1; k < end; ++k) dropped[order[k]] = true;
        }
        g = end;
      }
    }
    if (dropped.empty()) return;
    std::size_t kept = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (dropped[i]) continue;
      if (kept != i) (*members)[kept] = std::move((*members)[i]);
      ++kept;
    }
    members->resize(kept);
  }

  static constexpr std::size_t kPairwiseLimit = 16;

  std::vector<Frame> frames_;
  std::vector<JsonValue> values_;
  std::vector<std::string> keys_;
  JsonValue root_;
  bool depth_exceeded_ = false;
};

}  // namespace

Result<JsonValue> ParseJson(std::string_view text) {
  TreeBuilder builder;
  rapidjson::Reader reader;
  rapidjson::MemoryStream ms(text.data(), text.size());
  rapidjson::EncodedInputStream<rapidjson::UTF8<>, rapidjson::MemoryStream> is(ms);
  constexpr unsigned kFlags =
      rapidjson::kParseIterativeFlag | rapidjson::kParseNumbersAsStringsFlag;
  rapidjson::ParseResult ok = reader.Parse<kFlags>(is, builder);
  if (!ok) {
    std::string message = builder.depth_exceeded() ? "JSON nesting exceeds the maximum depth"
                                                   : rapidjson::GetParseError_En(ok.Code());
    Error error{ErrorCode::kInvalidJson,
                "invalid JSON at byte " + std::to_string(ok.Offset()) + ": " + message,
                {{"offset", std::to_string(ok.Offset())}}};
    return Fail(std::move(error));
  }
  return builder.TakeRoot();
}

}  // namespace agentctx
