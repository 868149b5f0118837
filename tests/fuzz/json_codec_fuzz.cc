// SPDX-License-Identifier: MIT
// Fuzz target: the JSON codec (ParseJson, protocol/json_codec.h) and the canonical writers.
// Properties: parsing never crashes; a failure is kInvalidJson with an offset within the input;
// a parsed value re-serialises to JSON that parses back to an equal value with the same bytes
// (ToJson and ToSortedJson are fixed points); StripNulls leaves no null member.
#include <string>

#include "fuzz_check.h"
#include "protocol/json_codec.h"
#include "protocol/json_value.h"

namespace agentctx {
namespace {

bool HasNullMember(const JsonValue& v) {
  for (const JsonMember& m : v.members()) {
    if (m.value.is_null() || HasNullMember(m.value)) return true;
  }
  for (const JsonValue& item : v.items()) {
    if (HasNullMember(item)) return true;
  }
  return false;
}

// `bytes` = writer(value) must parse back to an equal value that the writer maps to `bytes`.
void CheckRoundTrip(const JsonValue& value, const std::string& bytes,
                    std::string (*writer)(const JsonValue&)) {
  Result<JsonValue> again = ParseJson(bytes);
  ACTX_FUZZ_CHECK(again.has_value());
  ACTX_FUZZ_CHECK(*again == value);
  ACTX_FUZZ_CHECK(writer(*again) == bytes);
}

void Run(std::string_view text) {
  Result<JsonValue> parsed = ParseJson(text);
  if (!parsed.has_value()) {
    const Error& error = parsed.error();
    ACTX_FUZZ_CHECK(error.code == ErrorCode::kInvalidJson);
    ACTX_FUZZ_CHECK(error.details.size() == 1 && error.details[0].first == "offset");
    ACTX_FUZZ_CHECK(std::stoull(error.details[0].second) <= text.size());
    return;
  }
  const JsonValue& value = *parsed;
  CheckRoundTrip(value, ToJson(value), &ToJson);
  CheckRoundTrip(value, ToSortedJson(value), &ToSortedJson);

  JsonValue stripped = value;
  StripNulls(&stripped);
  ACTX_FUZZ_CHECK(!HasNullMember(stripped));
  ACTX_FUZZ_CHECK(ParseJson(ToJson(stripped)).has_value());
}

}  // namespace
}  // namespace agentctx

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  agentctx::Run(agentctx::fuzz::AsText(data, size));
  return 0;
}
