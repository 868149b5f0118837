// SPDX-License-Identifier: MIT
// The C++ runner of the session fixture corpus (tests/fixtures/sessions/README.md): replays one
// script.json through the Engine facade against the embedded mock model, acting as the host,
// and renders the four expected files. wasm/test/session_fixtures.test.mjs (Embind package) and
// wasi-host/test/session_fixtures.test.mjs (WASI guest over a preopened directory) implement the
// same algorithm, so all runners compare against the same bytes.
//
// Host algorithm (must stay identical in the three runners):
//  1. The workspace FileSystem "workspace" holds `files`; `session.start` {config, now_ms}.
//  2. Each step is one engine call (submit, update, tick, interrupt, retry, compact, or a raw
//     `call`) at the step's now_ms (default: the previous one), or a workspace write/remove.
//  3. Every call's envelope becomes an effects line `{"method":M,"envelope":E}` (E verbatim).
//     Effects are acted on in order: persist lines join the rollout; a model_request's body is
//     a requests line and is answered (below); tool_calls whose output the script gives (by
//     call id, else by name) are answered after the envelope's other effects, in call order or
//     in reverse (`host_output_order`). Follow-up calls run FIFO at the same now_ms.
//  4. A model_request (id, attempt) is answered by the first `models` entry matching it:
//     `hold` → nothing (the request stays in flight); `events` → one `events` delivery, then
//     `end`; `error` → one model_error delivery with its
//     fields; otherwise `mock.respond` (now_ms) → the whole SSE as one delivery, cut to its first
//     `cut_after_bytes` bytes when given, then `end` (responses/compact: a model_response).
//  5. summary.json = token_usage totals (cached share in basis points, floored) plus the final
//     `cache_summary` and `stats` values, verbatim.
#pragma once

#include <string>

namespace agentctx::testing {

struct SessionScriptResult {
  std::string error;     // non-empty when the script itself is malformed or a runner step failed
  std::string requests;  // expected/requests.jsonl
  std::string effects;   // expected/effects.jsonl
  std::string rollout;   // expected/rollout.jsonl
  std::string summary;   // expected/summary.json
};

/// Replays `script_json` (the contents of a case's script.json).
SessionScriptResult RunSessionScript(const std::string& script_json);

struct ResumeComparison {
  std::string error;
  std::string resume_envelope;  // session.resume's envelope
  std::string original_body;    // the next request of the uninterrupted session
  std::string resumed_body;     // the next request after resuming its rollout
};

/// Replays the script, then resumes its rollout on a fresh engine (same workspace, the config as
/// the script's updates left it) and submits `text` on both sessions (the same rollout
/// resumed must give the same next body).
ResumeComparison ReplayThenResume(const std::string& script_json, const std::string& text);

}  // namespace agentctx::testing
