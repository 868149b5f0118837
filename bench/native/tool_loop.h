// SPDX-License-Identifier: MIT
// The tool-loop workload of the benchmarks (docs/BENCHMARKS.md) and two drivers of it.
// The workload mirrors bench/js/workload.mjs byte for byte (the smoke run checks that native and
// Embind bodies have the same size at the same step count):
//  1. session.start with WorkloadConfig() on a MemoryFileSystem holding /workspace/README.md;
//  2. submit "Run the data loop." -> request req-1;
//  3. step k (k = 1, 2, …): deliver StepSse(k) to req-k (one function_call `fetch_data`,
//     call id call_<k>, then response.completed), deliver `end`, deliver the tool output
//     ToolOutput(k, 1024) for call_<k> -> request req-<k+1>, whose body is then in hand.
// Drivers: CallLoop goes through Engine::Call (JSON in, envelope out, the body as attachment 0);
// TypedLoop drives agentctx::Session directly (the body is the effect's view), so the
// difference between the two is the facade's cost. Step inputs are prepared by Prepare*()
// outside the timed region.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "agentctx/engine.h"
#include "protocol/json_value.h"
#include "session/effects.h"
#include "session/session.h"

namespace agentctx::bench {

/// The session config (bench/js/workload.mjs CONFIG, same bytes).
std::string WorkloadConfig();
/// The user message that opens the loop's turn.
inline constexpr std::string_view kSubmitText = "Run the data loop.";
/// `now_ms` of step k (submit is at StepNow(0)).
inline std::int64_t StepNow(std::uint64_t k) { return 1000 + static_cast<std::int64_t>(k) * 1000; }
/// The text a tool returns at step k: exactly `bytes` bytes of 64-byte lines.
std::string ToolOutput(std::uint64_t k, std::size_t bytes);
/// The canned SSE answer to req-<k>.
std::string StepSse(std::uint64_t k);
/// How many steps are timed at `steps` of history: clamp(steps / 10, 20, 400).
std::uint64_t WindowFor(std::uint64_t steps);
/// `s` as a JSON string literal (quotes included).
std::string JsonQuote(std::string_view s);

/// Resident set size of this process in bytes (/proc/self/statm), 0 if unknown.
std::uint64_t ResidentBytes();
/// Bytes malloc has handed out and not got back (mallinfo2), 0 if unknown.
std::uint64_t HeapInUseBytes();

/// The workload through Engine::Call.
class CallLoop {
 public:
  struct StepInputs {
    std::uint64_t k = 0;
    std::string sse;             // input attachment 0 of the first deliver
    std::string sse_json;        // {"delivery":{…,"sse":{"$bytes":0}},"now_ms":…}
    std::string end_json;        // {"delivery":{…,"end":true},"now_ms":…}
    std::string output_json;     // {"delivery":{"type":"tool_output",…},"now_ms":…}
    std::string expect_call;     // "call_id":"call_<k>" in the first envelope
    std::string expect_request;  // "id":"req-<k+1>" in the last envelope
  };

  explicit CallLoop(std::size_t output_bytes = 1024);
  /// session.start + submit; false (with `error`) when the engine refused.
  bool Start(std::string* error);
  StepInputs Prepare(std::uint64_t k) const;
  /// One step; false (with `error`) when an envelope is not what the workload expects.
  bool Step(const StepInputs& in, std::string* error);
  /// Steps 1..n through Step(); false on the first failure.
  bool Run(std::uint64_t n, std::string* error);

  /// The body of the last request (a view valid until the next call on the handle).
  std::string_view body() const { return engine_.Attachment(handle_, 0); }
  std::uint64_t steps() const { return steps_; }
  Engine& engine() { return engine_; }
  std::uint32_t handle() const { return handle_; }

 private:
  Engine engine_;
  std::uint32_t handle_ = 0;
  std::size_t output_bytes_;
  std::uint64_t steps_ = 0;
};

/// The workload through the typed Session API (no envelopes).
class TypedLoop {
 public:
  struct StepInputs {
    JsonValue sse;     // the model_events delivery with the SSE text
    JsonValue end;     // the end delivery
    JsonValue output;  // the tool_output delivery
    std::int64_t now = 0;
  };

  explicit TypedLoop(std::size_t output_bytes = 1024);
  bool Start(std::string* error);
  StepInputs Prepare(std::uint64_t k) const;
  bool Step(const StepInputs& in, std::string* error);
  bool Run(std::uint64_t n, std::string* error);
  std::string_view body() const { return body_; }

 private:
  std::unique_ptr<Session> session_;
  std::size_t output_bytes_;
  std::uint64_t steps_ = 0;
  std::string_view body_;
};

}  // namespace agentctx::bench
