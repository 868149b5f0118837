// SPDX-License-Identifier: MIT
// The mock model's cache diagnostics, as each provider reports them: OpenAI's
// `prompt_cache_diagnostics` for a `responses` body with
// `prompt_cache_options.comparison_response_id`, Anthropic's `diagnostics` for a `messages` body
// with `diagnostics.previous_message_id`. The verdict compares the request with the mock's own
// record of the named response's request (never with anything the client computed).
// Rules:
//  - A record (Fingerprint) keeps the model, the prompt_cache_key (OpenAI), a hash and the size
//    of the tools and of the instructions / system, the settings the provider names in its
//    vocabulary (OpenAI: text.format, reasoning.effort, text.verbosity, service_tier; Anthropic:
//    thinking, tool_choice) and a hash and the end offset of each input item / message block.
//    At most kMaxRecords records, the oldest dropped (the comparison names the previous response).
//  - OpenAI, first match: unknown id → {"type":"comparison_response_not_found"}; model,
//    prompt_cache_key, tools, then each setting in the order above → {"type":"cache_miss",
//    "reason":"<x>_changed",…}; the instructions or an earlier item differ (the recorded items
//    are not a prefix of the new ones) → "context_compacted" when a `compaction` item follows the
//    divergence, else "input_changed"; otherwise {"type":"cache_hit"}. A miss carries
//    cache_missed_tokens (tokens after the divergence; for GPT-5.6+ the tokens the breakpoint
//    cache did not serve, from its own state) and comparison_reusable_tokens (before).
//  - Anthropic, first match: previous_message_id null → null (nothing to compare); unknown id →
//    {"cache_miss_reason":{"type":"previous_message_not_found"}}; model, tools, system, then the
//    message blocks (recorded blocks not a prefix) → {"cache_miss_reason":{"type":
//    "<x>_changed","cache_missed_input_tokens":n}}; a changed setting (thinking, tool_choice) →
//    {"cache_miss_reason":{"type":"unavailable"}}; otherwise null (no divergence).
// Invariants: deterministic; bounded memory; a request without the field gets no diagnostics.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mock_model/provider_requests.h"
#include "prompt/prompt_bytes.h"
#include "protocol/json_value.h"

namespace agentctx {

class MockDiagnostics {
 public:
  static constexpr std::size_t kMaxRecords = 8;

  struct Fingerprint {
    std::string model;
    std::string cache_key;
    std::uint64_t tools_hash = 0;
    std::uint64_t system_hash = 0;
    std::uint64_t head_bytes = 0;  // tools + instructions / system
    std::vector<std::string> settings;
    std::vector<std::uint64_t> item_hashes;
    std::vector<std::uint64_t> item_ends;  // bytes after the head through each item
    std::vector<bool> compaction;          // OpenAI: the item is a `compaction` item
  };

  /// A `responses` request (normalised body and its prompt bytes).
  static Fingerprint OfResponses(const JsonValue& body, const PromptBytes& prompt);
  /// A `messages` request (raw body and its cache blocks, tools then system then messages).
  static Fingerprint OfMessages(const JsonValue& body, const std::vector<AnthropicBlock>& blocks);

  /// OpenAI's `prompt_cache_diagnostics`, or nullopt when the body names no comparison.
  /// `cached_tokens`: what the breakpoint cache (GPT-5.6+, responses_cache.h) read for this
  /// request; a miss's cache_missed_tokens is then the prompt's tokens beyond that read.
  std::optional<JsonValue> DiagnoseResponses(
      const JsonValue& body, const Fingerprint& now,
      std::optional<std::uint64_t> cached_tokens = std::nullopt) const;
  /// Anthropic's `diagnostics`, or nullopt when the body has no `diagnostics`.
  std::optional<JsonValue> DiagnoseMessages(const JsonValue& body, const Fingerprint& now) const;

  /// Records the request answered as `response_id`.
  void Remember(std::string response_id, Fingerprint fingerprint);

 private:
  const Fingerprint* Find(std::string_view response_id) const;
  std::deque<std::pair<std::string, Fingerprint>> records_;
};

}  // namespace agentctx
