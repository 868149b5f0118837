// SPDX-License-Identifier: MIT
// Engine: the JSON facade every boundary calls (ARCHITECTURE §6). One Engine owns a table of
// session handles; handle 0 is the engine itself. Call() never aborts on bad input: every
// failure is an error envelope
//   {"v":1,"ok":false,"error":{"code":"invalid_json","message":"…","details":{…}}}
// and every success {"v":1,"ok":true,"value":…}.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

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
  /// Closes a handle; closing an unknown handle does nothing.
  void Close(std::uint32_t handle);
  /// Number of open session handles (for leak tests).
  std::uint32_t OpenHandles() const;

  /// Dispatches `method` on `handle` with a JSON input; returns the envelope JSON.
  std::string Call(std::uint32_t handle, std::string_view method, std::string_view input_json);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace agentctx
