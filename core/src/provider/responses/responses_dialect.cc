// SPDX-License-Identifier: MIT
// ResponsesDialect; see responses_dialect.h.
#include "provider/responses/responses_dialect.h"

#include "protocol/json_value.h"
#include "provider/cache/openai_breakpoint_cache.h"
#include "provider/responses/openai_cache.h"
#include "provider/responses/request_body.h"

namespace agentctx {
namespace {

PromptSegments SegmentsOf(const BodyParams& p, std::string_view instructions_json,
                          const std::vector<ItemSegment>& items) {
  PromptSegments segments;
  segments.provider = ToWire(Provider::kResponses);
  segments.model = p.model;
  // A body without the key has none to change.
  segments.cache_key = p.features(ProviderFeature::kPromptCacheKey) ? p.prompt_cache_key : "";
  segments.instructions_bytes = instructions_json;
  segments.tools_bytes = p.tools_bytes;
  segments.items = items;
  segments.settings = CacheSettingsOf(p, DiagnosisVocabulary::kOpenAi);
  return segments;
}

// GPT-5.6 and later: the breakpoint cache's rule for the explainer (cache_explainer.h, step 6):
// the explicit marks placed (`marks`) and, in mode implicit (also when no prompt_cache_options
// are sent), the provider's own breakpoint at the newest user, developer or tool-output item.
std::optional<BreakpointRule> OpenAiRuleOf(const BodyParams& p,
                                           const std::vector<ItemSegment>& items,
                                           const std::vector<std::size_t>* marks,
                                           std::int64_t now_ms) {
  if (!HasPromptCacheOptions(p.model)) return std::nullopt;
  const bool options = p.features(ProviderFeature::kCacheBreakpoints);
  BreakpointRule rule;
  rule.now_ms = now_ms;
  rule.min_cacheable_tokens = kOpenAiMinPrefixTokens;
  rule.openai_lookup_depth = kOpenAiLookupDepth;
  CacheMark mark;
  mark.ttl_ms = options && p.cache_ttl == OpenAiCacheTtl::k12h ? kOpenAiTtl12hMs : kOpenAiTtl30mMs;
  if (marks != nullptr) {
    for (std::size_t i : *marks) {
      mark.items = i + 1;
      rule.marks.push_back(mark);
    }
  }
  if (!options || p.cache_mode != OpenAiCacheMode::kExplicit) {
    for (std::size_t i = items.size(); i-- > 0;) {
      if (!IsImplicitBreakpointItem(items[i].bytes)) continue;
      mark.items = i + 1;
      rule.marks.push_back(mark);
      break;
    }
  }
  return rule;
}

}  // namespace

void ResponsesDialect::PlanMarks(BodyParams* p, std::string_view instructions_json,
                                 const std::vector<ItemSegment>& items,
                                 std::vector<std::size_t>* marks, RenderedRequest* r) {
  BreakpointPlan plan = PlanOpenAiBreakpoints(*p, instructions_json, items);
  *marks = MarkedItems(plan);
  p->cache_marks = marks;
  r->marks = BreakpointPlanToJson(plan, /*with_ttl=*/false);
}

bool HasPromptCacheOptions(std::string_view model) {
  // gpt-<major>[.<minor>]…: 5.6 and later.
  constexpr std::string_view kPrefix = "gpt-";
  if (model.substr(0, kPrefix.size()) != kPrefix) return false;
  std::size_t at = kPrefix.size();
  auto number = [&](int* out) {
    const std::size_t start = at;
    *out = 0;
    while (at < model.size() && model[at] >= '0' && model[at] <= '9' && *out < 1000) {
      *out = *out * 10 + (model[at++] - '0');
    }
    return at > start;
  };
  int major = 0;
  int minor = 0;
  if (!number(&major)) return false;
  if (at < model.size() && model[at] == '.') {
    ++at;
    if (!number(&minor)) return false;
  }
  return major > 5 || (major == 5 && minor >= 6);
}

RenderedRequest ResponsesDialect::RenderTurn(const BodyParams& p,
                                             const std::vector<PromptItem>& prompt,
                                             std::size_t stable,
                                             const std::vector<ItemSegment>& items,
                                             const DialectOptions&, std::int64_t now_ms) {
  RenderedRequest r;
  r.endpoint = endpoint();
  // J(instructions), escaped again only when the instructions change (often kilobytes).
  if (p.instructions != instructions_source_) {
    instructions_source_.assign(p.instructions.data(), p.instructions.size());
    instructions_json_ = p.instructions.empty() ? std::string() : JsonString(p.instructions);
  }
  if (p.features(ProviderFeature::kCacheBreakpoints)) {
    BodyParams marked = p;
    PlanMarks(&marked, instructions_json_, items, &turn_marks_, &r);
    r.body = builder_.Build(marked, prompt, stable);
    r.rule = OpenAiRuleOf(p, items, &turn_marks_, now_ms);
  } else {
    r.body = builder_.Build(p, prompt, stable);
    r.rule = OpenAiRuleOf(p, items, nullptr, now_ms);
  }
  r.segments = SegmentsOf(p, instructions_json_, items);
  return r;
}

RenderedRequest ResponsesDialect::Once(const BodyParams& p, const std::vector<ItemSegment>& items,
                                       bool remote, std::int64_t now_ms, std::string* owned) {
  once_bytes_.clear();
  once_bytes_.reserve(items.size());
  for (const ItemSegment& item : items) once_bytes_.push_back(item.bytes);
  BodyParams with_items = p;
  with_items.items = &once_bytes_;
  once_instructions_json_ = p.instructions.empty() ? std::string() : JsonString(p.instructions);
  RenderedRequest r;
  if (!remote && p.features(ProviderFeature::kCacheBreakpoints)) {
    PlanMarks(&with_items, once_instructions_json_, items, &once_marks_, &r);
  }
  *owned = remote ? BuildCompactBody(with_items) : BuildResponsesBody(with_items);
  r.endpoint = remote ? std::string_view("responses/compact") : endpoint();
  r.body = *owned;
  r.segments = SegmentsOf(p, once_instructions_json_, items);
  if (p.compaction_trigger && !remote) {  // the explainer sees the trigger item too
    r.segments.items.push_back(ItemSegment{kCompactionTriggerItem, "compaction", 0});
  }
  // The compaction endpoint reads no breakpoint cache (and reports no usage).
  if (!remote) {
    const bool planned = p.features(ProviderFeature::kCacheBreakpoints);
    r.rule = OpenAiRuleOf(p, r.segments.items, planned ? &once_marks_ : nullptr, now_ms);
  }
  return r;
}

RenderedRequest ResponsesDialect::RenderOnce(const BodyParams& p,
                                             const std::vector<ItemSegment>& items,
                                             const DialectOptions&, std::int64_t now_ms,
                                             std::string* owned) {
  return Once(p, items, /*remote=*/false, now_ms, owned);
}

FeatureAvailability ResponsesDialect::Availability(ProviderFeature feature,
                                                   std::string_view model) const {
  // prompt_cache_key has been in every Responses body from the start; the features of the 2026
  // API are offered once their rendering exists (docs/providers.md).
  if (feature == ProviderFeature::kPromptCacheKey) return FeatureAvailability::kEveryEndpoint;
  // compaction_trigger / context_management: where the official API is (an endpoint without
  // them refuses, and the session compacts locally from then on).
  if (feature == ProviderFeature::kInbandCompaction) return FeatureAvailability::kOfficialOnly;
  // prompt_cache_options / prompt_cache_breakpoint: GPT-5.6 and later, at the official API.
  if (feature == ProviderFeature::kCacheBreakpoints && HasPromptCacheOptions(model)) {
    return FeatureAvailability::kOfficialOnly;
  }
  if (feature == ProviderFeature::kCacheDiagnostics && HasPromptCacheOptions(model)) {
    return FeatureAvailability::kOfficialOnly;
  }
  // `prompt_cache_options.prewarm`: GPT-5.6 and later at the official API.
  if (feature == ProviderFeature::kPrewarm && HasPromptCacheOptions(model)) {
    return FeatureAvailability::kOfficialOnly;
  }
  // `additional_tools` items: the 2026 models (the same 5.6+ rule), at the official API; any
  // other model or endpoint when the config asks for it.
  if (feature == ProviderFeature::kToolChanges) {
    return HasPromptCacheOptions(model) ? FeatureAvailability::kOfficialOnly
                                        : FeatureAvailability::kOnRequest;
  }
  return FeatureAvailability::kNone;
}

std::vector<std::string_view> ResponsesDialect::ParametersOf(ProviderFeature feature) const {
  switch (feature) {
    case ProviderFeature::kPromptCacheKey:
      return {"prompt_cache_key"};
    case ProviderFeature::kCacheBreakpoints:
      return {"prompt_cache_options", "prompt_cache_breakpoint"};
    case ProviderFeature::kCacheDiagnostics:
      return {"comparison_response_id", "prompt_cache_options"};
    case ProviderFeature::kToolChanges:
      return {"additional_tools"};
    case ProviderFeature::kInbandCompaction:
      return {"context_management", "compaction_trigger"};
    case ProviderFeature::kPrewarm:
      return {"prewarm"};
    case ProviderFeature::kSystemMessages:
    case ProviderFeature::kContextEditing:
      break;
  }
  return {};
}

std::optional<RenderedRequest> ResponsesDialect::RenderRemoteCompaction(
    const BodyParams& p, const std::vector<ItemSegment>& items, std::string* owned) {
  return Once(p, items, /*remote=*/true, 0, owned);
}

}  // namespace agentctx
