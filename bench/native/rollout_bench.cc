// SPDX-License-Identifier: MIT
// Native rollout benchmarks: `resume` = session.resume from a rollout file (the ~10 MB rollout
// bench/run.mjs builds from the tool-loop workload), through Engine::Call with the rollout as input
// attachment 0; `replay/<file>` = rollout.inspect (docs/replay.md) of each real rollout. Both
// report bytes_per_second (the rollout's size per call).
#include <benchmark/benchmark.h>
#include <dirent.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "bench_registry.h"
#include "support/memory_file_system.h"
#include "tool_loop.h"

namespace agentctx::bench {
namespace {

bool ReadFile(const std::string& path, std::string* out) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return false;
  char buf[1 << 16];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out->append(buf, n);
  bool ok = std::ferror(f) == 0;
  std::fclose(f);
  return ok;
}

std::string BaseName(const std::string& path) {
  std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// A directory lists its *.jsonl files (sorted); anything else is taken as a file.
std::vector<std::string> ExpandReplay(const std::vector<std::string>& args) {
  std::vector<std::string> files;
  for (const std::string& arg : args) {
    DIR* dir = opendir(arg.c_str());
    if (dir == nullptr) {
      files.push_back(arg);
      continue;
    }
    std::vector<std::string> found;
    while (dirent* entry = readdir(dir)) {
      std::string name = entry->d_name;
      if (name.size() > 6 && name.compare(name.size() - 6, 6, ".jsonl") == 0) {
        found.push_back(arg + "/" + name);
      }
    }
    closedir(dir);
    std::sort(found.begin(), found.end());
    files.insert(files.end(), found.begin(), found.end());
  }
  return files;
}

void Resume(benchmark::State& state, const std::string& path) {
  std::string text;
  if (!ReadFile(path, &text)) {
    state.SkipWithError(("cannot read " + path).c_str());
    return;
  }
  const std::string input =
      "{\"config\":" + WorkloadConfig() +
      ",\"rollout\":{\"$bytes\":0},\"now_ms\":" + std::to_string(StepNow(1000000)) + "}";
  Engine engine;
  for (auto _ : state) {
    std::uint32_t handle = engine.Open();
    engine.AddFileSystem(handle, "workspace", std::make_shared<MemoryFileSystem>());
    std::string out = engine.Call(handle, "session.resume", input, {text});
    if (out.compare(0, 17, "{\"v\":1,\"ok\":true,") != 0) {
      state.SkipWithError(("session.resume: " + out.substr(0, 300)).c_str());
      break;
    }
    state.PauseTiming();
    engine.Close(handle);
    state.ResumeTiming();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
  state.counters["rollout_bytes"] = static_cast<double>(text.size());
}

void Replay(benchmark::State& state, const std::string& path) {
  std::string text;
  if (!ReadFile(path, &text)) {
    state.SkipWithError(("cannot read " + path).c_str());
    return;
  }
  Engine engine;
  for (auto _ : state) {
    std::string out = engine.Call(0, "rollout.inspect", R"({"text":{"$bytes":0}})", {text});
    if (out.compare(0, 17, "{\"v\":1,\"ok\":true,") != 0) {
      state.SkipWithError(("rollout.inspect: " + out.substr(0, 300)).c_str());
      break;
    }
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
  state.counters["rollout_bytes"] = static_cast<double>(text.size());
}

}  // namespace

void RegisterRolloutBenchmarks(const Options& options) {
  if (!options.rollout.empty()) {
    const std::string path = options.rollout;
    benchmark::RegisterBenchmark("resume", [path](benchmark::State& s) { Resume(s, path); })
        ->MinTime(options.min_time)
        ->Unit(benchmark::kMillisecond);
  }
  for (const std::string& path : ExpandReplay(options.replay)) {
    benchmark::RegisterBenchmark(("replay/" + BaseName(path)).c_str(),
                                 [path](benchmark::State& s) { Replay(s, path); })
        ->MinTime(options.min_time)
        ->Unit(benchmark::kMillisecond);
  }
}

}  // namespace agentctx::bench
