// SPDX-License-Identifier: MIT
#include "support/session_driver.h"

#include "protocol/json_codec.h"
#include "support/attachments.h"

namespace agentctx::testing {

SessionDriver::SessionDriver() : fs_(std::make_shared<MemoryFileSystem>()) {
  // The cwd the tests' configs use exists, as a host's cwd does (session.start refuses one
  // that does not); tests add its contents.
  (void)fs_->AddDir("/repo");
  handle_ = engine_.Open();
  engine_.AddFileSystem(handle_, "workspace", fs_);
}

std::string SessionDriver::Call(const std::string& method, const std::string& input_json) {
  return InlineEnvelope(engine_, handle_, engine_.Call(handle_, method, input_json));
}

std::string SessionDriver::Start(const std::string& config_json, std::int64_t now_ms) {
  std::string env = Call("session.start", "{\"config\":" + config_json +
                                              ",\"now_ms\":" + std::to_string(now_ms) + "}");
  Run(env, now_ms);
  return env;
}

std::vector<JsonValue> SessionDriver::Submit(const std::string& text, std::int64_t now_ms) {
  std::string input =
      "{\"text\":" + JsonString(text) + ",\"now_ms\":" + std::to_string(now_ms) + "}";
  return Run(Call("submit", input), now_ms);
}

std::vector<JsonValue> SessionDriver::Update(const std::string& delta_json, std::int64_t now_ms) {
  return Run(
      Call("update", "{\"delta\":" + delta_json + ",\"now_ms\":" + std::to_string(now_ms) + "}"),
      now_ms);
}

std::vector<JsonValue> SessionDriver::Compact(std::int64_t now_ms) {
  return Run(Call("compact", "{\"now_ms\":" + std::to_string(now_ms) + "}"), now_ms);
}

std::vector<JsonValue> SessionDriver::Interrupt(std::int64_t now_ms) {
  return Run(Call("interrupt", "{\"now_ms\":" + std::to_string(now_ms) + "}"), now_ms);
}

std::vector<JsonValue> SessionDriver::AnswerHeld(std::int64_t now_ms) {
  std::vector<HeldRequest> requests = std::move(held_);
  held_.clear();
  std::vector<JsonValue> all;
  for (const auto& request : requests) {
    for (auto& env : Answer(request, now_ms)) {
      for (auto& e : Run(std::move(env), now_ms)) all.push_back(std::move(e));
    }
  }
  return all;
}

std::vector<std::string> SessionDriver::Answer(const HeldRequest& request, std::int64_t now_ms) {
  std::vector<std::string> out;
  const std::string now = ",\"now_ms\":" + std::to_string(now_ms) + "}";
  if (fail) {
    if (auto error = fail(request.endpoint, request.body)) {
      out.push_back(Call("deliver", "{\"delivery\":{\"type\":\"model_error\",\"request_id\":" +
                                        JsonString(request.id) +
                                        ",\"status\":" + std::to_string(error->first) +
                                        ",\"body\":" + JsonString(error->second) + "}" + now));
      return out;
    }
  }
  std::optional<std::string> reply;
  if (respond) reply = respond(request.endpoint, request.body);
  if (!reply) {
    std::string answer = engine_.Call(0, "mock.respond",
                                      "{\"endpoint\":" + JsonString(request.endpoint) +
                                          ",\"body\":" + JsonString(request.body) + now);
    auto r = ParseJson(answer);
    reply = std::string(r->Find("value")->GetString("body").value_or(""));
  }
  if (request.endpoint == "responses/compact") {
    out.push_back(Call("deliver", "{\"delivery\":{\"type\":\"model_response\",\"request_id\":" +
                                      JsonString(request.id) + ",\"body\":" + JsonString(*reply) +
                                      "}" + now));
    return out;
  }
  const std::string& sse = *reply;
  std::size_t step = chunk_size == 0 ? (sse.empty() ? 1 : sse.size()) : chunk_size;
  for (std::size_t i = 0; i < sse.size(); i += step) {
    out.push_back(Call("deliver", "{\"delivery\":{\"type\":\"model_events\",\"request_id\":" +
                                      JsonString(request.id) +
                                      ",\"sse\":" + JsonString(sse.substr(i, step)) + "}" + now));
  }
  out.push_back(Call("deliver", "{\"delivery\":{\"type\":\"model_events\",\"request_id\":" +
                                    JsonString(request.id) + ",\"end\":true}" + now));
  return out;
}

std::string SessionDriver::RolloutText() const {
  std::string out;
  for (const auto& line : rollout_) out += line + "\n";
  return out;
}

std::vector<JsonValue> SessionDriver::Run(std::string envelope, std::int64_t now_ms) {
  std::vector<JsonValue> all;
  std::vector<std::string> pending = {std::move(envelope)};
  while (!pending.empty()) {
    std::string env = std::move(pending.front());
    pending.erase(pending.begin());
    auto parsed = ParseJson(env);
    if (!parsed || !parsed->GetBool("ok").value_or(false)) {
      if (parsed) all.push_back(*parsed);
      continue;
    }
    const JsonValue* effects = parsed->Find("value")->Find("effects");
    if (effects == nullptr) continue;
    for (const auto& effect : effects->items()) {
      all.push_back(effect);
      auto type = effect.GetString("type").value_or("");
      if (type == "persist") {
        for (const auto& line : effect.Find("lines")->items())
          rollout_.push_back(line.string_value());
      } else if (type == "model_request") {
        HeldRequest request{std::string(effect.GetString("id").value_or("")),
                            std::string(effect.GetString("endpoint").value_or("")),
                            std::string(effect.GetString("body").value_or(""))};
        bodies_.push_back(request.body);
        if (hold) {
          held_.push_back(std::move(request));
          continue;
        }
        for (auto& env : Answer(request, now_ms)) pending.push_back(std::move(env));
      } else if (type == "tool_call") {
        std::string name(effect.GetString("name").value_or(""));
        std::string args(effect.GetString("arguments").value_or(""));
        std::string out = host_tool ? host_tool(name, args) : "ok";
        pending.push_back(Call("deliver", "{\"delivery\":{\"type\":\"tool_output\",\"call_id\":" +
                                              JsonString(effect.GetString("call_id").value_or("")) +
                                              ",\"output\":" + JsonString(out) +
                                              "},\"now_ms\":" + std::to_string(now_ms) + "}"));
      }
    }
  }
  return all;
}

}  // namespace agentctx::testing
