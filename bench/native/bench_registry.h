// SPDX-License-Identifier: MIT
// The benchmark families of agentctx_bench and the options they are registered with
// (bench_main.cc parses them from --actx_* flags before Google Benchmark sees the rest).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace agentctx::bench {

struct Options {
  std::vector<std::uint64_t> steps = {100, 1000, 4000};  // --actx_steps=100,1000,4000
  std::uint64_t memory_steps = 1000;                     // --actx_memory_steps (0: none)
  std::string rollout;                                   // --actx_rollout=FILE (resume)
  std::vector<std::string> replay;                       // --actx_replay=DIR|FILE[,FILE…]
  double min_time = 0.2;                                 // --actx_min_time (s, auto-timed)
  int repetitions = 1;  // --actx_repetitions: runs of each tool_loop benchmark (fresh setup each)
  std::string grep_cases;  // --actx_grep_cases=FILE (grep_bench.cc; bench/js/grep_corpus.mjs)
};

/// tool_loop/call, tool_loop/typed, memcpy_body, session_memory (tool_loop_bench.cc).
void RegisterToolLoopBenchmarks(const Options& options);
/// resume (when options.rollout is set) and replay/<file> (rollout_bench.cc).
void RegisterRolloutBenchmarks(const Options& options);
/// grep/<case> for each line of options.grep_cases (grep_bench.cc).
void RegisterGrepBenchmarks(const Options& options);

}  // namespace agentctx::bench
