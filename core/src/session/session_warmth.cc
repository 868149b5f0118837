// SPDX-License-Identifier: MIT
// Warmth-aware compaction in the session (ours, docs/compaction-timing.md). The rule is
// compaction/warmth.h; here: its inputs (the previous request's time, the context tokens and
// thresholds, the config) and the cache_summary view of the decisions.
//  1. Every model request notes its time (StartStep, IssueCompactionRequest); resume takes the
//     timestamp of the rollout's newest cache_report line (one per request).
//  2. PreTurnTrigger asks ColdCacheDecisionNow() after the hard limit; a decision makes the
//     compaction `pre_turn` with reason `cache_cold` in both compaction events.
//  3. cache_summary lists the decisions under `compaction_decisions` (absent when none).
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

JsonValue Session::CacheSummary(const TypedPrices* prices) const {
  JsonValue summary = explainer_.Summary(prices, dialect_->pricing());
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
