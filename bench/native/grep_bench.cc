// SPDX-License-Identifier: MIT
// Native grep benchmarks over a corpus on disk (the POSIX FileSystem), one case per line of the
// cases file (`--actx_grep_cases=FILE`: `name<TAB>path<TAB>pattern`, written by
// bench/js/grep_corpus.mjs):
//  - `grep/<case>` runs the built-in `grep` tool (RunGrep, the code every transport reaches).
//    Counters: `matches` (result lines), `hash` (FNV-1a 32 of "<path>:<line>\n" over the result
//    lines, so bench/run.mjs can compare the file:line set with ripgrep's), `stopped` (1 when
//    the output ends with a `[stopped …]` line), `budget` (1 when that line is the work budget's).
//  - `grep_deliver/<case>` measures what bench/js/grep_hosts.mjs measures in the wasm builds,
//    the same way: a model answer calling `grep` delivered to a session through Engine::Call
//    (the tool runs inside that deliver, which also records its output and renders the next
//    request), less the same deliver grepping an empty directory, both in a fresh session per
//    pass; thread CPU time, the median of kDeliverPasses passes after one untimed pass.
//    Counter `net_cpu_ms`.
#include <benchmark/benchmark.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <memory>
#include <string>
#include <vector>

#include "agentctx/engine.h"
#include "bench_registry.h"
#include "posix_file_system.h"
#include "tool_loop.h"
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

std::string GrepArgs(const std::string& pattern, const std::string& path) {
  return "{\"pattern\":" + JsonQuote(pattern) + ",\"path\":" + JsonQuote(path) + "}";
}

void Grep(benchmark::State& state, const GrepCase& c) {
  PosixFileSystem fs("/");
  ToolContext ctx;
  ctx.fs = &fs;
  ctx.primary_cwd = "/";
  const std::string args = GrepArgs(c.pattern, c.path);
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

constexpr int kDeliverPasses = 5;

double ThreadCpuMs() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n == 0 ? 0 : n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// The session of bench/js/grep_hosts.mjs (same config) over the POSIX FileSystem at "/".
class GrepSession {
 public:
  bool Start(std::string* error) {
    handle_ = engine_.Open();
    engine_.AddFileSystem(handle_, "workspace", std::make_shared<PosixFileSystem>("/"));
    const std::string config =
        "{\"session_id\":\"bench-grep\",\"model\":{\"slug\":\"mock-1\",\"instructions\":"
        "\"Search the corpus.\"},\"max_steps_per_turn\":100000,\"environments\":[{\"id\":"
        "\"local\",\"cwd\":\"/\",\"fs\":\"workspace\"}]}";
    std::string out =
        engine_.Call(handle_, "session.start", "{\"config\":" + config + ",\"now_ms\":0}");
    if (out.find("\"ok\":true") == std::string::npos) {
      *error = "session.start: " + out.substr(0, 300);
      return false;
    }
    return NextRequest(engine_.Call(handle_, "submit", "{\"text\":\"grep\",\"now_ms\":1}"), error);
  }

  // Delivers a model answer calling grep with `args` (JSON); false (with `error`) when the
  // engine did not go on to the next request. `cpu_ms`: the thread CPU time of the call.
  bool Deliver(const std::string& args, double* cpu_ms, std::string* error) {
    ++k_;
    const std::string n = std::to_string(k_);
    const std::string item = "{\"type\":\"function_call\",\"id\":\"fc_" + n +
                             "\",\"name\":\"grep\",\"arguments\":" + JsonQuote(args) +
                             ",\"call_id\":\"call_" + n + "\"}";
    const std::string sse =
        "event: response.output_item.done\ndata: {\"type\":\"response.output_item.done\","
        "\"output_index\":0,\"item\":" +
        item +
        "}\n\n"
        "event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"id\":"
        "\"resp_" +
        n +
        "\",\"usage\":{\"input_tokens\":10,\"input_tokens_details\":{\"cached_tokens\":0},"
        "\"output_tokens\":5,\"output_tokens_details\":{\"reasoning_tokens\":0},\"total_tokens\":"
        "15}}}\n\n";
    const std::string input =
        "{\"delivery\":{\"type\":\"model_events\",\"request_id\":" + JsonQuote(request_) +
        ",\"sse\":" + JsonQuote(sse) + "},\"now_ms\":" + std::to_string(1 + k_) + "}";
    const double t0 = ThreadCpuMs();
    std::string out = engine_.Call(handle_, "deliver", input);
    *cpu_ms = ThreadCpuMs() - t0;
    return NextRequest(out, error);
  }

 private:
  bool NextRequest(const std::string& envelope, std::string* error) {
    const std::string key = "\"type\":\"model_request\",\"id\":\"";
    const std::size_t at = envelope.find(key);
    if (at == std::string::npos) {
      *error = "no model request in: " + envelope.substr(0, 300);
      return false;
    }
    const std::size_t from = at + key.size();
    request_ = envelope.substr(from, envelope.find('"', from) - from);
    return true;
  }

  Engine engine_;
  std::uint32_t handle_ = 0;
  std::uint64_t k_ = 0;
  std::string request_;
};

void GrepDeliver(benchmark::State& state, const GrepCase& c, const std::string& empty_dir) {
  const std::string base_args = GrepArgs("zzqq", empty_dir);
  const std::string case_args = GrepArgs(c.pattern, c.path);
  std::vector<double> base;
  std::vector<double> grep;
  std::string error;
  for (auto _ : state) {
    for (int pass = 0; pass <= kDeliverPasses; ++pass) {  // pass 0 is the untimed one
      // A fresh session per pass, as grep_hosts.mjs does: the history stays two calls long.
      GrepSession session;
      double b = 0;
      double g = 0;
      if (!session.Start(&error) || !session.Deliver(base_args, &b, &error) ||
          !session.Deliver(case_args, &g, &error)) {
        state.SkipWithError(error.c_str());
        return;
      }
      if (pass == 0) continue;
      base.push_back(b);
      grep.push_back(g);
    }
    state.SetIterationTime(std::max(0.0, Median(grep) - Median(base)) / 1e3);
  }
  state.counters["net_cpu_ms"] = std::max(0.0, Median(grep) - Median(base));
  state.counters["base_cpu_ms"] = Median(base);
}

// The directory the baseline greps: "empty" beside the cases file (made if missing).
std::string EmptyDirBeside(const std::string& cases_file) {
  const std::size_t slash = cases_file.rfind('/');
  const std::string dir =
      (slash == std::string::npos ? std::string(".") : cases_file.substr(0, slash)) + "/empty";
  mkdir(dir.c_str(), 0755);  // EEXIST is fine
  return dir;
}

}  // namespace

void RegisterGrepBenchmarks(const Options& options) {
  if (options.grep_cases.empty()) return;
  const std::vector<GrepCase> cases = ReadCases(options.grep_cases);
  for (const GrepCase& c : cases) {
    benchmark::RegisterBenchmark(("grep/" + c.name).c_str(),
                                 [c](benchmark::State& s) { Grep(s, c); })
        ->MinTime(options.min_time)
        ->Unit(benchmark::kMillisecond);
  }
  const std::string empty_dir = EmptyDirBeside(options.grep_cases);
  for (const GrepCase& c : cases) {
    benchmark::RegisterBenchmark(
        ("grep_deliver/" + c.name).c_str(),
        [c, empty_dir](benchmark::State& s) { GrepDeliver(s, c, empty_dir); })
        ->Iterations(1)
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
  }
}

}  // namespace agentctx::bench
