// SPDX-License-Identifier: MIT
// Warmth-aware compaction in the session (ours, docs/compaction-timing.md). The rule is
// compaction/warmth.h; here: its inputs (the previous request's time, the context tokens and
// thresholds, the config) and the cache_summary view of the decisions.
//  1. Every model request notes its time (StartStep, IssueCompactionRequest); resume takes the
//     timestamp of the rollout's newest cache_report line (one per request).
//  2. PreTurnTrigger asks ColdCacheDecisionNow() after the hard limit; a decision makes the
//     compaction `pre_turn` with reason `cache_cold` in both compaction events.
//  3. cache_summary lists the decisions under `compaction_decisions` (absent when none).
// Cold caches (provider/cache/cold_cache.h, docs/providers.md "Cold resume"):
//  4. resume, and every turn start past the provider's TTL, emit one `cache_cold` per idle gap
//     (the gap is named by the last request's time);
//  5. with `prewarm: auto`, feature prewarm on and PrewarmPays, the turn start sends a prewarm
//     first: the turn body (rendered once) with the prewarm parameter; its response records usage
//     and no output, then the turn request goes. A refusal of the parameter goes through
//     RefuseFeature, which sends the turn request.
#include "compaction/token_accounting.h"
#include "session/session.h"

namespace agentctx {

std::optional<ColdCacheDecision> Session::ColdCacheDecisionNow() const {
  if (!config_.compaction.auto_compact || compaction_stalled_ || history_.empty()) {
    return std::nullopt;
  }
  std::optional<CompactionThresholds> t =
      ComputeThresholds(config_.model.context_window, config_.model.auto_compact_token_limit);
  if (!t) return std::nullopt;
  WarmthPolicy policy{config_.compaction.cache_ttl_ms, config_.compaction.soft_limit_bp};
  return DecideColdCacheCompaction(last_request_ms_, now_ms_, ContextTokens(), *t, policy);
}

std::optional<ColdCacheEstimate> Session::ColdCacheNow() const {
  const CachePricing rule = dialect_->pricing();
  const bool breakpoints = FeaturesFor(config_.model)(ProviderFeature::kCacheBreakpoints);
  ColdCacheInputs in;
  in.last_request_ms = last_request_ms_;
  in.now_ms = now_ms_;
  in.ttl_ms = PromptCacheTtlMs(rule, config_.model.slug, breakpoints, config_.openai.cache_ttl,
                               config_.anthropic.cache_ttl);
  if (!last_request_ms_ || now_ms_ - *last_request_ms_ <= in.ttl_ms) return std::nullopt;
  in.prompt_tokens = EstimateNextPrompt();
  in.rule = rule;
  in.model = config_.model.slug;
  in.one_hour_writes = config_.anthropic.cache_ttl == CacheTtl::k1h;
  in.prices = config_.cache_prices;
  return EstimateColdCache(in);
}

bool Session::PrewarmWanted(const ColdCacheEstimate& cold) const {
  return config_.prewarm == PrewarmMode::kAuto &&
         FeaturesFor(config_.model)(ProviderFeature::kPrewarm) && PrewarmPays(cold);
}

void Session::WarnColdCache(const ColdCacheEstimate& cold, std::string_view trigger,
                            EffectSink* sink) {
  cold_warned_for_ms_ = last_request_ms_;
  sink->Event(ColdCacheEvent(cold, trigger, PrewarmWanted(cold)));
}

bool Session::PrewarmFirst(EffectSink* sink) {
  std::optional<ColdCacheEstimate> cold = ColdCacheNow();
  if (!cold) return false;
  if (cold_warned_for_ms_ != last_request_ms_) WarnColdCache(*cold, "turn_start", sink);
  if (!PrewarmWanted(*cold)) return false;
  // Rendered once (the turn renders stay incremental): the same bytes as the turn request's,
  // plus the prewarm parameter.
  std::vector<PromptItem> prompt =
      ForPrompt(history_, config_.model.supports_images, &prompt_cache_, ToolChangeFormNow());
  BodyParams params = BodyParamsFor(config_.model, nullptr, false);
  params.prewarm = true;
  std::string body;
  RenderedRequest request = dialect_->RenderOnce(params, ItemSegmentsOf(prompt),
                                                 config_.DialectSettings(), now_ms_, &body);
  NoteRequestIssued();
  SendRequest(NextRequestId(), "prewarm", request, std::move(body), sink);
  return true;
}

void Session::CompletePrewarm(const JsonValue& event, EffectSink* sink) {
  EndRequestStream();
  ReportUsage(event, request_->id, sink);  // output items, if any, are not history
  NoteRequestIssued();
  IssueRequest(sink);
}

JsonValue Session::CacheSummary(const TypedPrices* prices) const {
  JsonValue summary = explainer_.Summary(prices, dialect_->pricing());
  if (!diagnosis_totals_.empty()) summary.Set("provider_diagnostics", diagnosis_totals_.ToJson());
  if (cold_decisions_.empty()) return summary;
  JsonValue decisions = JsonValue::Array();
  for (const ColdCacheDecision& d : cold_decisions_) {
    JsonValue e = JsonValue::Object();
    e.Set("trigger", JsonValue::String("pre_turn"));
    AddColdCacheFields(d, &e);
    decisions.Push(std::move(e));
  }
  summary.Set("compaction_decisions", std::move(decisions));
  return summary;
}

}  // namespace agentctx
