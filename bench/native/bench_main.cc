// SPDX-License-Identifier: MIT
// agentctx_bench: registers the benchmark families (bench_registry.h) from the --actx_* flags,
// then hands every other flag to Google Benchmark (--benchmark_format=json,
// --benchmark_filter=…, --benchmark_repetitions=…). bench/run.mjs is its main user.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bench_registry.h"

namespace {

std::vector<std::string> Split(const std::string& list) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= list.size()) {
    std::size_t comma = list.find(',', start);
    if (comma == std::string::npos) comma = list.size();
    if (comma > start) out.push_back(list.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

// Consumes `--name=value` into *value; true when argv[i] was that flag.
bool Flag(const char* arg, const char* name, std::string* value) {
  const std::size_t n = std::strlen(name);
  if (std::strncmp(arg, name, n) != 0 || arg[n] != '=') return false;
  *value = arg + n + 1;
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  agentctx::bench::Options options;
  std::vector<char*> rest = {argv[0]};
  for (int i = 1; i < argc; ++i) {
    std::string v;
    if (Flag(argv[i], "--actx_steps", &v)) {
      options.steps.clear();
      for (const std::string& s : Split(v))
        options.steps.push_back(std::strtoull(s.c_str(), 0, 10));
    } else if (Flag(argv[i], "--actx_memory_steps", &v)) {
      options.memory_steps = std::strtoull(v.c_str(), nullptr, 10);
    } else if (Flag(argv[i], "--actx_rollout", &v)) {
      options.rollout = v;
    } else if (Flag(argv[i], "--actx_replay", &v)) {
      options.replay = Split(v);
    } else if (Flag(argv[i], "--actx_repetitions", &v)) {
      options.repetitions = std::atoi(v.c_str());
    } else if (Flag(argv[i], "--actx_grep_cases", &v)) {
      options.grep_cases = v;
    } else if (Flag(argv[i], "--actx_min_time", &v)) {
      options.min_time = std::strtod(v.c_str(), nullptr);
    } else {
      rest.push_back(argv[i]);
    }
  }
  agentctx::bench::RegisterToolLoopBenchmarks(options);
  agentctx::bench::RegisterRolloutBenchmarks(options);
  agentctx::bench::RegisterGrepBenchmarks(options);
  int rest_argc = static_cast<int>(rest.size());
  benchmark::Initialize(&rest_argc, rest.data());
  if (benchmark::ReportUnrecognizedArguments(rest_argc, rest.data())) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
