// SPDX-License-Identifier: MIT
// Native tool-loop benchmarks: the per-step cost at N steps of history, through
// Engine::Call (`tool_loop/call`, the body in hand as the attachment view) and through the typed
// Session API (`tool_loop/typed`); a memcpy of a body of the same size (`memcpy_body`, the slope
// reference); and the memory one session holds at N steps (`session_memory`).
// Each benchmark builds its N steps of history before the timed loop and times WindowFor(N)
// further steps (explicit iterations: every iteration adds one step, so the history grows by
// 10 % inside the window from 200 steps on, by the 20-step minimum below; --actx_repetitions
// repeats the whole benchmark, setup included).
// Counters: steps, window, body_bytes (body at N steps), mean_body_bytes (over the window).
#include <benchmark/benchmark.h>

#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "bench_registry.h"
#include "tool_loop.h"

namespace agentctx::bench {
namespace {

// Body size at N steps, filled by tool_loop/call (memcpy_body reuses it).
std::map<std::uint64_t, std::uint64_t>& BodySizes() {
  static std::map<std::uint64_t, std::uint64_t> sizes;
  return sizes;
}

template <typename Loop>
void ToolLoop(benchmark::State& state, std::uint64_t n) {
  Loop loop;
  std::string error;
  if (!loop.Start(&error) || !loop.Run(n, &error)) {
    state.SkipWithError(error.c_str());
    return;
  }
  const std::uint64_t body_at_n = loop.body().size();
  const std::uint64_t window = static_cast<std::uint64_t>(state.max_iterations);
  std::vector<typename Loop::StepInputs> inputs;
  inputs.reserve(window);
  for (std::uint64_t i = 0; i < window; ++i) inputs.push_back(loop.Prepare(n + 1 + i));

  std::uint64_t body_total = 0;
  std::size_t next = 0;
  for (auto _ : state) {
    if (next >= inputs.size()) {
      state.SkipWithError("more iterations than prepared steps");
      break;
    }
    if (!loop.Step(inputs[next++], &error)) {
      state.SkipWithError(error.c_str());
      break;
    }
    std::string_view body = loop.body();  // in hand: bytes ready for the HTTP client
    benchmark::DoNotOptimize(body.data());
    body_total += body.size();
  }
  BodySizes()[n] = body_at_n;
  state.counters["steps"] = static_cast<double>(n);
  state.counters["window"] = static_cast<double>(window);
  state.counters["body_bytes"] = static_cast<double>(body_at_n);
  state.counters["mean_body_bytes"] = next == 0 ? 0.0 : static_cast<double>(body_total) / next;
}

void MemcpyBody(benchmark::State& state, std::uint64_t n) {
  std::uint64_t size = BodySizes().count(n) != 0 ? BodySizes()[n] : 0;
  if (size == 0) {
    CallLoop loop;
    std::string error;
    if (!loop.Start(&error) || !loop.Run(n, &error)) {
      state.SkipWithError(error.c_str());
      return;
    }
    size = loop.body().size();
    BodySizes()[n] = size;
  }
  std::string src(size, 'x');
  std::string dst(size, '\0');
  for (auto _ : state) {
    std::memcpy(dst.data(), src.data(), size);
    benchmark::DoNotOptimize(dst.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * size));
  state.counters["steps"] = static_cast<double>(n);
  state.counters["body_bytes"] = static_cast<double>(size);
}

void SessionMemory(benchmark::State& state, std::uint64_t n) {
  const std::uint64_t heap_before = HeapInUseBytes();
  const std::uint64_t rss_before = ResidentBytes();
  CallLoop loop;
  std::string error;
  if (!loop.Start(&error) || !loop.Run(n, &error)) {
    state.SkipWithError(error.c_str());
    return;
  }
  const std::uint64_t heap_after = HeapInUseBytes();
  const std::uint64_t rss_after = ResidentBytes();
  for (auto _ : state) benchmark::DoNotOptimize(loop.body().data());
  const double body = static_cast<double>(loop.body().size());
  state.counters["steps"] = static_cast<double>(n);
  state.counters["body_bytes"] = body;
  state.counters["heap_delta_bytes"] = static_cast<double>(heap_after - heap_before);
  state.counters["rss_delta_bytes"] =
      rss_after > rss_before ? static_cast<double>(rss_after - rss_before) : 0.0;
}

}  // namespace

void RegisterToolLoopBenchmarks(const Options& options) {
  for (std::uint64_t n : options.steps) {
    const auto window = static_cast<benchmark::IterationCount>(WindowFor(n));
    benchmark::RegisterBenchmark("tool_loop/call",
                                 [n](benchmark::State& s) { ToolLoop<CallLoop>(s, n); })
        ->Arg(static_cast<std::int64_t>(n))
        ->Iterations(window)
        ->Repetitions(options.repetitions)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("tool_loop/typed",
                                 [n](benchmark::State& s) { ToolLoop<TypedLoop>(s, n); })
        ->Arg(static_cast<std::int64_t>(n))
        ->Iterations(window)
        ->Repetitions(options.repetitions)
        ->Unit(benchmark::kMillisecond);
  }
  for (std::uint64_t n : options.steps) {
    benchmark::RegisterBenchmark("memcpy_body", [n](benchmark::State& s) { MemcpyBody(s, n); })
        ->Arg(static_cast<std::int64_t>(n))
        ->MinTime(options.min_time)
        ->Unit(benchmark::kMillisecond);
  }
  if (options.memory_steps > 0) {
    const std::uint64_t n = options.memory_steps;
    benchmark::RegisterBenchmark("session_memory",
                                 [n](benchmark::State& s) { SessionMemory(s, n); })
        ->Arg(static_cast<std::int64_t>(n))
        ->Iterations(1)
        ->Unit(benchmark::kMillisecond);
  }
}

}  // namespace agentctx::bench
