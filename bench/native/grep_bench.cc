// SPDX-License-Identifier: MIT
// Native grep benchmarks: `grep/<case>` runs the built-in `grep` tool (RunGrep, the code every
// transport reaches) over a corpus on disk through the POSIX FileSystem, one case per line of
// the cases file (`--actx_grep_cases=FILE`: `name<TAB>path<TAB>pattern`, written by
// bench/js/grep_corpus.mjs). Counters: `matches` (result lines), `hash` (FNV-1a 32 of
// "<path>:<line>\n" over the result lines, so bench/run.mjs can compare the file:line set with
// ripgrep's), `stopped` (1 when the output ends with a `[stopped …]` line), `budget` (1 when
// that line is the work budget's).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "bench_registry.h"
#include "posix_file_system.h"
#include "tools/grep.h"

namespace agentctx::bench {
namespace {

struct GrepCase {
  std::string name;
  std::string path;
  std::string pattern;
};

std::vector<GrepCase> ReadCases(const std::string& file) {
  std::vector<GrepCase> cases;
  std::FILE* f = std::fopen(file.c_str(), "rb");
  if (f == nullptr) return cases;
  std::string text;
  char buf[1 << 14];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, n);
  std::fclose(f);
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    start = end + 1;
    std::size_t t1 = line.find('\t');
    std::size_t t2 = t1 == std::string::npos ? t1 : line.find('\t', t1 + 1);
    if (t2 == std::string::npos) continue;
    cases.push_back({line.substr(0, t1), line.substr(t1 + 1, t2 - t1 - 1), line.substr(t2 + 1)});
  }
  return cases;
}

std::string JsonString(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(c);
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char esc[8];
      std::snprintf(esc, sizeof esc, "\\u%04x", c);
      out += esc;
    } else {
      out.push_back(c);
    }
  }
  return out + "\"";
}

void Grep(benchmark::State& state, const GrepCase& c) {
  PosixFileSystem fs("/");
  ToolContext ctx;
  ctx.fs = &fs;
  ctx.primary_cwd = "/";
  const std::string args =
      "{\"pattern\":" + JsonString(c.pattern) + ",\"path\":" + JsonString(c.path) + "}";
  std::string out;
  for (auto _ : state) {
    out = RunGrep(ctx, args);
    benchmark::DoNotOptimize(out.data());
  }
  if (out.rfind("grep failed", 0) == 0) {
    state.SkipWithError(out.c_str());
    return;
  }
  // Result lines are `<path>:<n>: <text>`; the others (no match, [stopped …], (skipped …)) are
  // not. Paths have no `:` here (the corpus is generated).
  std::uint32_t hash = 2166136261u;
  double matches = 0;
  bool stopped = false;
  bool budget = false;
  std::size_t start = 0;
  while (start < out.size()) {
    std::size_t end = out.find('\n', start);
    if (end == std::string::npos) end = out.size();
    std::string_view line(out.data() + start, end - start);
    start = end + 1;
    if (line.rfind("[stopped", 0) == 0) {
      stopped = true;
      budget = line.find("regex steps") != std::string_view::npos;
    }
    if (line.empty() || line[0] != '/') continue;
    std::size_t colon = line.find(':');
    std::size_t colon2 = colon == std::string_view::npos ? colon : line.find(':', colon + 1);
    if (colon2 == std::string_view::npos) continue;
    for (char ch : line.substr(0, colon2))
      hash = (hash ^ static_cast<unsigned char>(ch)) * 16777619u;
    hash = (hash ^ '\n') * 16777619u;
    ++matches;
  }
  state.counters["matches"] = matches;
  state.counters["hash"] = static_cast<double>(hash);
  state.counters["stopped"] = stopped ? 1 : 0;
  state.counters["budget"] = budget ? 1 : 0;
}

}  // namespace

void RegisterGrepBenchmarks(const Options& options) {
  if (options.grep_cases.empty()) return;
  for (const GrepCase& c : ReadCases(options.grep_cases)) {
    benchmark::RegisterBenchmark(("grep/" + c.name).c_str(),
                                 [c](benchmark::State& s) { Grep(s, c); })
        ->MinTime(options.min_time)
        ->Unit(benchmark::kMillisecond);
  }
}

}  // namespace agentctx::bench
