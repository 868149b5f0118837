// SPDX-License-Identifier: MIT
// The options of `rollout.inspect`; see ReplayOptionsFromJson in replay.h.
#include <optional>
#include <string>

#include "rollout/replay.h"

namespace agentctx {
namespace {

Error Bad(std::string message) { return Error{ErrorCode::kInvalidInput, std::move(message), {}}; }

}  // namespace

Result<ReplayOptions> ReplayOptionsFromJson(const JsonValue& input) {
  ReplayOptions o;
  if (const JsonValue* ttl = input.Find("ttl_ms"); ttl != nullptr && !ttl->is_null()) {
    std::optional<std::int64_t> v = ttl->int_value();
    if (!v || *v < 0) return Fail(Bad("rollout.inspect: `ttl_ms` must be an integer >= 0"));
    o.ttl_ms = *v;
  }
  if (const JsonValue* prices = input.Find("prices"); prices != nullptr && !prices->is_null()) {
    ACTX_TRY_VOID(ReadTypedPrices(*prices, "rollout.inspect", &o.prices));
  }
  if (const JsonValue* provider = input.Find("provider");
      provider != nullptr && !provider->is_null()) {
    o.provider =
        provider->is_string() ? FromWire<Provider>(provider->string_value()) : std::nullopt;
    if (!o.provider) {
      return Fail(Bad("rollout.inspect: `provider` must be " + WireChoices<Provider>()));
    }
  }
  for (const char* key : {"dump_requests", "requests"}) {
    const JsonValue* v = input.Find(key);
    if (v == nullptr || v->is_null()) continue;
    if (!v->is_bool())
      return Fail(Bad(std::string("rollout.inspect: `") + key + "` must be a bool"));
    (std::string_view(key) == "requests" ? o.table_all_requests : o.dump_requests) =
        v->bool_value();
  }
  if (const JsonValue* top = input.Find("top"); top != nullptr && !top->is_null()) {
    std::optional<std::int64_t> v = top->int_value();
    if (!v || *v < 0) return Fail(Bad("rollout.inspect: `top` must be an integer >= 0"));
    o.top_misses = static_cast<std::uint64_t>(*v);
  }
  return o;
}

}  // namespace agentctx
