// SPDX-License-Identifier: MIT
// Cache explainer, step 6 (see cache_explainer.h): OpenAI's breakpoint cache for GPT-5.6 and
// later, run over the request's prefix identities. Compiled -Oz in the Embind build with the
// rest of the cost path.
#include <algorithm>

#include "provider/cache/cache_explainer.h"

namespace agentctx {

void CacheExplainer::PredictOpenAi(const PromptSegments& prompt, std::uint64_t raw_shared,
                                   CacheReport* r) {
  const BreakpointRule& rule = *prompt.breakpoints;
  if (openai_cache_.lookup_depth() != rule.openai_lookup_depth) {
    openai_cache_ = OpenAiBreakpointCache(rule.openai_lookup_depth);
  }
  // The namespace and the head (instructions, tools) seed every prefix identity; a head within
  // the prefix shared with the previous request keeps its identity (not rehashed).
  std::uint64_t space = ChainHash(ChainHash(0, prompt.model), prompt.cache_key);
  for (const auto& setting : prompt.settings) {
    space = ChainHash(ChainHash(space, setting.first), setting.second);
  }
  std::uint64_t bytes = prompt.instructions_bytes.size() + prompt.tools_bytes.size();
  const bool same_head = has_previous_ && prev_head_id_ != 0 && space == prev_namespace_id_ &&
                         prev_segments_.size() >= 2 &&
                         prev_segments_[0].bytes.size() == prompt.instructions_bytes.size() &&
                         prev_segments_[1].bytes.size() == prompt.tools_bytes.size() &&
                         bytes <= raw_shared;
  const std::uint64_t head =
      same_head ? prev_head_id_
                : ChainHash(ChainHash(space, prompt.instructions_bytes), prompt.tools_bytes);

  BreakpointCacheRequest request;
  request.prefix_ids.reserve(prompt.items.size());
  request.prefix_tokens.reserve(prompt.items.size());
  // An item inside the prefix shared with the previous request, with the same bounds, has the
  // previous identity: only the new items are hashed.
  bool reuse = has_previous_ && head == prev_head_id_;
  std::uint64_t id = head;
  for (std::size_t i = 0; i < prompt.items.size(); ++i) {
    const std::string_view item = prompt.items[i].bytes;
    bytes += item.size();
    reuse = reuse && i < prev_item_ids_.size() && i + 2 < prev_segments_.size() &&
            prev_segments_[i + 2].bytes.size() == item.size() && bytes <= raw_shared;
    id = reuse ? prev_item_ids_[i] : ChainHash(id, item);
    request.prefix_ids.push_back(id);
    request.prefix_tokens.push_back(TokensForBytes(bytes));
  }
  std::uint64_t longest = 0;
  for (const CacheMark& m : rule.marks) {
    if (m.items == 0 || m.items > prompt.items.size()) continue;
    request.breakpoints.push_back(m.items - 1);
    request.ttl_ms = m.ttl_ms;
    const std::uint64_t tokens = request.prefix_tokens[m.items - 1];
    if (tokens >= rule.min_cacheable_tokens) longest = std::max(longest, tokens);
  }
  std::sort(request.breakpoints.begin(), request.breakpoints.end());
  request.breakpoints.erase(std::unique(request.breakpoints.begin(), request.breakpoints.end()),
                            request.breakpoints.end());
  const BreakpointCacheResult result = openai_cache_.Run(request, rule.now_ms);

  const bool live = has_previous_ && rule.now_ms <= prev_cached_expires_ms_;
  r->breakpoints = true;
  r->predicted_cached_tokens = result.read;
  r->ideal_cached_tokens =
      std::max(result.read, live ? std::min(prev_cached_tokens_, r->prompt_tokens) : 0);
  r->predicted_cache_write_tokens = result.written;
  r->predicted_cache_write_1h_tokens = request.ttl_ms > kOpenAiTtl30mMs ? result.written : 0;

  prev_namespace_id_ = space;
  prev_head_id_ = head;
  prev_item_ids_ = std::move(request.prefix_ids);
  prev_cached_tokens_ = longest;
  prev_cached_expires_ms_ = rule.now_ms + request.ttl_ms;
}

}  // namespace agentctx
