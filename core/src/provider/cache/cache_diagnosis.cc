// SPDX-License-Identifier: MIT
// Provider cache verdicts and their comparison with the explainer; see cache_diagnosis.h.
#include "provider/cache/cache_diagnosis.h"

#include <utility>

namespace agentctx {
namespace {

constexpr std::string_view kHit = "cache_hit";
constexpr std::string_view kUnavailable = "unavailable";

std::string ReadOpenAi(const JsonValue* d) {
  if (d == nullptr || !d->is_object()) return std::string(kUnavailable);
  std::string_view type = d->GetString("type").value_or("");
  if (type == kHit) return std::string(kHit);
  if (type == "cache_miss") {
    if (auto reason = d->GetString("reason")) return std::string(*reason);
  }
  return std::string(kUnavailable);
}

std::string ReadAnthropic(const JsonValue* d) {
  if (d == nullptr) return std::string(kUnavailable);  // not answered at all
  if (d->is_null()) return std::string(kHit);          // no divergence detected
  if (!d->is_object()) return std::string(kUnavailable);
  const JsonValue* reason = d->Find("cache_miss_reason");
  if (reason == nullptr || !reason->is_object()) return std::string(kUnavailable);  // pending
  std::string_view type = reason->GetString("type").value_or("");
  if (type == "model_changed" || type == "system_changed" || type == "tools_changed" ||
      type == "messages_changed") {
    return std::string(type);
  }
  return std::string(kUnavailable);
}

// Rule 2: whether `provider` is a counterpart of `ours` in `vocabulary`.
bool Agrees(DiagnosisVocabulary vocabulary, std::string_view ours, std::string_view provider) {
  const bool openai = vocabulary == DiagnosisVocabulary::kOpenAi;
  if (ours.empty()) return provider == kHit;
  if (ours == "instructions_changed")
    return provider == (openai ? "input_changed" : "system_changed");
  if (ours == "item_edited") return provider == (openai ? "input_changed" : "messages_changed");
  if (ours == "context_edited") return !openai && provider == "messages_changed";
  if (ours == "history_rewritten_by_compaction") {
    // The compaction released tools held back (tool_policy defer): the provider, which checks
    // the tools first, names them.
    if (provider == "tools_changed") return true;
    return openai ? provider == "context_compacted" || provider == "input_changed"
                  : provider == "messages_changed";
  }
  if (ours == "cache_key_changed") return openai && provider == "prompt_cache_key_changed";
  // model_changed, tools_changed and the request settings keep their names.
  return ours == provider;
}

}  // namespace

std::vector<std::pair<std::string_view, std::string>> CacheSettingsOf(
    const BodyParams& p, DiagnosisVocabulary vocabulary) {
  std::vector<std::pair<std::string_view, std::string>> out;
  auto add = [&out](std::string_view name, std::optional<std::string_view> v) {
    if (v) out.emplace_back(name, std::string(*v));
  };
  if (vocabulary == DiagnosisVocabulary::kAnthropic) {
    const bool tools = !p.tools_bytes.empty() && p.tools_bytes != "[]";
    if (tools) out.emplace_back("tool_choice", p.compaction ? "none" : "auto");
    return out;
  }
  if (p.supports_reasoning) add("reasoning_effort", p.reasoning_effort);
  add("verbosity", p.verbosity);
  add("service_tier", p.service_tier);
  return out;
}

ProviderVerdict ReadProviderVerdict(const JsonValue& response, DiagnosisVocabulary vocabulary) {
  ProviderVerdict v;
  v.vocabulary = vocabulary;
  const JsonValue* d =
      response.is_object()
          ? response.Find(vocabulary == DiagnosisVocabulary::kOpenAi ? "prompt_cache_diagnostics"
                                                                     : "diagnostics")
          : nullptr;
  if (d != nullptr) v.raw = *d;
  v.reason = vocabulary == DiagnosisVocabulary::kOpenAi ? ReadOpenAi(d) : ReadAnthropic(d);
  return v;
}

std::string_view CompareVerdict(const ProviderVerdict& verdict, std::string_view engine_reason) {
  if (verdict.reason == kUnavailable) return kUnavailable;
  return Agrees(verdict.vocabulary, engine_reason, verdict.reason) ? "agrees" : "differs";
}

JsonValue CacheDiagnosisJson(std::string_view request_id, const ProviderVerdict& verdict,
                             std::string_view engine_reason) {
  JsonValue out = JsonValue::Object();
  out.Set("request_id", JsonValue::String(std::string(request_id)));
  out.Set("provider", verdict.raw);
  out.Set("provider_reason", JsonValue::String(verdict.reason));
  out.Set("engine_reason",
          engine_reason.empty() ? JsonValue() : JsonValue::String(std::string(engine_reason)));
  out.Set("verdict", JsonValue::String(std::string(CompareVerdict(verdict, engine_reason))));
  return out;
}

void DiagnosisTotals::Add(std::string_view verdict) {
  if (verdict == "agrees") {
    ++agrees;
  } else if (verdict == "differs") {
    ++differs;
  } else {
    ++unavailable;
  }
}

JsonValue DiagnosisTotals::ToJson() const {
  auto num = [](std::uint64_t v) { return JsonValue::Int(static_cast<std::int64_t>(v)); };
  JsonValue out = JsonValue::Object();
  out.Set("compared", num(agrees + differs + unavailable));
  out.Set("agrees", num(agrees));
  out.Set("differs", num(differs));
  out.Set("unavailable", num(unavailable));
  const std::uint64_t comparable = agrees + differs;
  out.Set("agreement_bp", comparable == 0 ? JsonValue() : num(agrees * 10000 / comparable));
  return out;
}

}  // namespace agentctx
