// SPDX-License-Identifier: MIT
// Engine facade: handle table + method dispatch (see agentctx/engine.h).
// Invariants: no globals (all state lives in Impl); Call() returns an envelope for every input;
// handle numbers are never reused within one Engine, so a stale handle is always BadHandle.
// Re-entrancy: one call at a time. A FileSystem callback runs inside a call; a Call it makes
// is refused with kInvalidState (it would clear the running call's attachments, or replace the
// session the running call works on), and a Close it makes is deferred to the end of the
// running call (which then answers kBadHandle when it closed its own handle).
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
  MockModel mock;  // the embedded mock model plays the server (mock_model/mock_model.h);
                   // engine-owned state
  OutputAttachments attachments;       // of the last call on handle 0
  bool in_call = false;                // a Call is running (its FileSystems may call back)
  std::uint32_t busy_handle = 0;       // the handle of that call
  std::vector<std::uint32_t> closing;  // Close()d during that call: erased when it returns

  std::string Dispatch(std::uint32_t handle, std::string_view method, std::string_view input,
                       const std::vector<std::string_view>& inputs);

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
  if (impl_->in_call && handle == impl_->busy_handle) return false;  // its map is in use
  it->second.file_systems[std::move(name)] = std::move(fs);
  return true;
}

void Engine::Close(std::uint32_t handle) {
  if (impl_->in_call) {
    if (impl_->sessions.count(handle) != 0) impl_->closing.push_back(handle);
    return;
  }
  impl_->sessions.erase(handle);
}

std::uint32_t Engine::OpenHandles() const {
  return static_cast<std::uint32_t>(impl_->sessions.size());
}

std::string Engine::Impl::CallEngine(std::string_view method, std::string_view input,
                                     const std::vector<std::string_view>& inputs) {
  attachments.Clear();
  // Every engine method (EngineMethod, generated from core/protocol.json): the switch covers
  // them all (-Wswitch names a described method that has no case here).
  const std::optional<EngineMethod> known = FromWire<EngineMethod>(method);
  if (!known) {
    return ErrorEnvelope(
        Error{ErrorCode::kUnknownMethod, "unknown engine method: " + std::string(method), {}});
  }
  switch (*known) {
    case EngineMethod::kVersion: {
      JsonValue v = JsonValue::Object();
      v.Set("version", JsonValue::String(ACTX_VERSION_STRING));
      return OkEnvelope(v);
    }
    case EngineMethod::kStats: {
      JsonValue v = JsonValue::Object();
      v.Set("open_handles", JsonValue::Int(static_cast<std::int64_t>(sessions.size())));
      return OkEnvelope(v);
    }
    case EngineMethod::kMockRespond: {
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
    case EngineMethod::kRolloutInspect: {
      // {"text": rollout JSONL (a string or an attachment), options (ReplayOptionsFromJson)}
      // -> {"report", "table", "dump"?} (docs/replay.md, rollout/replay.h)
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
    case EngineMethod::kConfigEcho: {
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
  if (impl_->in_call) {
    return ErrorEnvelope(Error{ErrorCode::kInvalidState,
                               "`" + std::string(method) +
                                   "` was called while another call of this engine is running "
                                   "(from a FileSystem callback); call it after that call returns",
                               {}});
  }
  impl_->in_call = true;
  impl_->busy_handle = handle;
  std::string out = impl_->Dispatch(handle, method, input_json, inputs);
  impl_->in_call = false;
  impl_->busy_handle = 0;
  for (std::uint32_t closed : impl_->closing) {
    if (closed == handle) {
      out = ErrorEnvelope(Error{ErrorCode::kBadHandle,
                                "session " + std::to_string(handle) +
                                    " was closed during this call (by a FileSystem callback)",
                                {}});
    }
    impl_->sessions.erase(closed);
  }
  impl_->closing.clear();
  return out;
}

std::string Engine::Impl::Dispatch(std::uint32_t handle, std::string_view method,
                                   std::string_view input_json,
                                   const std::vector<std::string_view>& inputs) {
  if (handle == 0) return CallEngine(method, input_json, inputs);
  auto it = sessions.find(handle);
  if (it == sessions.end()) {
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
