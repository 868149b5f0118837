// SPDX-License-Identifier: MIT
// Engine facade: handle table + method dispatch (ARCHITECTURE §6).
// Invariants: no globals (all state lives in Impl); Call() returns an envelope for every input;
// handle numbers are never reused within one Engine, so a stale handle is always BadHandle.
#include "agentctx/engine.h"

#include <map>

#include "agentctx/version.h"
#include "engine/envelope.h"
#include "engine/fs_methods.h"
#include "engine/session_methods.h"
#include "mock_model/mock_model.h"
#include "protocol/json_codec.h"
#include "rollout/replay.h"

namespace agentctx {
namespace {

constexpr std::uint32_t kMaxHandles = 1u << 16;

}  // namespace

struct Engine::Impl {
  std::map<std::uint32_t, SessionSlot> sessions;
  std::uint32_t next_handle = 1;
  MockModel mock;  // the embedded mock model plays the server (SPEC §14); engine-owned state
  OutputAttachments attachments;  // of the last call on handle 0

  std::string CallEngine(std::string_view method, std::string_view input,
                         const std::vector<std::string_view>& inputs);
};

Engine::Engine() : impl_(std::make_unique<Impl>()) {}
Engine::~Engine() = default;

std::string_view Engine::Version() { return ACTX_VERSION_STRING; }

std::uint32_t Engine::Open() {
  if (impl_->sessions.size() >= kMaxHandles || impl_->next_handle == 0) return 0;
  std::uint32_t handle = impl_->next_handle++;
  impl_->sessions.emplace(handle, SessionSlot{});
  return handle;
}

bool Engine::AddFileSystem(std::uint32_t handle, std::string name, std::shared_ptr<FileSystem> fs) {
  auto it = impl_->sessions.find(handle);
  if (it == impl_->sessions.end() || fs == nullptr) return false;
  it->second.file_systems[std::move(name)] = std::move(fs);
  return true;
}

void Engine::Close(std::uint32_t handle) { impl_->sessions.erase(handle); }

std::uint32_t Engine::OpenHandles() const {
  return static_cast<std::uint32_t>(impl_->sessions.size());
}

std::string Engine::Impl::CallEngine(std::string_view method, std::string_view input,
                                     const std::vector<std::string_view>& inputs) {
  attachments.Clear();
  if (method == "version") {
    JsonValue v = JsonValue::Object();
    v.Set("version", JsonValue::String(ACTX_VERSION_STRING));
    return OkEnvelope(v);
  }
  if (method == "stats") {
    JsonValue v = JsonValue::Object();
    v.Set("open_handles", JsonValue::Int(static_cast<std::int64_t>(sessions.size())));
    return OkEnvelope(v);
  }
  if (method == "mock.respond") {
    // {"endpoint","body" (string or attachment),"now_ms"?} -> {"body": SSE text or JSON}
    auto parsed = ParseJson(input);
    if (!parsed) return ErrorEnvelope(parsed.error());
    auto endpoint = parsed->GetString("endpoint");
    auto body = InputText(*parsed, "body", inputs);
    if (!body) return ErrorEnvelope(body.error());
    auto now = parsed->GetInt("now_ms").value_or(0);
    if (!endpoint || !*body) {
      return ErrorEnvelope(Error{ErrorCode::kInvalidInput,
                                 "mock.respond needs a string `endpoint` and `body` (a string or "
                                 "an attachment reference {\"$bytes\":i})",
                                 {}});
    }
    auto reply = mock.Handle(*endpoint, **body, now);
    if (!reply) return ErrorEnvelope(reply.error());
    JsonValue v = JsonValue::Object();
    v.Set("body", JsonValue::String(std::move(*reply)));
    return OkEnvelope(v);
  }
  if (method == "rollout.inspect") {
    // {"text": rollout JSONL (a string or an attachment), options (ReplayOptionsFromJson)}
    // -> {"report", "table", "dump"?} (SPEC §13.4, rollout/replay.h)
    auto parsed = ParseJson(input);
    if (!parsed) return ErrorEnvelope(parsed.error());
    auto text = InputText(*parsed, "text", inputs);
    if (!text) return ErrorEnvelope(text.error());
    if (!*text) {
      return ErrorEnvelope(Error{ErrorCode::kInvalidInput,
                                 "rollout.inspect needs `text` (a string or an attachment "
                                 "reference {\"$bytes\":i})",
                                 {}});
    }
    auto options = ReplayOptionsFromJson(*parsed);
    if (!options) return ErrorEnvelope(options.error());
    auto v = RolloutInspect(**text, *options);
    if (!v) return ErrorEnvelope(v.error());
    return OkEnvelope(*v);
  }
  if (method == "config.echo") {
    // The vertical slice: parse, canonicalise (sorted keys, nulls kept), echo with the version.
    auto parsed = ParseJson(input);
    if (!parsed) return ErrorEnvelope(parsed.error());
    if (!parsed->is_object()) {
      return ErrorEnvelope(Error{ErrorCode::kInvalidInput, "config must be a JSON object", {}});
    }
    std::string out = "{\"config\":";
    out += ToSortedJson(*parsed);
    out += ",\"version\":";
    AppendJsonString(&out, ACTX_VERSION_STRING);
    out += "}";
    return OkEnvelopeRaw(out);
  }
  return ErrorEnvelope(
      Error{ErrorCode::kUnknownMethod, "unknown engine method: " + std::string(method), {}});
}

std::string Engine::Call(std::uint32_t handle, std::string_view method,
                         std::string_view input_json) {
  return Call(handle, method, input_json, {});
}

std::string Engine::Call(std::uint32_t handle, std::string_view method, std::string_view input_json,
                         const std::vector<std::string_view>& inputs) {
  if (handle == 0) return impl_->CallEngine(method, input_json, inputs);
  auto it = impl_->sessions.find(handle);
  if (it == impl_->sessions.end()) {
    return ErrorEnvelope(
        Error{ErrorCode::kBadHandle, "no open session has handle " + std::to_string(handle), {}});
  }
  if (IsFsMethod(method)) {
    it->second.attachments.Clear();
    it->second.persist_lines.clear();
    return CallFsMethod(it->second.file_systems, method, input_json);
  }
  return CallSession(&it->second, method, input_json, inputs);
}

std::uint32_t Engine::AttachmentCount(std::uint32_t handle) const {
  if (handle == 0) return impl_->attachments.count();
  auto it = impl_->sessions.find(handle);
  return it == impl_->sessions.end() ? 0 : it->second.attachments.count();
}

std::string_view Engine::Attachment(std::uint32_t handle, std::uint32_t index) const {
  if (handle == 0) return impl_->attachments.at(index);
  auto it = impl_->sessions.find(handle);
  return it == impl_->sessions.end() ? std::string_view() : it->second.attachments.at(index);
}

std::vector<std::string_view> Engine::PersistLines(std::uint32_t handle) const {
  std::vector<std::string_view> out;
  auto it = impl_->sessions.find(handle);
  if (it == impl_->sessions.end()) return out;
  out.assign(it->second.persist_lines.begin(), it->second.persist_lines.end());
  return out;
}

}  // namespace agentctx
