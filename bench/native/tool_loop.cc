// SPDX-License-Identifier: MIT
// The tool-loop workload and its two drivers; see tool_loop.h. Every string built here has a
// twin in bench/js/workload.mjs: change both or neither.
#include "tool_loop.h"

#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include "protocol/json_codec.h"
#include "support/memory_file_system.h"

namespace agentctx::bench {
namespace {

constexpr std::string_view kFiller = "the quick brown fox jumps over the lazy dog; ";

std::shared_ptr<MemoryFileSystem> Workspace() {
  auto fs = std::make_shared<MemoryFileSystem>();
  (void)fs->AddFile("/workspace/README.md", "# bench\n");
  return fs;
}

std::string Num(std::uint64_t n) { return std::to_string(n); }

bool Contains(std::string_view haystack, std::string_view needle) {
  return haystack.find(needle) != std::string_view::npos;
}

std::string Head(std::string_view envelope) {
  return std::string(envelope.substr(0, std::min<std::size_t>(envelope.size(), 400)));
}

}  // namespace

std::string WorkloadConfig() {
  return R"({"session_id":"bench-1","model":{"slug":"mock-1","instructions":"You are a coding )"
         R"(agent. Call fetch_data until the task is done."},"builtin_tools":false,"tools":[{)"
         R"("name":"fetch_data","description":"Fetches the next page of data.","parameters":{)"
         R"("type":"object","properties":{}}}],"max_steps_per_turn":100000,"environments":[{)"
         R"("id":"local","cwd":"/workspace","fs":"workspace"}]})";
}

std::string ToolOutput(std::uint64_t k, std::size_t bytes) {
  std::string out;
  out.reserve(bytes + 64);
  for (std::uint64_t line = 0; out.size() < bytes; ++line) {
    std::string text = "step " + Num(k) + " line " + Num(line) + ": ";
    for (std::size_t i = 0; text.size() < 63; ++i) text.push_back(kFiller[i % kFiller.size()]);
    out += text;
    out.push_back('\n');
  }
  out.resize(bytes);
  return out;
}

std::string StepSse(std::uint64_t k) {
  const std::string n = Num(k);
  const std::uint64_t input_tokens = 300 * k;
  std::string sse;
  sse +=
      "event: response.created\ndata: {\"type\":\"response.created\",\"response\":{\"id\":\"resp_";
  sse += n + "\"}}\n\n";
  sse += "event: response.output_item.done\ndata: {\"type\":\"response.output_item.done\",";
  sse += "\"output_index\":0,\"item\":{\"type\":\"function_call\",\"id\":\"fc_" + n;
  sse +=
      "\",\"name\":\"fetch_data\",\"arguments\":\"{\\\"page\\\":" + n + "}\",\"call_id\":\"call_";
  sse += n + "\"}}\n\n";
  sse += "event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"id\":";
  sse += "\"resp_" + n + "\",\"usage\":{\"input_tokens\":" + Num(input_tokens);
  sse += ",\"input_tokens_details\":{\"cached_tokens\":0},\"output_tokens\":20,";
  sse += "\"output_tokens_details\":{\"reasoning_tokens\":0},\"total_tokens\":";
  sse += Num(input_tokens + 20) + "}}}\n\n";
  return sse;
}

std::uint64_t WindowFor(std::uint64_t steps) {
  return std::clamp<std::uint64_t>(steps / 10, 20, 400);
}

std::string JsonQuote(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
          out += buf;
        } else {
          out.push_back(c);
        }
    }
  }
  out.push_back('"');
  return out;
}

std::uint64_t ResidentBytes() {
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (f == nullptr) return 0;
  unsigned long long size = 0, resident = 0;
  int n = std::fscanf(f, "%llu %llu", &size, &resident);
  std::fclose(f);
  if (n != 2) return 0;
  return resident * static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
}

std::uint64_t HeapInUseBytes() {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
  struct mallinfo2 info = mallinfo2();
  return info.uordblks + info.hblkhd;
#else
  return 0;
#endif
}

// ---------------------------------------------------------------------------------------------
// CallLoop

CallLoop::CallLoop(std::size_t output_bytes) : output_bytes_(output_bytes) {
  handle_ = engine_.Open();
  engine_.AddFileSystem(handle_, "workspace", Workspace());
}

bool CallLoop::Start(std::string* error) {
  std::string start = "{\"config\":" + WorkloadConfig() + ",\"now_ms\":0}";
  std::string out = engine_.Call(handle_, "session.start", start);
  if (!Contains(out, "\"ok\":true")) {
    *error = "session.start: " + Head(out);
    return false;
  }
  std::string submit =
      "{\"text\":" + JsonQuote(kSubmitText) + ",\"now_ms\":" + std::to_string(StepNow(0)) + "}";
  out = engine_.Call(handle_, "submit", submit);
  if (!Contains(out, "\"type\":\"model_request\",\"id\":\"req-1\"")) {
    *error = "submit: " + Head(out);
    return false;
  }
  return true;
}

CallLoop::StepInputs CallLoop::Prepare(std::uint64_t k) const {
  StepInputs in;
  const std::string req = "\"req-" + Num(k) + "\"";
  const std::string now = std::to_string(StepNow(k));
  in.k = k;
  in.sse = StepSse(k);
  in.sse_json = "{\"delivery\":{\"type\":\"model_events\",\"request_id\":" + req +
                ",\"sse\":{\"$bytes\":0}},\"now_ms\":" + now + "}";
  in.end_json = "{\"delivery\":{\"type\":\"model_events\",\"request_id\":" + req +
                ",\"end\":true},\"now_ms\":" + now + "}";
  in.output_json = "{\"delivery\":{\"type\":\"tool_output\",\"call_id\":\"call_" + Num(k) +
                   "\",\"output\":" + JsonQuote(ToolOutput(k, output_bytes_)) +
                   "},\"now_ms\":" + now + "}";
  in.expect_call = "\"type\":\"tool_call\",\"call_id\":\"call_" + Num(k) + "\"";
  in.expect_request = "\"type\":\"model_request\",\"id\":\"req-" + Num(k + 1) + "\"";
  return in;
}

bool CallLoop::Step(const StepInputs& in, std::string* error) {
  std::string out = engine_.Call(handle_, "deliver", in.sse_json, {in.sse});
  if (!Contains(out, in.expect_call)) {
    *error = "deliver sse (step " + Num(in.k) + "): " + Head(out);
    return false;
  }
  out = engine_.Call(handle_, "deliver", in.end_json);
  if (!Contains(out, "\"ok\":true")) {
    *error = "deliver end (step " + Num(in.k) + "): " + Head(out);
    return false;
  }
  out = engine_.Call(handle_, "deliver", in.output_json);
  if (!Contains(out, in.expect_request) || engine_.AttachmentCount(handle_) != 1) {
    *error = "deliver tool_output (step " + Num(in.k) + "): " + Head(out);
    return false;
  }
  steps_ = in.k;
  return true;
}

bool CallLoop::Run(std::uint64_t n, std::string* error) {
  for (std::uint64_t k = steps_ + 1; k <= n; ++k) {
    if (!Step(Prepare(k), error)) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// TypedLoop

TypedLoop::TypedLoop(std::size_t output_bytes) : output_bytes_(output_bytes) {}

bool TypedLoop::Start(std::string* error) {
  auto config = ParseJson(WorkloadConfig());
  if (!config) {
    *error = "config: " + config.error().Display();
    return false;
  }
  FileSystemMap fs;
  fs["workspace"] = Workspace();
  EffectSink sink;
  auto parsed = ParseSessionConfig(*config, nullptr);
  if (!parsed) {
    *error = "config: " + parsed.error().Display();
    return false;
  }
  auto created = Session::Create(std::move(*parsed), fs, 0, &sink);
  if (!created) {
    *error = "Session::Create: " + created.error().Display();
    return false;
  }
  session_ = std::move(*created);
  EffectSink turn;
  auto submitted =
      session_->Submit(SubmitInput{std::string(kSubmitText), {}, std::nullopt}, StepNow(0), &turn);
  if (!submitted || !turn.model_request()) {
    *error = "Submit: no model_request";
    return false;
  }
  body_ = turn.model_request()->body;
  return true;
}

TypedLoop::StepInputs TypedLoop::Prepare(std::uint64_t k) const {
  StepInputs in;
  const std::string req = "req-" + Num(k);
  in.now = StepNow(k);
  in.sse = JsonValue::Object();
  in.sse.Set("type", JsonValue::String("model_events"));
  in.sse.Set("request_id", JsonValue::String(req));
  in.sse.Set("sse", JsonValue::String(StepSse(k)));
  in.end = JsonValue::Object();
  in.end.Set("type", JsonValue::String("model_events"));
  in.end.Set("request_id", JsonValue::String(req));
  in.end.Set("end", JsonValue::Bool(true));
  in.output = JsonValue::Object();
  in.output.Set("type", JsonValue::String("tool_output"));
  in.output.Set("call_id", JsonValue::String("call_" + Num(k)));
  in.output.Set("output", JsonValue::String(ToolOutput(k, output_bytes_)));
  return in;
}

bool TypedLoop::Step(const StepInputs& in, std::string* error) {
  EffectSink a;
  if (!session_->Deliver(in.sse, in.now, &a)) {
    *error = "Deliver sse failed";
    return false;
  }
  EffectSink b;
  if (!session_->Deliver(in.end, in.now, &b)) {
    *error = "Deliver end failed";
    return false;
  }
  EffectSink c;
  if (!session_->Deliver(in.output, in.now, &c) || !c.model_request()) {
    *error = "Deliver tool_output: no model_request";
    return false;
  }
  body_ = c.model_request()->body;
  ++steps_;
  return true;
}

bool TypedLoop::Run(std::uint64_t n, std::string* error) {
  for (std::uint64_t k = steps_ + 1; k <= n; ++k) {
    if (!Step(Prepare(k), error)) return false;
  }
  return true;
}

}  // namespace agentctx::bench
