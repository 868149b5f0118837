// SPDX-License-Identifier: MIT
// Prefix-stability metrics and the cache-break explainer behind `cache_report`
// (docs/providers.md, docs/replay.md). Pure: no I/O, no clock.
//
// The prompt of a request is P = J(instructions) ‖ J(tools) ‖ J(item_1) ‖ … ‖ J(item_n), kept as
// segments (never concatenated). For each request, in issue order, CacheExplainer compares P with
// the previous request's prompt and reports:
//   1. shared = longest common byte prefix (0 for the first request or another namespace
//      (provider, model, prompt_cache_key)); max_shared = |P_prev| (0 for the first request, and
//      for a request to another provider: each provider keeps its own cache, so the best
//      possible reuse is 0);
//   2. reuse_bp / max_reuse_bp (floored basis points), predicted / ideal cached tokens via
//      Cacheable(floor(bytes / 4));
//   3. a break iff shared < max_shared or the provider changed, its reason by first match:
//      provider_changed (section "provider"; lost_tokens 0, since nothing was reusable),
//      model_changed (section "model"), cache_key_changed (section "cache_key"), else by the
//      segment of P_prev that holds
//      byte `shared`: instructions_changed (section "instructions"), tools_changed (section
//      "tools"; history_rewritten_by_compaction when a compaction came in between, since it
//      rewrote everything after and, under `defer`, released the new tools),
//      history_rewritten_by_compaction if NoteCompaction() was called since the previous
//      request, else item_edited. Item breaks carry item_index (0-based index into the previous
//      prompt's items) and section = that item's origin (for both item reasons).
//      Request settings that key the provider's cache without showing in the prompt text
//      (PromptSegments::settings, chosen by the dialect: reasoning effort, verbosity, …) are part
//      of the namespace: when one changed, nothing is shared and the reason is
//      `<setting>_changed` (section "settings"), checked after a tools break and, where the
//      provider says so (settings_outrank_input), before an instructions or item break.
// The section names "provider", "model", "cache_key" and "instructions" are agentctx's own.
// A resumed session knows only the namespace and size of the request before the resume
// (SeedPredecessor): against it a request names provider_changed or model_changed as above, and
// is otherwise explained as a first request (its bytes are unknown).
//
// Provider anthropic (PromptSegments::breakpoints): Anthropic caches only up to its
// `cache_control` marks, so the cached tokens follow the breakpoint plan instead of steps 1–2:
//   4. read = the longest prefix the previous request marked (and so wrote) that this request
//      can read: the same model, its bytes intact (a mark covers the tools alone, or the
//      instructions, the tools and the first n items; P's segments, in another order than
//      Anthropic's tools → system → messages, so "intact" = equal tools, or shared ≥ its bytes),
//      its TTL not past (now − the previous request's time ≤ the mark's TTL), not under the
//      model's minimum, and within the 20-block lookback of one of this request's marks (counted
//      in items: a message has at least one block, so a step adding many blocks in few items
//      reads less than predicted). predicted_cached_tokens = read; ideal_cached_tokens = the
//      same without "intact"; a break's lost_tokens = ideal − predicted as before.
//   5. write = the tokens up to this request's longest mark beyond the read
//      (predicted_cache_write_tokens), of which those up to its longest 1 h mark
//      (predicted_cache_write_1h_tokens) are written at the 1 h price.
// Provider responses, GPT-5.6 and later (BreakpointRule::openai_lookup_depth set): OpenAI's
// breakpoint cache, by the rule the mock provider runs too (openai_breakpoint_cache.h):
//   6. the explainer keeps that cache's state over the session's requests (prefix identities
//      of the unmarked segments, namespaced by model, cache key and settings; identities of the
//      prefix shared with the previous request are reused, not rehashed);
//      predicted_cached_tokens = its read, exact (no 128-token rounding);
//      predicted_cache_write_tokens = its writes beyond the read (of which
//      predicted_cache_write_1h_tokens, the long-TTL ones: all of them under a 12 h TTL);
//      ideal_cached_tokens = the longest prefix the previous request cached, if still live.
// Cost (Summary with prices, cache_pricing.h): each request priced by its own rule — OpenAI's
// for a prompt without Anthropic's breakpoints, Anthropic's with — predicted from the prompt tokens
// and the prediction, reported from the provider's usage (NoteReportedUsage): its 1 h writes as the
// provider split them (Anthropic's usage.cache_creation), else by the predicted 1 h share.
// Invariants: the explainer keeps its own copy of the previous prompt's segment bytes; after a
// request only the segments that differ from the stored ones are copied (an append-only history
// copies just the new items). Item segments with equal non-zero serials (PromptItem::serial)
// hold equal bytes: they are neither compared nor copied, so an append-only step reads only
// its new bytes. Totals are uint64; ratios are integer basis points, floored.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "prompt/prompt_bytes.h"
#include "protocol/json_value.h"
#include "provider/cache/cache_pricing.h"
#include "provider/cache/openai_breakpoint_cache.h"
#include "provider/cache/prefix_totals.h"

namespace agentctx {

/// One history item as sent: a view of its canonical bytes (owned by the caller, valid during
/// CacheExplainer::Explain) and its origin (section id, user, model, tool, compaction).
struct ItemSegment {
  std::string_view bytes;
  std::string_view origin;
  std::uint64_t serial = 0;  ///< identity of the bytes (0 = unknown: compared byte by byte)
};

/// One placed Anthropic `cache_control` mark of a request. It covers the tools
/// segment alone (`tools_only`), or the instructions (system), the tools and the first `items`
/// items.
struct CacheMark {
  std::uint64_t tokens = 0;  ///< the plan's prefix_tokens: ceil(bytes / 4) up to the mark
  std::int64_t ttl_ms = 300000;
  bool tools_only = false;
  std::size_t items = 0;
};

/// A mark-based cache rule for one request: its placed marks in prompt order, the model's
/// minimum cacheable prompt and the request's time (for the TTLs). Anthropic's rule, or with
/// `openai_lookup_depth` set OpenAI's (GPT-5.6+, step 6): then `marks` are the request's
/// breakpoints, explicit and implicit, each covering `items` items.
struct BreakpointRule {
  std::vector<CacheMark> marks;
  std::uint64_t min_cacheable_tokens = 1024;
  std::int64_t now_ms = 0;
  std::size_t openai_lookup_depth = 0;  ///< 0: Anthropic's rule
};

/// The prompt of one request, by segment. Views only: the caller keeps the bytes alive for the
/// duration of the Explain() call; nothing is retained by reference.
struct PromptSegments {
  /// The provider (its wire name) the request goes to; each provider has its own cache.
  std::string_view provider;
  std::string_view model;
  std::string_view cache_key;
  std::string_view instructions_bytes;  ///< a JSON string literal, or empty when omitted
  std::string_view tools_bytes;         ///< the tools array bytes, e.g. "[]"
  std::vector<ItemSegment> items;
  /// Set: Anthropic's breakpoint rule (steps 4–5); null: OpenAI's prefix rule (steps 1–2).
  const BreakpointRule* breakpoints = nullptr;
  /// The request settings that key the provider's cache, (name, rendered value), in the order
  /// the provider checks them; a setting absent from one request and present in the other
  /// changed.
  std::vector<std::pair<std::string_view, std::string>> settings;
  /// Whether a changed setting is named before an instructions or item break (OpenAI) or only
  /// when the text is unchanged (Anthropic).
  bool settings_outrank_input = true;
};

// tokens(b) = floor(b / 4) and cacheable(t) (0 under 1024, else 128-token steps from 1024) are
// TokensForBytes and Cacheable of prompt/prompt_bytes.h: one definition each, shared with the
// mock's cache simulator.
/// floor(10000·part / whole), 0 when whole is 0.
std::uint64_t BasisPoints(std::uint64_t part, std::uint64_t whole);

struct CacheBreak {
  std::string reason;   ///< provider_changed | model_changed | cache_key_changed | …
  std::string section;  ///< provider | model | cache_key | instructions | tools | item origin
  std::optional<std::uint64_t> item_index;
  std::uint64_t byte_offset = 0;  ///< = shared_prefix_bytes
  std::uint64_t lost_tokens = 0;  ///< ideal − predicted
};

/// The metrics of one request (steps 1–5 above).
struct CacheReport {
  std::string request_id;
  std::uint64_t prompt_bytes = 0;
  std::uint64_t prompt_tokens = 0;
  std::uint64_t shared_prefix_bytes = 0;
  std::uint64_t max_shared_prefix_bytes = 0;  ///< |P_prev|; not part of the JSON
  std::uint64_t reuse_bp = 0;
  std::uint64_t max_reuse_bp = 0;
  std::uint64_t predicted_cached_tokens = 0;
  std::uint64_t ideal_cached_tokens = 0;
  std::optional<CacheBreak> cache_break;
  bool breakpoints = false;  ///< predicted by a mark rule (the two fields below)
  std::uint64_t predicted_cache_write_tokens = 0;
  /// Of the writes, the long-TTL ones (Anthropic 1 h marks, OpenAI 12 h).
  std::uint64_t predicted_cache_write_1h_tokens = 0;
};

/// The `cache_report` JSON, keys always in this order:
/// {"request_id","prompt_bytes","prompt_tokens","shared_prefix_bytes","reuse_bp","max_reuse_bp",
///  "predicted_cached_tokens","ideal_cached_tokens","break":null|{"reason","section",
///  "item_index"?,"byte_offset","lost_tokens"}}, then, by a mark rule only (Anthropic's, or
///  OpenAI's GPT-5.6+ breakpoints),
///  "predicted_cache_write_tokens","predicted_cache_write_1h_tokens".
JsonValue CacheReportToJson(const CacheReport& report);

/// A request's usage as the provider reported it (token_usage).
struct ReportedUsage {
  std::uint64_t input_tokens = 0;  ///< all input, cached and written tokens included
  std::uint64_t cached_tokens = 0;
  std::uint64_t cache_write_tokens = 0;  ///< Anthropic's cache_creation_input_tokens, OpenAI's
                                         ///< cache_write_tokens
  std::uint64_t output_tokens = 0;
  /// Of the writes, those at the 1 h price, when the provider split them by TTL (Anthropic's
  /// cache_creation.ephemeral_1h_input_tokens); unset: the predicted 1 h share is used.
  std::optional<std::uint64_t> cache_write_1h_tokens;
};

class CacheExplainer {
 public:
  /// History was replaced (compaction) since the previous request.
  void NoteCompaction() { compaction_pending_ = true; }

  /// A resumed session: the request before the resume went to `provider` and `model` with a
  /// prompt of `prompt_bytes` (0 = unknown). Only a namespace change is explained against it.
  /// Ignored once a request was explained.
  void SeedPredecessor(std::string_view provider, std::string_view model,
                       std::uint64_t prompt_bytes);
  /// The same from a recorded turn_context line: its `provider` (absent: the default provider,
  /// as the rollout writer omits it) and `model`.
  void SeedPredecessorFromTurnContext(const JsonValue& turn_context, std::uint64_t prompt_bytes);

  /// Computes the report of the next request and makes `prompt` the predecessor. A retry of the
  /// same request must not call this again (it would compare the prompt with itself).
  CacheReport Explain(std::string_view request_id, const PromptSegments& prompt);
  /// Explain() as the cache_report JSON.
  JsonValue ExplainJson(std::string_view request_id, const PromptSegments& prompt) {
    return CacheReportToJson(Explain(request_id, prompt));
  }

  /// Records the provider-reported usage of a request (token_usage). A second report for the
  /// same request id replaces the first.
  void NoteReportedUsage(std::string_view request_id, const ReportedUsage& usage);

  /// The provider edited the prompt of `request_id` before reading its cache (Anthropic context
  /// editing: the bytes sent were unchanged, so Explain() could not see it). The tokens it
  /// predicted cached that the provider did not read (`reported_cached_tokens`) are lost to a
  /// `context_edited` break in the summary, counted when there are any. Returns them.
  std::uint64_t NoteContextEdit(std::string_view request_id, std::uint64_t reported_cached_tokens);

  /// {"requests","prompt_bytes","shared_prefix_bytes","max_shared_prefix_bytes",
  ///  "predicted_cached_tokens","ideal_cached_tokens","reported_cached_tokens","reuse_bp",
  ///  "max_reuse_bp","breaks":{reason:{"count","lost_tokens"}}} (breaks keyed by reason, sorted).
  /// reuse_bp = floor(10000·Σshared/Σ|P|); max_reuse_bp = floor(10000·Σmin(max_shared,|P|)/Σ|P|).
  /// Once a request was predicted by Anthropic's rule, also "predicted_cache_write_tokens",
  /// "predicted_cache_write_1h_tokens", "reported_cache_write_tokens" (the last also once an
  /// OpenAI usage reported writes). With `prices`, also
  /// "cost": {"pricing":"openai"|"anthropic"|"mixed" (the rules the requests were priced by;
  /// `current` before any request),"prices_per_million_usd":{"input","cached_input"? (OpenAI),
  /// "cache_read"?,"cache_write"?,"cache_write_1h"? (Anthropic; "cache_write" also
  /// for OpenAI models that bill writes),"output"},
  /// "predicted_input_usd","reported":{"input_tokens","cached_tokens","cache_write_tokens",
  /// "output_tokens","input_usd","output_usd","total_usd"}}. Reported writes are split by TTL
  /// as predicted (the usage does not say), at most the predicted 1 h writes at the 1 h price.
  JsonValue Summary(const TypedPrices* prices = nullptr,
                    CachePricing current = CachePricing::kOpenAi) const;

 private:
  struct StoredSegment {
    std::string bytes;
    std::string origin;
    std::uint64_t serial = 0;
  };

  // A mark of the previous request as the next one can read it.
  struct StoredMark {
    CacheMark mark;
    std::uint64_t prefix_bytes = 0;  ///< P bytes it covers (not tools_only)
  };
  // One request as costed: its prompt tokens, prediction, rule and reported usage.
  struct RequestCost {
    std::string request_id;
    bool breakpoints = false;
    bool write_premium = false;  ///< OpenAI's rule, a model that bills writes (GPT-5.6+)
    std::uint64_t prompt_tokens = 0;
    std::uint64_t predicted_cached = 0;
    std::uint64_t predicted_write = 0;
    std::uint64_t predicted_write_1h = 0;
    std::optional<ReportedUsage> reported;
  };

  void Predict(const PromptSegments& prompt, bool same_model, std::uint64_t raw_shared,
               CacheReport* r) const;
  // Step 6 (OpenAI's breakpoint cache); runs the cache, so before Store().
  void PredictOpenAi(const PromptSegments& prompt, std::uint64_t raw_shared, CacheReport* r);
  void Store(const PromptSegments& prompt, std::uint64_t shared);
  void StoreMarks(const PromptSegments& prompt);
  JsonValue SummaryCostJson(const TypedPrices& prices, CachePricing current) const;

  bool has_previous_ = false;
  bool seeded_only_ = false;  // the predecessor is SeedPredecessor's: namespace and size only
  bool compaction_pending_ = false;
  std::string prev_provider_;
  std::string prev_model_;
  std::string prev_cache_key_;
  std::vector<std::pair<std::string, std::string>> prev_settings_;
  // [0] instructions, [1] tools, [2 + i] item i.
  std::vector<StoredSegment> prev_segments_;
  std::uint64_t prev_bytes_ = 0;

  PrefixTotals totals_;
  std::uint64_t sum_predicted_ = 0;
  std::uint64_t sum_ideal_ = 0;
  // Anthropic's rule: the previous request's marks and time; the write totals.
  std::vector<StoredMark> prev_marks_;
  std::int64_t prev_now_ms_ = 0;
  bool any_breakpoints_ = false;
  std::uint64_t sum_write_ = 0;
  std::uint64_t sum_write_1h_ = 0;
  std::vector<RequestCost> costs_;  // in issue order (usage is reported for the latest)
  // OpenAI's breakpoint rule: the cache, the previous request's prefix identities (head, then
  // one per item) and the longest prefix it cached (tokens, expiry).
  OpenAiBreakpointCache openai_cache_;
  std::uint64_t prev_namespace_id_ = 0;
  std::uint64_t prev_head_id_ = 0;
  std::vector<std::uint64_t> prev_item_ids_;
  std::uint64_t prev_cached_tokens_ = 0;
  std::int64_t prev_cached_expires_ms_ = 0;
};

}  // namespace agentctx
