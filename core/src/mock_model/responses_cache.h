// SPDX-License-Identifier: MIT
// The mock Responses provider's prompt cache for GPT-5.6 and later (HasPromptCacheOptions): the
// breakpoint rule (provider/cache/openai_breakpoint_cache.h) over a normalised `responses` body.
// Older slugs keep the exact-prefix simulator (cache_simulator.h).
// Reading the body:
//  - Namespace: model, prompt_cache_key and the settings OpenAI keys its cache on (text.format,
//    reasoning.effort, text.verbosity, service_tier), as sent.
//  - Prefix bytes: J(instructions) ‖ J(tools) ‖ item bytes with every `prompt_cache_breakpoint`
//    removed from the content / output blocks (a mark says where to cache, not what).
//  - Explicit breakpoints: an item whose `content` (user or developer message) or `output`
//    (function_call_output, custom_tool_call_output) holds an `input_text` / `input_image` /
//    `input_file` block with a `prompt_cache_breakpoint` object; the prefix ends with that item
//    (the mock's granularity). A mark anywhere else (instructions, tools, assistant output,
//    other blocks) is ignored.
//  - `prompt_cache_options.mode` "explicit": the latest 4 explicit breakpoints, none = no caching;
//    otherwise (implicit, the default) the latest 3 plus one at the newest user or developer
//    message or tool output, in whatever form (IsImplicitBreakpointItem).
//    `prompt_cache_options.ttl` "12h": 12 h, else 30 min.
// Usage: cached_tokens = the read; cache_write_tokens = the written tokens beyond it, reported
// under cache_write_tokens_details.ttl_12h_tokens or .ttl_30m_tokens by the request's TTL.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "prompt/prompt_bytes.h"
#include "protocol/json_value.h"
#include "provider/cache/openai_breakpoint_cache.h"

namespace agentctx {

struct ResponsesCacheUsage {
  std::uint64_t cached_tokens = 0;
  std::uint64_t cache_write_tokens = 0;
  std::uint64_t ttl_12h_tokens = 0;  ///< of the writes
};

/// `item` (its compact bytes `bytes`) without `prompt_cache_breakpoint` on its blocks.
std::string UnmarkedItemBytes(const JsonValue& item, std::string_view bytes);

class ResponsesBreakpointCache {
 public:
  explicit ResponsesBreakpointCache(std::size_t lookup_depth = kOpenAiLookupDepth)
      : cache_(lookup_depth) {}

  /// Runs one request (normalised `body`, its prompt bytes) through the cache at `now_ms`.
  ResponsesCacheUsage Lookup(const JsonValue& body, const PromptBytes& prompt, std::int64_t now_ms);
  std::size_t EntryCount() const { return cache_.EntryCount(); }

 private:
  OpenAiBreakpointCache cache_;
};

}  // namespace agentctx
