// SPDX-License-Identifier: MIT
// Cache-break explainer; see cache_explainer.h for the algorithm.
#include "provider/cache/cache_explainer.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "support/text.h"

namespace agentctx {
namespace {

constexpr std::size_t kFixedSegments = 2;  // instructions, tools

std::size_t SegmentCount(const PromptSegments& prompt) {
  return kFixedSegments + prompt.items.size();
}

std::string_view SegmentBytes(const PromptSegments& prompt, std::size_t k) {
  if (k == 0) return prompt.instructions_bytes;
  if (k == 1) return prompt.tools_bytes;
  return prompt.items[k - kFixedSegments].bytes;
}

std::uint64_t SegmentSerial(const PromptSegments& prompt, std::size_t k) {
  return k < kFixedSegments ? 0 : prompt.items[k - kFixedSegments].serial;
}

JsonValue Num(std::uint64_t v) { return JsonValue::Int(static_cast<std::int64_t>(v)); }

// The first setting whose value differs between the two requests ("" when none did).
std::string_view ChangedSetting(const std::vector<std::pair<std::string, std::string>>& before,
                                const std::vector<std::pair<std::string_view, std::string>>& now) {
  // Plain loops over the pairs: clang 14 (Emscripten) cannot capture a structured binding.
  for (const auto& setting : now) {
    auto old = std::find_if(before.begin(), before.end(),
                            [&](const auto& b) { return b.first == setting.first; });
    if (old == before.end() || old->second != setting.second) return setting.first;
  }
  for (const auto& setting : before) {
    auto found = std::find_if(now.begin(), now.end(),
                              [&](const auto& n) { return n.first == setting.first; });
    if (found == now.end()) return setting.first;
  }
  return {};
}

}  // namespace

std::uint64_t BasisPoints(std::uint64_t part, std::uint64_t whole) {
  if (whole == 0) return 0;
  return part * 10000 / whole;
}

JsonValue CacheReportToJson(const CacheReport& r) {
  auto num = Num;
  JsonValue out = JsonValue::Object();
  out.Set("request_id", JsonValue::String(r.request_id));
  out.Set("prompt_bytes", num(r.prompt_bytes));
  out.Set("prompt_tokens", num(r.prompt_tokens));
  out.Set("shared_prefix_bytes", num(r.shared_prefix_bytes));
  out.Set("reuse_bp", num(r.reuse_bp));
  out.Set("max_reuse_bp", num(r.max_reuse_bp));
  out.Set("predicted_cached_tokens", num(r.predicted_cached_tokens));
  out.Set("ideal_cached_tokens", num(r.ideal_cached_tokens));
  if (!r.cache_break) {
    out.Set("break", JsonValue());
  } else {
    const CacheBreak& b = *r.cache_break;
    JsonValue br = JsonValue::Object();
    br.Set("reason", JsonValue::String(b.reason));
    br.Set("section", JsonValue::String(b.section));
    if (b.item_index) br.Set("item_index", num(*b.item_index));
    br.Set("byte_offset", num(b.byte_offset));
    br.Set("lost_tokens", num(b.lost_tokens));
    out.Set("break", std::move(br));
  }
  if (r.breakpoints) {
    out.Set("predicted_cache_write_tokens", num(r.predicted_cache_write_tokens));
    out.Set("predicted_cache_write_1h_tokens", num(r.predicted_cache_write_1h_tokens));
  }
  return out;
}

void CacheExplainer::SeedPredecessor(std::string_view provider, std::string_view model,
                                     std::uint64_t prompt_bytes) {
  if (has_previous_) return;
  has_previous_ = true;
  seeded_only_ = true;
  prev_provider_ = std::string(provider);
  prev_model_ = std::string(model);
  prev_bytes_ = prompt_bytes;
}

void CacheExplainer::SeedPredecessorFromTurnContext(const JsonValue& turn_context,
                                                    std::uint64_t prompt_bytes) {
  SeedPredecessor(turn_context.GetString("provider").value_or("responses"),
                  turn_context.GetString("model").value_or(""), prompt_bytes);
}

CacheReport CacheExplainer::Explain(std::string_view request_id, const PromptSegments& prompt) {
  // Step 1: prompt length and the raw common prefix with the previous prompt, segment-wise.
  const std::size_t new_count = SegmentCount(prompt);
  std::uint64_t prompt_bytes = 0;
  for (std::size_t k = 0; k < new_count; ++k) prompt_bytes += SegmentBytes(prompt, k).size();

  const bool same_provider = prev_provider_ == prompt.provider;
  if (seeded_only_ && same_provider && prev_model_ == prompt.model) {
    has_previous_ = false;  // the same namespace, bytes unknown: explained as a first request
  }
  seeded_only_ = false;
  std::uint64_t raw_shared = 0;
  if (has_previous_) {
    std::size_t i = 0, j = 0, oi = 0, oj = 0;
    while (i < prev_segments_.size() && j < new_count) {
      if (oi == 0 && oj == 0 && i == j && prev_segments_[i].serial != 0 &&
          prev_segments_[i].serial == SegmentSerial(prompt, j)) {
        raw_shared += prev_segments_[i].bytes.size();  // the same bytes: no need to read them
        ++i, ++j;
        continue;
      }
      std::string_view a = std::string_view(prev_segments_[i].bytes).substr(oi);
      std::string_view b = SegmentBytes(prompt, j).substr(oj);
      if (a.empty()) {
        ++i, oi = 0;
        continue;
      }
      if (b.empty()) {
        ++j, oj = 0;
        continue;
      }
      std::size_t common = CommonPrefixLength(a, b);
      raw_shared += common;
      if (common < std::min(a.size(), b.size())) break;
      oi += common;
      oj += common;
    }
  }

  const bool provider_changed = has_previous_ && !same_provider;
  const bool same_model = has_previous_ && same_provider && prev_model_ == prompt.model;
  const bool same_key = has_previous_ && prev_cache_key_ == prompt.cache_key;
  const std::string_view changed_setting =
      has_previous_ ? ChangedSetting(prev_settings_, prompt.settings) : std::string_view();

  CacheReport r;
  r.request_id = std::string(request_id);
  r.prompt_bytes = prompt_bytes;
  r.prompt_tokens = TokensForBytes(prompt_bytes);
  r.shared_prefix_bytes = (same_model && same_key && changed_setting.empty()) ? raw_shared : 0;
  // Another provider's cache holds nothing of this session: the best possible reuse is 0.
  r.max_shared_prefix_bytes = has_previous_ && !provider_changed ? prev_bytes_ : 0;
  r.reuse_bp = BasisPoints(r.shared_prefix_bytes, prompt_bytes);
  const std::uint64_t clamped_max = std::min(r.max_shared_prefix_bytes, prompt_bytes);
  r.max_reuse_bp = BasisPoints(clamped_max, prompt_bytes);
  r.predicted_cached_tokens = Cacheable(r.shared_prefix_bytes / 4);
  r.ideal_cached_tokens = Cacheable(r.max_shared_prefix_bytes / 4);
  const bool openai_rule =
      prompt.breakpoints != nullptr && prompt.breakpoints->openai_lookup_depth > 0;
  if (openai_rule) {
    PredictOpenAi(prompt, raw_shared, &r);
  } else {
    prev_item_ids_.clear();  // the next OpenAI-rule request rehashes its prefix
    prev_head_id_ = 0;
    prev_namespace_id_ = 0;
    prev_cached_tokens_ = 0;
    if (prompt.breakpoints != nullptr) {
      Predict(prompt, same_model && changed_setting.empty(), raw_shared, &r);
    }
  }

  if (provider_changed) {
    r.predicted_cached_tokens = 0;  // a mark rule's read of the old provider's marks, if any
    r.ideal_cached_tokens = 0;
  }
  if (r.shared_prefix_bytes < r.max_shared_prefix_bytes || provider_changed) {
    CacheBreak b;
    b.byte_offset = r.shared_prefix_bytes;
    b.lost_tokens = r.ideal_cached_tokens - r.predicted_cached_tokens;
    if (provider_changed) {
      b.reason = "provider_changed";
      b.section = "provider";
    } else if (!same_model) {
      b.reason = "model_changed";
      b.section = "model";
    } else if (!same_key) {
      b.reason = "cache_key_changed";
      b.section = "cache_key";
    } else {
      // The segment of P_prev containing byte `raw_shared` (none when the text is unchanged).
      std::uint64_t start = 0;
      std::size_t k = 0;
      for (; k < prev_segments_.size(); ++k) {
        std::uint64_t end = start + prev_segments_[k].bytes.size();
        if (raw_shared < end) break;
        start = end;
      }
      const bool text_break = k < prev_segments_.size();
      if (!changed_setting.empty() && (!text_break || (k != 1 && prompt.settings_outrank_input))) {
        b.reason = std::string(changed_setting) + "_changed";
        b.section = "settings";
      } else if (k == 0) {
        b.reason = "instructions_changed";
        b.section = "instructions";
      } else if (k == 1) {
        // A compaction in between rewrote everything after the tools anyway, and under `defer`
        // it is what released the new tools: the compaction is the cause.
        b.reason = compaction_pending_ ? "history_rewritten_by_compaction" : "tools_changed";
        b.section = "tools";
      } else {
        b.reason = compaction_pending_ ? "history_rewritten_by_compaction" : "item_edited";
        b.item_index = k - kFixedSegments;
        b.section = prev_segments_[k].origin;
      }
    }
    r.cache_break = std::move(b);
  }

  totals_.Add(r, r.cache_break ? r.cache_break->lost_tokens : 0);
  sum_predicted_ += r.predicted_cached_tokens;
  sum_ideal_ += r.ideal_cached_tokens;
  any_breakpoints_ = any_breakpoints_ || r.breakpoints;
  sum_write_ += r.predicted_cache_write_tokens;
  sum_write_1h_ += r.predicted_cache_write_1h_tokens;
  RequestCost& cost = costs_.emplace_back();
  cost.request_id = r.request_id;
  cost.breakpoints = r.breakpoints && !openai_rule;  // priced by Anthropic's rule
  cost.write_premium = !cost.breakpoints && OpenAiBillsCacheWrites(prompt.model);
  cost.prompt_tokens = r.prompt_tokens;
  cost.predicted_cached = r.predicted_cached_tokens;
  cost.predicted_write = r.predicted_cache_write_tokens;
  cost.predicted_write_1h = r.predicted_cache_write_1h_tokens;

  StoreMarks(prompt);
  Store(prompt, raw_shared);
  prev_bytes_ = prompt_bytes;
  prev_provider_ = std::string(prompt.provider);
  prev_model_ = std::string(prompt.model);
  prev_cache_key_ = std::string(prompt.cache_key);
  prev_settings_.clear();
  for (const auto& [name, value] : prompt.settings) prev_settings_.emplace_back(name, value);
  has_previous_ = true;
  compaction_pending_ = false;
  return r;
}

void CacheExplainer::Store(const PromptSegments& prompt, std::uint64_t shared) {
  // A stored segment whose bounds equal the new one's and that ends inside the common prefix
  // holds the same bytes: keep it. Everything else is copied.
  const std::size_t new_count = SegmentCount(prompt);
  std::uint64_t start = 0;
  std::uint64_t old_start = 0;
  for (std::size_t k = 0; k < new_count; ++k) {
    std::string_view bytes = SegmentBytes(prompt, k);
    std::uint64_t end = start + bytes.size();
    std::string_view origin =
        k < kFixedSegments ? std::string_view() : prompt.items[k - kFixedSegments].origin;
    const std::uint64_t serial = SegmentSerial(prompt, k);
    if (k < prev_segments_.size()) {
      StoredSegment& old = prev_segments_[k];
      bool same = old_start == start && old.bytes.size() == bytes.size() &&
                  ((serial != 0 && old.serial == serial) || end <= shared);
      old_start += old.bytes.size();
      if (!same) old.bytes.assign(bytes.data(), bytes.size());
      if (old.origin != origin) old.origin.assign(origin.data(), origin.size());
      old.serial = serial;
    } else {
      prev_segments_.push_back(StoredSegment{std::string(bytes), std::string(origin), serial});
    }
    start = end;
  }
  prev_segments_.resize(new_count);
}

}  // namespace agentctx
