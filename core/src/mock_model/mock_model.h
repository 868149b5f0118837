// SPDX-License-Identifier: MIT
// MockModel: the embedded deterministic Responses provider. It plays the *server*:
// request body bytes in, SSE text (`responses` with `stream:true`), one JSON response object
// (`responses` otherwise, as the API answers) or JSON (`responses/compact`) out. It shares no
// code path with `session`; the two meet only as bytes.
// Invariants:
//  - Output is a pure function of the body bytes, `now_ms` and the object's state: the
//    prompt-cache simulators (cache_simulator.h; for GPT-5.6 and later the breakpoint cache,
//    responses_cache.h, whose answers add `cache_write_tokens`) and the set of
//    `#mock-fail-once` bodies already seen.
//  - Bad input never aborts: unparsable JSON → kInvalidJson (serve-mock answers 400
//    `{"error":{"code":"invalid_json","message":…}}`); a body of the wrong shape or an unknown
//    endpoint → kInvalidInput. An error changes no state.
//  - Work is linear in the request's items and bounded: a body with more than
//    kMaxMockInputItems items and content parts is refused with kInvalidInput right after
//    parsing (mock_request.h), so one request can never occupy the mock for minutes.
// Algorithm (Handle):
//  1. Parse; normalise API shorthand (mock_request.h: string `input`, "easy" messages);
//     `h` = SHA-1 hex of the body bytes as sent; P (the prompt bytes: instructions, tools,
//     items, prompt/prompt_bytes.h) from the normalised body.
//  2. `responses/compact`: run P through the simulator; return
//     `{"output":[real user messages…, {"type":"compaction","encrypted_content":"mockcmp_<h>"}]}`.
//  3. `responses`: plan the rules (mock_rules.h). A failure directive (fail-once: only for a body
//     not seen before) → a failed response (stream: created, in_progress, failed), simulator
//     untouched. Else run P through the simulator and answer the items with usage
//     (sse_writer.h), as a stream or as one JSON object.
//  4. `chat/completions` / `messages` (provider_requests.h, provider_sse.h): the body
//     read as its `responses` equivalent and planned by the same rules; cached tokens from the
//     exact-prefix simulator over the Chat prompt, or the Anthropic breakpoint simulator.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <string_view>

#include "agentctx/result.h"
#include "mock_model/anthropic_cache.h"
#include "mock_model/cache_simulator.h"
#include "mock_model/mock_diagnostics.h"
#include "mock_model/responses_cache.h"

namespace agentctx {

class MockModel {
 public:
  static constexpr std::string_view kResponses = "responses";
  static constexpr std::string_view kResponsesCompact = "responses/compact";
  static constexpr std::string_view kChatCompletions = "chat/completions";
  static constexpr std::string_view kMessages = "messages";

  MockModel() = default;

  /// Answers one request. `endpoint` is "responses" (returns SSE text when the body has
  /// `stream:true`, else one JSON response object) or "responses/compact" (returns JSON). Errors:
  /// kInvalidJson (body does not parse), kInvalidInput (not an object, wrong field types, unknown
  /// endpoint).
  Result<std::string> Handle(std::string_view endpoint, std::string_view body, std::int64_t now_ms);

  /// The prompt-cache simulator (for stats and tests).
  const CacheSimulator& cache() const { return cache_; }
  const AnthropicCacheSimulator& anthropic_cache() const { return anthropic_cache_; }
  const ResponsesBreakpointCache& responses_cache() const { return responses_cache_; }

 private:
  /// chat/completions and messages: the body read as its `responses` equivalent,
  /// answered by the same rules, with that provider's cache rules and wire shape.
  Result<std::string> HandleProvider(bool anthropic, std::string_view body, std::int64_t now_ms);

  CacheSimulator cache_;                      // Responses, models before GPT-5.6
  ResponsesBreakpointCache responses_cache_;  // Responses, GPT-5.6 and later
  CacheSimulator chat_cache_;  // Chat Completions: the same exact-prefix rule, its own state
  AnthropicCacheSimulator anthropic_cache_;
  std::set<std::string> fail_once_seen_;  // body hashes already failed once
  MockDiagnostics diagnostics_;           // answered requests, for cache diagnostics
};

}  // namespace agentctx
