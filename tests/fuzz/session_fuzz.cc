// SPDX-License-Identifier: MIT
// Fuzz target: a Session fed fuzzed deliveries. The input is a program of ops, each
// one byte (op % 12) then, for ops with a payload, a 2-byte little-endian length and that many
// bytes (cut at the end of the input):
//   0 submit(payload)                    6 tick (+payload[0] seconds)
//   1 deliver SSE chunk payload          7 compact
//   2 deliver end of stream              8 update(delta = payload, maybe not JSON)
//   3 deliver a compact response body    9 deliver the mock's answer, cut after each of the
//                                          first 16 payload bytes (1 + byte bytes each)
//   4 deliver tool output payload       10 resume the rollout so far + payload in a new session
//   5 interrupt                         11 read-only queries (history, prompt_preview, stats)
// Deliveries go to the newest model request / tool call (an unknown id is a clear error).
// Properties: every call answers one envelope ({"v":1,"ok":true,…} or ok:false with a string
// error code) whose persist lines are Engine::PersistLines(); the persisted rollout always
// parses and resumes, whatever the deliveries were; a resume of arbitrary bytes fails only with
// rollout_corrupt or invalid_input.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "agentctx/engine.h"
#include "fuzz_check.h"
#include "protocol/json_codec.h"
#include "protocol/json_value.h"
#include "rollout/resume_state.h"
#include "support/memory_file_system.h"

namespace agentctx {
namespace {

// What one input costs (docs/RELIABILITY.md, "The session target's rate"): every envelope is
// framed-checked but parsed whole only every kFullCheckEvery-th call (and wherever the harness
// needs its effects or its error); the mock's answer is delivered in at most kMaxMockPieces
// fuzzed pieces plus the rest (more pieces reach no further code, they only repeat the feed).
constexpr std::uint32_t kFullCheckEvery = 8;
constexpr std::size_t kMaxMockPieces = 16;

const char* const kConfig =
    R"({"session_id":"fz-1","model":{"slug":"mock-1","instructions":"Be brief."},)"
    R"("approval_policy":"never","sandbox":{"mode":"workspace-write"},)"
    R"("environments":[{"id":"local","cwd":"/repo","shell":"bash","fs":"workspace"}]})";

class Program {
 public:
  Program(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  bool Done() const { return pos_ >= size_; }
  std::uint8_t Byte() { return pos_ < size_ ? data_[pos_++] : 0; }
  std::string Payload() {
    std::size_t n = Byte();
    n |= static_cast<std::size_t>(Byte()) << 8;
    if (n > size_ - pos_) n = size_ - pos_;
    std::string out(reinterpret_cast<const char*>(data_ + pos_), n);
    pos_ += n;
    return out;
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
};

class Harness {
 public:
  Harness() : fs_(std::make_shared<MemoryFileSystem>()) {
    (void)fs_->AddFile("/repo/AGENTS.md", "be terse\n");
    (void)fs_->AddFile("/repo/notes.txt", "a\nb\n");
    handle_ = engine_.Open();
    engine_.AddFileSystem(handle_, "workspace", fs_);
    Call("session.start", std::string("{\"config\":") + kConfig + ",\"now_ms\":0}", {});
  }

  // One call; checks its envelope and collects its effects (persist lines, the newest model
  // request, the newest tool call). Every envelope is checked for its frame ({"v":1,"ok":true,
  // "value":…} or {"v":1,"ok":false,"error":{…}}); it is parsed whole only where the harness
  // needs what it holds (an error, a model request or a tool call among the effects) and on every
  // kFullCheckEvery-th call, where its persist lines are also compared with PersistLines(). The
  // rollout is taken from PersistLines(), the same lines the envelope carries.
  void Call(const std::string& method, const std::string& input,
            const std::vector<std::string_view>& inputs) {
    std::string env = engine_.Call(handle_, method, input, inputs);
    constexpr std::string_view kOk = "{\"v\":1,\"ok\":true,\"value\":";
    constexpr std::string_view kError = "{\"v\":1,\"ok\":false,\"error\":{\"code\":\"";
    const bool ok = env.starts_with(kOk);
    ACTX_FUZZ_CHECK((ok || env.starts_with(kError)) && env.ends_with("}"));
    for (std::string_view line : engine_.PersistLines(handle_)) {
      rollout_.append(line);
      rollout_.push_back('\n');
    }
    const bool effects_wanted =
        ok && (env.find("{\"type\":\"model_request\",") != std::string::npos ||
               env.find("{\"type\":\"tool_call\",") != std::string::npos);
    if (ok && !effects_wanted && ++calls_ % kFullCheckEvery != 0) return;
    Result<JsonValue> parsed = ParseJson(env);
    ACTX_FUZZ_CHECK(parsed.has_value());
    ACTX_FUZZ_CHECK(parsed->GetBool("ok") == ok);
    if (!ok) {
      const JsonValue* error = parsed->Find("error");
      ACTX_FUZZ_CHECK(error != nullptr && error->GetString("code").has_value());
      return;
    }
    const JsonValue* value = parsed->Find("value");
    ACTX_FUZZ_CHECK(value != nullptr);
    const JsonValue* effects = value->Find("effects");
    std::vector<std::string_view> persisted = engine_.PersistLines(handle_);
    std::size_t persisted_seen = 0;
    if (effects == nullptr || !effects->is_array()) {
      ACTX_FUZZ_CHECK(persisted.empty());
      return;
    }
    for (const JsonValue& effect : effects->items()) {
      std::string_view type = effect.GetString("type").value_or("");
      if (type == "persist") {
        const JsonValue* lines = effect.Find("lines");
        ACTX_FUZZ_CHECK(lines != nullptr && lines->is_array());
        for (const JsonValue& line : lines->items()) {
          ACTX_FUZZ_CHECK(persisted_seen < persisted.size() &&
                          line.string_value() == persisted[persisted_seen]);
          ++persisted_seen;
        }
      } else if (type == "model_request") {
        request_id_ = std::string(effect.GetString("id").value_or(""));
        endpoint_ = std::string(effect.GetString("endpoint").value_or(""));
        body_.clear();
        if (const JsonValue* body = effect.Find("body")) {
          if (body->is_string()) {
            body_ = std::string(body->string_value());
          } else if (auto index = body->GetInt("$bytes")) {
            body_ = std::string(engine_.Attachment(handle_, static_cast<std::uint32_t>(*index)));
          }
        }
      } else if (type == "tool_call") {
        call_id_ = std::string(effect.GetString("call_id").value_or(""));
      }
    }
    ACTX_FUZZ_CHECK(persisted_seen == persisted.size());
  }

  std::string Now() const { return ",\"now_ms\":" + std::to_string(now_ms_) + "}"; }
  void Deliver(const std::string& delivery_fields, const std::vector<std::string_view>& inputs) {
    Call("deliver", "{\"delivery\":{" + delivery_fields + "}" + Now(), inputs);
  }
  std::string RequestField() const { return "\"request_id\":" + JsonString(request_id_); }

  void Step(Program* p) {
    std::uint8_t op = p->Byte() % 12;
    switch (op) {
      case 0:
        Call("submit", "{\"text\":" + JsonString(p->Payload()) + Now(), {});
        break;
      case 1: {
        std::string sse = p->Payload();
        Deliver("\"type\":\"model_events\"," + RequestField() + ",\"sse\":{\"$bytes\":0}", {sse});
        break;
      }
      case 2:
        Deliver("\"type\":\"model_events\"," + RequestField() + ",\"end\":true", {});
        break;
      case 3: {
        std::string body = p->Payload();
        Deliver("\"type\":\"model_response\"," + RequestField() + ",\"body\":{\"$bytes\":0}",
                {body});
        break;
      }
      case 4:
        Deliver("\"type\":\"tool_output\",\"call_id\":" + JsonString(call_id_) +
                    ",\"output\":" + JsonString(p->Payload()),
                {});
        break;
      case 5:
        Call("interrupt", "{" + Now().substr(1), {});
        break;
      case 6:
        now_ms_ += 1000 * static_cast<std::int64_t>(p->Byte());
        Call("tick", "{" + Now().substr(1), {});
        break;
      case 7:
        Call("compact", "{" + Now().substr(1), {});
        break;
      case 8:
        Call("update", "{\"delta\":" + p->Payload() + Now(), {});
        break;
      case 9:
        AnswerWithMock(p->Payload());
        break;
      case 10:
        Resume(p->Payload());
        break;
      default:
        Call("history", "{}", {});
        Call("prompt_preview", "{}", {});
        Call("stats", "{}", {});
        break;
    }
  }

  // The mock's own answer to the newest request, delivered in pieces cut at the payload bytes.
  void AnswerWithMock(const std::string& cuts) {
    if (request_id_.empty()) return;
    std::string answer = engine_.Call(
        0, "mock.respond",
        "{\"endpoint\":" + JsonString(endpoint_) + ",\"body\":{\"$bytes\":0}" + Now(), {body_});
    Result<JsonValue> parsed = ParseJson(answer);
    ACTX_FUZZ_CHECK(parsed.has_value());
    const JsonValue* value = parsed->Find("value");
    if (value == nullptr) return;  // the mock refused the body: a clear error, fine
    std::string reply(value->GetString("body").value_or(""));
    if (endpoint_ == "responses/compact") {
      Deliver("\"type\":\"model_response\"," + RequestField() + ",\"body\":{\"$bytes\":0}",
              {reply});
      return;
    }
    std::size_t pos = 0;
    for (unsigned char c : std::string_view(cuts).substr(0, kMaxMockPieces)) {
      std::size_t n = 1 + c;
      if (pos >= reply.size()) break;
      std::string_view piece = std::string_view(reply).substr(pos, n);
      pos += piece.size();
      Deliver("\"type\":\"model_events\"," + RequestField() + ",\"sse\":{\"$bytes\":0}", {piece});
    }
    if (pos < reply.size()) {
      std::string_view rest = std::string_view(reply).substr(pos);
      Deliver("\"type\":\"model_events\"," + RequestField() + ",\"sse\":{\"$bytes\":0}", {rest});
    }
    Deliver("\"type\":\"model_events\"," + RequestField() + ",\"end\":true", {});
  }

  // The persisted rollout always resumes; with fuzzed bytes after it, resume answers an
  // envelope that is ok or a rollout/input error.
  void Resume(const std::string& extra) {
    if (rollout_.empty()) return;  // the start failed: nothing was persisted
    for (const std::string& text : {rollout_, rollout_ + extra}) {
      std::uint32_t h = engine_.Open();
      ACTX_FUZZ_CHECK(h != 0);
      engine_.AddFileSystem(h, "workspace", fs_);
      std::string env = engine_.Call(
          h, "session.resume",
          std::string("{\"config\":") + kConfig + ",\"rollout\":{\"$bytes\":0}" + Now(), {text});
      Result<JsonValue> parsed = ParseJson(env);
      ACTX_FUZZ_CHECK(parsed.has_value());
      bool ok = parsed->GetBool("ok").value_or(false);
      if (text == rollout_) {
        ACTX_FUZZ_CHECK(ok);  // session.resume builds the resume state of the whole rollout
        resumed_size_ = rollout_.size();
      } else if (!ok) {
        std::string_view code = parsed->Find("error")->GetString("code").value_or("");
        ACTX_FUZZ_CHECK(code == "rollout_corrupt" || code == "invalid_input");
      }
      engine_.Close(h);
    }
  }

  // The whole rollout builds a resume state, unless a resume op already checked it as it is.
  void Finish() {
    if (resumed_size_ == rollout_.size()) return;
    Result<ResumeState> state = BuildResumeState(rollout_, nullptr);
    ACTX_FUZZ_CHECK(state.has_value());
  }

 private:
  Engine engine_;
  std::shared_ptr<MemoryFileSystem> fs_;
  std::uint32_t handle_ = 0;
  std::int64_t now_ms_ = 0;
  std::string rollout_;
  std::string request_id_;
  std::string endpoint_;
  std::string body_;
  std::string call_id_;
  std::uint32_t calls_ = 0;
  std::size_t resumed_size_ = static_cast<std::size_t>(-1);  // rollout_.size() at the last resume
};

}  // namespace
}  // namespace agentctx

// ASan keeps freed memory poisoned (quarantined) until this much more has been freed after it.
// Its default, 256 MB, made this target 1.8× slower (page faults and cache misses over a
// quarter-gigabyte working set); one input frees about 0.5 MB (2.4 MB at most, measured over a
// grown corpus), so 16 MB still keeps everything an input frees poisoned until long after the
// input ends. Allocation and free stacks are kept 12 frames deep (30 by default; recording them
// was a tenth of the time): replay a crash with ASAN_OPTIONS=malloc_context_size=30 for more.
// ASAN_OPTIONS in the environment overrides both.
extern "C" const char* __asan_default_options() {
  return "quarantine_size_mb=16:malloc_context_size=12";
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  agentctx::Program program(data, size);
  agentctx::Harness harness;
  for (int steps = 0; !program.Done() && steps < 64; ++steps) harness.Step(&program);
  harness.Finish();
  return 0;
}
