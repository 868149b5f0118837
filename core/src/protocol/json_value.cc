// SPDX-License-Identifier: MIT
// JsonValue and the canonical JSON writer. Hand-written rather than RapidJSON's
// Writer because the escaping rules are ours (lowercase \u00xx, raw `/` and non-ASCII) and
// numbers are emitted as their lexemes.
#include "protocol/json_value.h"

#include <algorithm>

namespace agentctx {

JsonValue JsonValue::Bool(bool b) {
  JsonValue v;
  v.kind_ = Kind::kBool;
  v.bool_ = b;
  return v;
}

JsonValue JsonValue::Int(std::int64_t n) {
  JsonValue v;
  v.kind_ = Kind::kNumber;
  // Manual formatting: no locale, no std::to_chars portability concerns.
  std::uint64_t mag = n < 0 ? 0 - static_cast<std::uint64_t>(n) : static_cast<std::uint64_t>(n);
  char buf[24];
  int pos = 24;
  do {
    buf[--pos] = static_cast<char>('0' + mag % 10);
    mag /= 10;
  } while (mag != 0);
  if (n < 0) buf[--pos] = '-';
  v.text_.assign(buf + pos, buf + 24);
  return v;
}

JsonValue JsonValue::RawNumber(std::string lexeme) {
  JsonValue v;
  v.kind_ = Kind::kNumber;
  v.text_ = std::move(lexeme);
  return v;
}

JsonValue JsonValue::String(std::string s) {
  JsonValue v;
  v.kind_ = Kind::kString;
  v.text_ = std::move(s);
  return v;
}

JsonValue JsonValue::Array() {
  JsonValue v;
  v.kind_ = Kind::kArray;
  return v;
}

JsonValue JsonValue::Object() {
  JsonValue v;
  v.kind_ = Kind::kObject;
  return v;
}

std::optional<std::int64_t> JsonValue::int_value() const {
  if (kind_ != Kind::kNumber || text_.empty()) return std::nullopt;
  std::size_t i = 0;
  bool negative = false;
  if (text_[0] == '-') {
    negative = true;
    i = 1;
  }
  if (i >= text_.size()) return std::nullopt;
  std::uint64_t mag = 0;
  for (; i < text_.size(); ++i) {
    char c = text_[i];
    if (c < '0' || c > '9') return std::nullopt;  // fractions and exponents are not integers
    std::uint64_t digit = static_cast<std::uint64_t>(c - '0');
    if (mag > (UINT64_MAX - digit) / 10) return std::nullopt;
    mag = mag * 10 + digit;
  }
  if (negative) {
    if (mag > static_cast<std::uint64_t>(INT64_MAX) + 1) return std::nullopt;
    return static_cast<std::int64_t>(0 - mag);
  }
  if (mag > static_cast<std::uint64_t>(INT64_MAX)) return std::nullopt;
  return static_cast<std::int64_t>(mag);
}

JsonValue& JsonValue::Push(JsonValue v) {
  if (kind_ == Kind::kNull) kind_ = Kind::kArray;
  items_.push_back(std::move(v));
  return items_.back();
}

JsonValue& JsonValue::Set(std::string_view key, JsonValue v) {
  if (kind_ == Kind::kNull) kind_ = Kind::kObject;
  for (auto& m : members_) {
    if (m.key == key) {
      m.value = std::move(v);
      return m.value;
    }
  }
  members_.push_back(JsonMember{std::string(key), std::move(v)});
  return members_.back().value;
}

bool JsonValue::Remove(std::string_view key) {
  for (auto it = members_.begin(); it != members_.end(); ++it) {
    if (it->key == key) {
      members_.erase(it);
      return true;
    }
  }
  return false;
}

const JsonValue* JsonValue::Find(std::string_view key) const {
  if (kind_ != Kind::kObject) return nullptr;
  for (const auto& m : members_) {
    if (m.key == key) return &m.value;
  }
  return nullptr;
}

JsonValue* JsonValue::Find(std::string_view key) {
  return const_cast<JsonValue*>(static_cast<const JsonValue*>(this)->Find(key));
}

std::optional<std::string_view> JsonValue::GetString(std::string_view key) const {
  const JsonValue* v = Find(key);
  if (v == nullptr || !v->is_string()) return std::nullopt;
  return std::string_view(v->text_);
}

std::optional<std::int64_t> JsonValue::GetInt(std::string_view key) const {
  const JsonValue* v = Find(key);
  if (v == nullptr) return std::nullopt;
  return v->int_value();
}

std::optional<bool> JsonValue::GetBool(std::string_view key) const {
  const JsonValue* v = Find(key);
  if (v == nullptr || !v->is_bool()) return std::nullopt;
  return v->bool_;
}

bool JsonValue::operator==(const JsonValue& other) const {
  if (kind_ != other.kind_) return false;
  switch (kind_) {
    case Kind::kNull:
      return true;
    case Kind::kBool:
      return bool_ == other.bool_;
    case Kind::kNumber:
    case Kind::kString:
      return text_ == other.text_;
    case Kind::kArray:
      return items_ == other.items_;
    case Kind::kObject: {
      if (members_.size() != other.members_.size()) return false;
      const MemberLookup others(other.members_);
      for (const auto& m : members_) {
        const std::size_t o = others.Find(m.key);
        if (o == MemberLookup::kNone || !(other.members_[o].value == m.value)) return false;
      }
      return true;
    }
  }
  return false;
}

std::vector<std::uint32_t> MembersByKey(const std::vector<JsonMember>& members) {
  std::vector<std::uint32_t> order(members.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<std::uint32_t>(i);
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    const int c = members[a].key.compare(members[b].key);
    return c < 0 || (c == 0 && a < b);
  });
  return order;
}

void MergeDuplicateKeys(std::vector<JsonMember>* members) {
  const std::size_t n = members->size();
  if (n < 2) return;
  std::vector<bool> dropped;
  auto merge = [&](std::size_t first, std::size_t later) {  // later's value moves to first
    (*members)[first].value = std::move((*members)[later].value);
    if (dropped.empty()) dropped.assign(n, false);
    dropped[later] = true;
  };
  if (n <= MemberLookup::kScanLimit) {
    for (std::size_t i = 1; i < n; ++i) {
      for (std::size_t j = 0; j < i; ++j) {
        if ((dropped.empty() || !dropped[j]) && (*members)[j].key == (*members)[i].key) {
          merge(j, i);
          break;
        }
      }
    }
  } else {
    // Equal keys are adjacent in key order, by position: the first of each run is the first
    // occurrence, and the run's later members merge into it in order (the last value wins).
    const std::vector<std::uint32_t> order = MembersByKey(*members);
    for (std::size_t i = 1, first = 0; i < n; ++i) {
      if ((*members)[order[i]].key == (*members)[order[first]].key) {
        merge(order[first], order[i]);
      } else {
        first = i;
      }
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

MemberLookup::MemberLookup(const std::vector<JsonMember>& members)
    : members_(&members), count_(members.size()) {
  if (members.size() > kScanLimit) by_key_ = MembersByKey(members);
}

std::size_t MemberLookup::Find(std::string_view key) const {
  const std::vector<JsonMember>& members = *members_;
  if (by_key_.empty()) {
    for (std::size_t i = 0; i < count_; ++i) {
      if (members[i].key == key) return i;
    }
    return kNone;
  }
  auto it =
      std::lower_bound(by_key_.begin(), by_key_.end(), key,
                       [&](std::uint32_t at, std::string_view k) { return members[at].key < k; });
  return it != by_key_.end() && members[*it].key == key ? *it : kNone;
}

void AppendJsonString(std::string* out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  out->push_back('"');
  // Bytes that need no escape go in as whole runs (one append each): the wasm builds compile
  // this file for size, where a push_back per byte was most of recording a tool's output.
  std::size_t run = 0;  // where the pending run of plain bytes starts
  for (std::size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out->append(s.data() + run, i - run);
    run = i + 1;
    char escape[6] = {'\\', 0, 0, 0, 0, 0};
    std::size_t length = 2;
    switch (c) {
      case '"':
        escape[1] = '"';
        break;
      case '\\':
        escape[1] = '\\';
        break;
      case '\b':
        escape[1] = 'b';
        break;
      case '\t':
        escape[1] = 't';
        break;
      case '\n':
        escape[1] = 'n';
        break;
      case '\f':
        escape[1] = 'f';
        break;
      case '\r':
        escape[1] = 'r';
        break;
      default:  // the other control characters: \u00XX
        escape[1] = 'u';
        escape[2] = '0';
        escape[3] = '0';
        escape[4] = kHex[c >> 4];
        escape[5] = kHex[c & 0xF];
        length = 6;
    }
    out->append(escape, length);
  }
  out->append(s.data() + run, s.size() - run);
  out->push_back('"');
}

std::string JsonString(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  AppendJsonString(&out, s);
  return out;
}

namespace {

void Append(std::string* out, const JsonValue& v, bool sorted) {
  switch (v.kind()) {
    case JsonValue::Kind::kNull:
      out->append("null");
      return;
    case JsonValue::Kind::kBool:
      out->append(v.bool_value() ? "true" : "false");
      return;
    case JsonValue::Kind::kNumber:
      out->append(v.string_value());
      return;
    case JsonValue::Kind::kString:
      AppendJsonString(out, v.string_value());
      return;
    case JsonValue::Kind::kArray: {
      out->push_back('[');
      bool first = true;
      for (const auto& item : v.items()) {
        if (!first) out->push_back(',');
        first = false;
        Append(out, item, sorted);
      }
      out->push_back(']');
      return;
    }
    case JsonValue::Kind::kObject: {
      std::vector<const JsonMember*> order;
      order.reserve(v.members().size());
      for (const auto& m : v.members()) order.push_back(&m);
      if (sorted) {
        std::stable_sort(order.begin(), order.end(),
                         [](const JsonMember* a, const JsonMember* b) { return a->key < b->key; });
      }
      out->push_back('{');
      bool first = true;
      for (const JsonMember* m : order) {
        if (!first) out->push_back(',');
        first = false;
        AppendJsonString(out, m->key);
        out->push_back(':');
        Append(out, m->value, sorted);
      }
      out->push_back('}');
      return;
    }
  }
}

}  // namespace

void AppendJson(std::string* out, const JsonValue& value) { Append(out, value, false); }

std::string ToJson(const JsonValue& value) {
  std::string out;
  Append(&out, value, false);
  return out;
}

std::string ToSortedJson(const JsonValue& value) {
  std::string out;
  Append(&out, value, true);
  return out;
}

void SortKeys(JsonValue* value) {
  if (value->is_array()) {
    for (auto& item : value->items()) SortKeys(&item);
  } else if (value->is_object()) {
    auto& members = value->members();
    std::stable_sort(members.begin(), members.end(),
                     [](const JsonMember& a, const JsonMember& b) { return a.key < b.key; });
    for (auto& m : members) SortKeys(&m.value);
  }
}

void StripNulls(JsonValue* value) {
  if (value->is_array()) {
    for (auto& item : value->items()) StripNulls(&item);
  } else if (value->is_object()) {
    auto& members = value->members();
    members.erase(std::remove_if(members.begin(), members.end(),
                                 [](const JsonMember& m) { return m.value.is_null(); }),
                  members.end());
    for (auto& m : members) StripNulls(&m.value);
  }
}

}  // namespace agentctx
