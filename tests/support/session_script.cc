// SPDX-License-Identifier: MIT
#include "support/session_script.h"

#include <algorithm>
#include <deque>
#include <memory>
#include <utility>
#include <vector>

#include "agentctx/engine.h"
#include "protocol/json_codec.h"
#include "session/config.h"
#include "support/attachments.h"
#include "support/memory_file_system.h"

namespace agentctx::testing {
namespace {

constexpr std::string_view kWorkspace = "/workspace/";
constexpr std::string_view kOkValuePrefix = R"({"v":1,"ok":true,"value":)";

struct PendingCall {
  std::string method;
  std::string input;
};

class ScriptHost {
 public:
  explicit ScriptHost(const JsonValue& script) : script_(script) {
    fs_ = std::make_shared<MemoryFileSystem>();
    handle_ = engine_.Open();
    engine_.AddFileSystem(handle_, "workspace", fs_);
  }

  SessionScriptResult Run() {
    if (!script_.is_object()) return Failed("script.json must be an object");
    if (const JsonValue* files = script_.Find("files"); files != nullptr) {
      if (!files->is_object()) return Failed("`files` must be an object");
      for (const auto& m : files->members()) {
        if (!m.key.starts_with(kWorkspace) || !m.value.is_string()) {
          return Failed("files: " + m.key + " must be a string under /workspace/");
        }
        if (!fs_->AddFile(m.key, m.value.string_value()).has_value()) {
          return Failed("files: cannot add " + m.key);
        }
      }
    }
    const JsonValue* config = script_.Find("config");
    if (config == nullptr) return Failed("script needs `config`");
    config_ = *config;
    now_ = script_.GetInt("now_ms").value_or(0);
    JsonValue start = JsonValue::Object();
    start.Set("config", *config);
    start.Set("now_ms", JsonValue::Int(now_));
    Drain("session.start", ToJson(start));

    const JsonValue* steps = script_.Find("steps");
    if (steps == nullptr || !steps->is_array()) return Failed("script needs a `steps` array");
    for (std::size_t i = 0; i < steps->items().size() && error_.empty(); ++i) {
      RunStep(steps->items()[i], i);
    }
    if (!error_.empty()) return Failed(error_);

    SessionScriptResult out;
    out.requests = requests_;
    out.effects = effects_;
    out.rollout = rollout_;
    std::int64_t share =
        input_tokens_ == 0 ? 0 : static_cast<std::int64_t>(cached_tokens_ * 10000 / input_tokens_);
    out.summary = "{\"responses\":" + std::to_string(responses_) +
                  ",\"input_tokens\":" + std::to_string(input_tokens_) +
                  ",\"cached_tokens\":" + std::to_string(cached_tokens_) +
                  ",\"cached_share_bp\":" + std::to_string(share) +
                  ",\"cache_summary\":" + QueryValue("cache_summary") +
                  ",\"stats\":" + QueryValue("stats") + "}\n";
    if (!error_.empty()) return Failed(error_);
    return out;
  }

  // After Run(): resumes the rollout on a fresh engine over the same workspace and submits `text`
  // on both sessions.
  ResumeComparison ResumeAndCompare(const std::string& text) {
    ResumeComparison out;
    std::int64_t now = now_ + 1000;
    Engine other;
    std::uint32_t handle = other.Open();
    other.AddFileSystem(handle, "workspace", fs_);
    JsonValue resume = JsonValue::Object();
    resume.Set("config", config_);
    resume.Set("rollout", JsonValue::String(rollout_));
    resume.Set("now_ms", JsonValue::Int(now));
    out.resume_envelope = other.Call(handle, "session.resume", ToJson(resume));
    JsonValue submit = JsonValue::Object();
    submit.Set("text", JsonValue::String(text));
    submit.Set("now_ms", JsonValue::Int(now));
    out.original_body = FirstBody(
        InlineEnvelope(engine_, handle_, engine_.Call(handle_, "submit", ToJson(submit))));
    out.resumed_body =
        FirstBody(InlineEnvelope(other, handle, other.Call(handle, "submit", ToJson(submit))));
    return out;
  }

 private:
  static std::string FirstBody(const std::string& env) {
    auto parsed = ParseJson(env);
    const JsonValue* value = parsed ? parsed->Find("value") : nullptr;
    const JsonValue* effects = value != nullptr ? value->Find("effects") : nullptr;
    if (effects == nullptr) return "";
    for (const auto& e : effects->items()) {
      if (e.GetString("type") == "model_request") return std::string(*e.GetString("body"));
    }
    return "";
  }

  SessionScriptResult Failed(std::string message) {
    SessionScriptResult r;
    r.error = std::move(message);
    return r;
  }

  std::string QueryValue(const std::string& method) {
    std::string env = engine_.Call(handle_, method, "{}");
    if (!env.starts_with(kOkValuePrefix) || env.back() != '}') {
      error_ = method + " failed: " + env;
      return "null";
    }
    return env.substr(kOkValuePrefix.size(), env.size() - kOkValuePrefix.size() - 1);
  }

  void RunStep(const JsonValue& step, std::size_t index) {
    std::string where = "steps[" + std::to_string(index) + "]";
    auto op = step.GetString("op");
    if (!op) {
      error_ = where + " needs `op`";
      return;
    }
    if (auto now = step.GetInt("now_ms")) now_ = *now;
    JsonValue input = JsonValue::Object();
    std::string method(*op);
    if (*op == "write" || *op == "remove") {
      auto path = step.GetString("path");
      if (!path || !path->starts_with(kWorkspace)) {
        error_ = where + ": `path` must be under /workspace/";
        return;
      }
      bool ok = *op == "write"
                    ? fs_->Write(*path, step.GetString("text").value_or(""), true).has_value()
                    : fs_->Remove(*path).has_value();
      if (!ok) error_ = where + ": " + std::string(*op) + " " + std::string(*path) + " failed";
      return;
    }
    if (*op == "submit") {
      for (std::string_view key : {"text", "images", "turn_id"}) {
        if (const JsonValue* v = step.Find(key)) input.Set(key, *v);
      }
    } else if (*op == "update") {
      const JsonValue* delta = step.Find("delta");
      input.Set("delta", delta != nullptr ? *delta : JsonValue::Object());
    } else if (*op == "retry") {
      if (const JsonValue* id = step.Find("request_id")) input.Set("request_id", *id);
    } else if (*op == "call") {
      auto m = step.GetString("method");
      const JsonValue* raw = step.Find("input");
      if (!m) {
        error_ = where + ": `call` needs `method`";
        return;
      }
      Drain(std::string(*m), raw != nullptr ? ToJson(*raw) : "{}");
      return;
    } else if (*op == "compact") {
      if (const JsonValue* id = step.Find("turn_id")) input.Set("turn_id", *id);
    } else if (*op != "tick" && *op != "interrupt") {
      error_ = where + ": unknown op " + std::string(*op);
      return;
    }
    input.Set("now_ms", JsonValue::Int(now_));
    std::string first = Drain(method, ToJson(input));
    if (*op == "update" && first.starts_with(kOkValuePrefix)) TrackUpdate(*input.Find("delta"));
  }

  // The config as the session now holds it (for resume).
  void TrackUpdate(const JsonValue& delta) {
    std::vector<Warning> warnings;
    auto current = ParseSessionConfig(config_, &warnings);
    if (!current) return;
    auto next = ApplyConfigDelta(*current, delta, &warnings);
    if (next) config_ = next->raw;
  }

  // Runs one call and every follow-up call it causes, first in first out; returns the first
  // call's envelope.
  std::string Drain(std::string method, std::string input) {
    std::deque<PendingCall> queue;
    queue.push_back({std::move(method), std::move(input)});
    std::string first;
    while (!queue.empty() && error_.empty()) {
      PendingCall call = std::move(queue.front());
      queue.pop_front();
      std::string env = engine_.Call(handle_, call.method, call.input);
      effects_ += "{\"method\":" + JsonString(call.method) + ",\"envelope\":" + env + "}\n";
      if (first.empty()) first = env;
      Handle(InlineEnvelope(engine_, handle_, env), &queue);
    }
    return first;
  }

  void Deliver(const JsonValue& delivery, std::deque<PendingCall>* queue) {
    JsonValue input = JsonValue::Object();
    input.Set("delivery", delivery);
    input.Set("now_ms", JsonValue::Int(now_));
    queue->push_back({"deliver", ToJson(input)});
  }

  void Handle(const std::string& env, std::deque<PendingCall>* queue) {
    auto parsed = ParseJson(env);
    if (!parsed) {
      error_ = "unparsable envelope: " + env;
      return;
    }
    if (!parsed->GetBool("ok").value_or(false)) return;
    const JsonValue* value = parsed->Find("value");
    const JsonValue* effects = value != nullptr ? value->Find("effects") : nullptr;
    if (effects == nullptr || !effects->is_array()) return;
    std::vector<JsonValue> outputs;
    for (const auto& effect : effects->items()) {
      auto type = effect.GetString("type").value_or("");
      if (type == "persist") {
        for (const auto& line : effect.Find("lines")->items()) {
          rollout_ += line.string_value();
          rollout_ += '\n';
        }
      } else if (type == "event") {
        const JsonValue* event = effect.Find("event");
        if (event != nullptr && event->GetString("type") == "token_usage") {
          ++responses_;
          input_tokens_ += static_cast<std::uint64_t>(event->GetInt("input_tokens").value_or(0));
          cached_tokens_ += static_cast<std::uint64_t>(event->GetInt("cached_tokens").value_or(0));
        }
      } else if (type == "model_request") {
        Respond(effect, queue);
      } else if (type == "tool_call") {
        const JsonValue* answers = script_.Find("tool_outputs");
        const JsonValue* output = nullptr;
        if (answers != nullptr) {
          output = answers->Find(effect.GetString("call_id").value_or(""));
          if (output == nullptr) output = answers->Find(effect.GetString("name").value_or(""));
        }
        if (output == nullptr) continue;  // left pending (e.g. to interrupt the turn)
        JsonValue delivery = JsonValue::Object();
        delivery.Set("type", JsonValue::String("tool_output"));
        delivery.Set("call_id", JsonValue::String(std::string(*effect.GetString("call_id"))));
        delivery.Set("output", *output);
        outputs.push_back(std::move(delivery));
      }
    }
    const JsonValue* options = script_.Find("options");
    if (options != nullptr && options->GetString("host_output_order") == "reverse") {
      std::reverse(outputs.begin(), outputs.end());
    }
    for (const auto& d : outputs) Deliver(d, queue);
  }

  const JsonValue* ModelOverride(std::string_view id, std::int64_t attempt) const {
    const JsonValue* models = script_.Find("models");
    if (models == nullptr || !models->is_array()) return nullptr;
    for (const auto& m : models->items()) {
      if (m.GetString("request") == id && m.GetInt("attempt").value_or(1) == attempt) return &m;
    }
    return nullptr;
  }

  void Respond(const JsonValue& effect, std::deque<PendingCall>* queue) {
    std::string id(effect.GetString("id").value_or(""));
    std::string endpoint(effect.GetString("endpoint").value_or(""));
    std::string body(effect.GetString("body").value_or(""));
    requests_ += body;
    requests_ += '\n';
    const JsonValue* override = ModelOverride(id, effect.GetInt("attempt").value_or(1));
    if (override != nullptr && override->GetBool("hold").value_or(false)) return;  // in flight
    JsonValue delivery = JsonValue::Object();
    delivery.Set("type", JsonValue::String("model_events"));
    delivery.Set("request_id", JsonValue::String(id));
    JsonValue end = delivery;
    end.Set("end", JsonValue::Bool(true));
    if (override != nullptr && override->Find("events") != nullptr) {
      delivery.Set("events", *override->Find("events"));
      Deliver(delivery, queue);
      Deliver(end, queue);
      return;
    }
    if (override != nullptr && override->Find("error") != nullptr) {
      JsonValue error = JsonValue::Object();
      error.Set("type", JsonValue::String("model_error"));
      error.Set("request_id", JsonValue::String(id));
      for (const auto& m : override->Find("error")->members()) error.Set(m.key, m.value);
      Deliver(error, queue);
      return;
    }
    JsonValue ask = JsonValue::Object();
    ask.Set("endpoint", JsonValue::String(endpoint));
    ask.Set("body", JsonValue::String(body));
    ask.Set("now_ms", JsonValue::Int(now_));
    auto reply = ParseJson(engine_.Call(0, "mock.respond", ToJson(ask)));
    if (!reply || !reply->GetBool("ok").value_or(false)) {
      error_ = "mock.respond failed for " + id;
      return;
    }
    std::string text(reply->Find("value")->GetString("body").value_or(""));
    if (endpoint == "responses/compact") {
      JsonValue answer = JsonValue::Object();
      answer.Set("type", JsonValue::String("model_response"));
      answer.Set("request_id", JsonValue::String(id));
      answer.Set("body", JsonValue::String(text));
      Deliver(answer, queue);
      return;
    }
    if (override != nullptr) {
      if (auto cut = override->GetInt("cut_after_bytes")) {
        auto n = static_cast<std::size_t>(*cut);
        if (*cut < 0 || n > text.size() ||
            (n < text.size() && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80)) {
          error_ = "cut_after_bytes " + std::to_string(*cut) + " is not a character boundary";
          return;
        }
        text.resize(n);
      }
    }
    if (!text.empty()) {
      delivery.Set("sse", JsonValue::String(text));
      Deliver(delivery, queue);
    }
    Deliver(end, queue);
  }

  const JsonValue& script_;
  Engine engine_;
  std::uint32_t handle_ = 0;
  std::shared_ptr<MemoryFileSystem> fs_;
  std::int64_t now_ = 0;
  JsonValue config_;  // the session's config after the script's accepted updates
  std::string error_;
  std::string requests_;
  std::string effects_;
  std::string rollout_;
  std::uint64_t responses_ = 0;
  std::uint64_t input_tokens_ = 0;
  std::uint64_t cached_tokens_ = 0;
};

}  // namespace

SessionScriptResult RunSessionScript(const std::string& script_json) {
  auto script = ParseJson(script_json);
  if (!script) {
    SessionScriptResult r;
    r.error = "script.json: " + script.error().message;
    return r;
  }
  return ScriptHost(*script).Run();
}

ResumeComparison ReplayThenResume(const std::string& script_json, const std::string& text) {
  ResumeComparison out;
  auto script = ParseJson(script_json);
  if (!script) {
    out.error = "script.json: " + script.error().message;
    return out;
  }
  ScriptHost host(*script);
  SessionScriptResult replay = host.Run();
  if (!replay.error.empty()) {
    out.error = replay.error;
    return out;
  }
  return host.ResumeAndCompare(text);
}

}  // namespace agentctx::testing
