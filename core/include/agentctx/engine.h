// SPDX-License-Identifier: MIT
// Engine: the JSON facade every boundary calls (docs/boundary.md). One Engine owns a table of
// session handles; handle 0 is the engine itself. Call() never aborts on bad input: every
// failure is an error envelope
//   {"v":1,"ok":false,"error":{"code":"invalid_json","message":"…","details":{…}}}
// and every success {"v":1,"ok":true,"value":…}.
//
// Attachments (docs/boundary.md): large byte strings travel beside the JSON, never inside it.
//  - Out: a value {"$bytes": i, "length": n} in an envelope names attachment i of that call
//    (a `model_request` body, a `prompt_preview` body). Attachment(handle, i) returns its raw
//    bytes, valid until the next Call or Close on that handle.
//  - In: wherever a method takes large text (a delivery's `sse` or `body`, `session.resume`'s
//    `rollout`, `mock.respond`'s `body`, `rollout.inspect`'s `text`), the input JSON may hold
//    {"$bytes": i} instead of a string: it names inputs[i] of that Call. The bytes are read
//    during the call only. A reference to a missing input is `invalid_input`.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "agentctx/file_system.h"

namespace agentctx {

class Engine {
 public:
  Engine();
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  /// The engine version (semver), e.g. "0.1.0".
  static std::string_view Version();

  /// Opens a session slot; returns its handle (> 0), or 0 when the table is full.
  std::uint32_t Open();
  /// Registers a FileSystem under `name` for the session `handle` (config refers to it by name).
  /// Returns false for a bad handle.
  bool AddFileSystem(std::uint32_t handle, std::string name, std::shared_ptr<FileSystem> fs);
  /// Closes a handle; closing an unknown handle does nothing. Called during a Call (from a
  /// FileSystem callback), the close happens when that Call returns.
  void Close(std::uint32_t handle);
  /// Number of open session handles (for leak tests).
  std::uint32_t OpenHandles() const;

  /// Dispatches `method` on `handle` with a JSON input; returns the envelope JSON. One call at
  /// a time: a Call made while another one runs (from one of its FileSystem callbacks) answers
  /// `invalid_state`; a call whose own handle was closed meanwhile answers `bad_handle`.
  std::string Call(std::uint32_t handle, std::string_view method, std::string_view input_json);
  /// Call() with input attachments (`{"$bytes": i}` in `input_json` names `inputs[i]`).
  std::string Call(std::uint32_t handle, std::string_view method, std::string_view input_json,
                   const std::vector<std::string_view>& inputs);

  /// Number of attachments of the last call on `handle` (0 for an unknown handle).
  std::uint32_t AttachmentCount(std::uint32_t handle) const;
  /// Attachment `index` of the last call on `handle`: valid until the next Call or Close on
  /// that handle; empty for an unknown handle or index.
  std::string_view Attachment(std::uint32_t handle, std::uint32_t index) const;

  /// The lines of the last call's `persist` effect on session `handle` (no trailing LF), the same
  /// lines its envelope carries: a boundary that writes the rollout itself (the WASI guest)
  /// appends them without reading the envelope. Empty when the call persisted nothing or
  /// failed; valid until the next Call or Close on that handle.
  std::vector<std::string_view> PersistLines(std::uint32_t handle) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace agentctx
