// SPDX-License-Identifier: MIT
// Compaction by the provider (docs/compaction-timing.md), beside the engine's local and remote
// compactions of session_compaction.cc. Both need provider feature inband_compaction; without
// it (the dialect lacks it, another endpoint, or the endpoint refused it) the engine compacts
// locally.
//  - inband: the compaction request is the turn body of for_prompt(history) with the
//    provider's trigger (BodyParams::compaction_trigger): the same prefix as the previous
//    request, so it reads the cache. The answer's `compaction` item replaces history; the
//    reinjected context goes after it (the provider drops what precedes it). An answer without
//    one fails the compaction and leaves history as it was.
//  - server: every turn request carries the threshold (BodyParams::compact_threshold = the
//    auto-compaction limit) and the engine's automatic compactions are off. A turn response
//    that carries a `compaction` item replaces history exactly as an in-band compaction does
//    (trigger `server`, context reinjected as mid-turn); the output after the item is recorded
//    as usual, and a response paused after compacting (nothing after the item) continues with
//    the next step. Manual compactions run in-band.
// Invariants: the rollout records the replacement history (`compacted`), so a resume rebuilds
// the same next body; the compaction request's usage is reported but never the session's.
#include "compaction/summary_request.h"
#include "compaction/token_accounting.h"
#include "protocol/json_codec.h"
#include "session/session.h"

namespace agentctx {

CompactionStrategy Session::CompactionRequestStrategy(const ModelConfig& model) const {
  const CompactionStrategy s = config_.compaction.strategy;
  if (s != CompactionStrategy::kInband && s != CompactionStrategy::kServer) return s;
  return FeaturesFor(model)(ProviderFeature::kInbandCompaction) ? CompactionStrategy::kInband
                                                                : CompactionStrategy::kLocal;
}

std::optional<std::int64_t> Session::ServerCompactThreshold(const ModelConfig& model) const {
  if (config_.compaction.strategy != CompactionStrategy::kServer ||
      !FeaturesFor(model)(ProviderFeature::kInbandCompaction)) {
    return std::nullopt;
  }
  auto t = ComputeThresholds(model.context_window, model.auto_compact_token_limit);
  if (!t) return std::nullopt;
  return static_cast<std::int64_t>(t->auto_limit);
}

void Session::IssueInbandCompaction(EffectSink* sink) {
  CompactionRun& run = *compaction_;
  if (CompactionRequestStrategy(run.model) != CompactionStrategy::kInband) {
    // The endpoint refused the feature since the compaction began: compact locally.
    run.strategy = CompactionStrategy::kLocal;
    run.summarization_bytes = ToJson(SummarizationMessage(config_.compaction.prompt));
    IssueCompactionRequest(sink);
    return;
  }
  std::vector<PromptItem> prompt = ForPrompt(history_, run.model.supports_images, &prompt_cache_);
  BodyParams params = BodyParamsFor(run.model, nullptr, /*compaction=*/false);
  params.compaction_trigger = true;
  params.compact_threshold.reset();
  std::string body;
  RenderedRequest request = dialect_->RenderOnce(params, ItemSegmentsOf(prompt),
                                                 config_.DialectSettings(), now_ms_, &body);
  NoteRequestIssued();
  SendRequest(NextRequestId(), "compact", request, std::move(body), sink);
}

void Session::CompleteInbandCompaction(const JsonValue& event, EffectSink* sink) {
  EndRequestStream();
  std::vector<JsonValue> output = std::move(request_->output_items);
  ReportUsage(event, request_->id, sink);  // reported, but never the session's usage
  const JsonValue* compaction = nullptr;
  for (const JsonValue& item : output) {
    if (ItemType(item) == "compaction") compaction = &item;
  }
  if (compaction == nullptr) {
    FailCompaction("no_compaction_item",
                   "the provider answered the in-band compaction request without a "
                   "`compaction` item; history is unchanged",
                   sink);
    return;
  }
  FinishCompaction({*compaction}, "", sink);
}

bool Session::ApplyServerCompaction(std::vector<JsonValue>* items, EffectSink* sink) {
  std::optional<std::size_t> last;
  for (std::size_t i = 0; i < items->size(); ++i) {
    if (ItemType((*items)[i]) == "compaction") last = i;
  }
  if (!last) return false;
  CompactionRun run;
  run.trigger = "server";
  run.strategy = CompactionStrategy::kServer;
  run.inject = true;  // the turn goes on: the context that must survive comes back now
  run.model = config_.model;
  run.tokens_before = EstimateNextPrompt();
  sink->Event(CompactionEvent("started", run.trigger, run.strategy, run.tokens_before));
  compaction_ = std::move(run);
  ApplyCompaction({(*items)[*last]}, "", sink);
  items->erase(items->begin(), items->begin() + static_cast<std::ptrdiff_t>(*last + 1));
  return true;
}

}  // namespace agentctx
