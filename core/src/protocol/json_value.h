// SPDX-License-Identifier: MIT
// JsonValue: the core's in-memory JSON tree, and the canonical writer.
// Invariants:
//  - Objects keep insertion order (the fixed wire key orders are built by construction);
//    SortKeys()/ToSortedJson() give the sorted form used for snapshots and patches.
//  - Numbers are kept as their source lexeme (so imported rollouts round-trip and no float is
//    ever formatted by the core); numbers the core makes are integers.
//  - Strings hold valid UTF-8 (the parser replaces invalid sequences with U+FFFD).
// Parsing lives in json_codec.h (the only RapidJSON user).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace agentctx {

struct JsonMember;

class JsonValue {
 public:
  enum class Kind : std::uint8_t { kNull, kBool, kNumber, kString, kArray, kObject };

  JsonValue() = default;  // null
  static JsonValue Bool(bool b);
  static JsonValue Int(std::int64_t n);
  /// A number from its JSON lexeme (e.g. "1.5e3"); the caller guarantees it is valid.
  static JsonValue RawNumber(std::string lexeme);
  static JsonValue String(std::string s);
  static JsonValue Array();
  static JsonValue Object();

  Kind kind() const { return kind_; }
  bool is_null() const { return kind_ == Kind::kNull; }
  bool is_bool() const { return kind_ == Kind::kBool; }
  bool is_number() const { return kind_ == Kind::kNumber; }
  bool is_string() const { return kind_ == Kind::kString; }
  bool is_array() const { return kind_ == Kind::kArray; }
  bool is_object() const { return kind_ == Kind::kObject; }

  bool bool_value() const { return bool_; }
  /// The string value (kString) or the number lexeme (kNumber).
  const std::string& string_value() const { return text_; }
  /// The integer value when this is an integral number in int64 range.
  std::optional<std::int64_t> int_value() const;

  const std::vector<JsonValue>& items() const { return items_; }
  std::vector<JsonValue>& items() { return items_; }
  const std::vector<JsonMember>& members() const { return members_; }
  std::vector<JsonMember>& members() { return members_; }

  /// Appends to an array (a null value becomes an array first).
  JsonValue& Push(JsonValue v);
  /// Sets a key (replaces in place, else appends); a null value becomes an object first.
  JsonValue& Set(std::string_view key, JsonValue v);
  bool Remove(std::string_view key);
  const JsonValue* Find(std::string_view key) const;
  JsonValue* Find(std::string_view key);

  /// Typed look-ups on objects: nullopt when absent or of another kind.
  std::optional<std::string_view> GetString(std::string_view key) const;
  std::optional<std::int64_t> GetInt(std::string_view key) const;
  std::optional<bool> GetBool(std::string_view key) const;

  /// Deep equality; object members compare as sets (order-insensitive), numbers by lexeme.
  bool operator==(const JsonValue& other) const;
  bool operator!=(const JsonValue& other) const { return !(*this == other); }

 private:
  Kind kind_ = Kind::kNull;
  bool bool_ = false;
  std::string text_;
  std::vector<JsonValue> items_;
  std::vector<JsonMember> members_;
};

struct JsonMember {
  std::string key;
  JsonValue value;
};

/// Leaves one member per key: the last value, at the place of the key's first occurrence (what
/// JsonValue::Set one member at a time would leave), in n log n whatever the keys.
void MergeDuplicateKeys(std::vector<JsonMember>* members);

/// The positions of `members` ordered by key, equal keys by position (first occurrence first).
std::vector<std::uint32_t> MembersByKey(const std::vector<JsonMember>& members);

/// Look-ups by key into one object's members that stay cheap when the object is large: a loop
/// over another object's every key (equality, merge patches) would be quadratic through
/// JsonValue::Find. Small objects are scanned; larger ones are sorted once (MembersByKey) and
/// searched. Members appended later are not looked up; none may change or go while this lives.
class MemberLookup {
 public:
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  /// Objects of at most this many members are scanned, not sorted (also the size below which
  /// MergeDuplicateKeys and MergePatchApply work pairwise).
  static constexpr std::size_t kScanLimit = 16;
  explicit MemberLookup(const std::vector<JsonMember>& members);
  /// The position of the first member named `key`, or kNone.
  std::size_t Find(std::string_view key) const;

 private:
  const std::vector<JsonMember>* members_;
  std::size_t count_;                  // members looked up: those there at construction
  std::vector<std::uint32_t> by_key_;  // empty while scanning
};

/// Compact JSON, members in stored order; strings escape only `"`, `\` and U+0000-U+001F.
std::string ToJson(const JsonValue& value);
void AppendJson(std::string* out, const JsonValue& value);
/// Compact JSON with object keys sorted by UTF-8 bytes at every level (snapshots, patches).
std::string ToSortedJson(const JsonValue& value);
/// Appends `s` as a JSON string literal: escapes only `"`, `\` and U+0000-U+001F
/// (\b \t \n \f \r, else \u00xx lowercase); `/` and non-ASCII are written raw.
void AppendJsonString(std::string* out, std::string_view s);
std::string JsonString(std::string_view s);

/// Sorts object keys recursively (stable for equal keys).
void SortKeys(JsonValue* value);
/// Removes object members whose value is null, recursively (array nulls stay): the snapshot form.
void StripNulls(JsonValue* value);

}  // namespace agentctx
