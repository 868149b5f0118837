// SPDX-License-Identifier: MIT
// Probe recording and re-checking for `probe` refresh mode (docs/agents-md-refresh.md).
#include "agents_md/probe_set.h"

namespace agentctx {

namespace {

std::string_view RoleName(ProbeRole role) {
  switch (role) {
    case ProbeRole::kMarker:
      return "marker";
    case ProbeRole::kProjectFile:
      return "project";
    case ProbeRole::kGlobalFile:
      return "global";
    case ProbeRole::kImport:
      return "import";
  }
  return "project";
}

FileSystem* FindFileSystem(const AgentsMdInputs& inputs, std::string_view fs_name) {
  for (const EnvironmentSelection& env : inputs.environments) {
    if (env.fs_name == fs_name && env.fs != nullptr) return env.fs;
  }
  return nullptr;
}

}  // namespace

bool ProbeObservation::operator==(const ProbeObservation& other) const {
  if (state != other.state) return false;
  switch (state) {
    case State::kAbsent:
      return true;
    case State::kPresent:
      return kind == other.kind && size == other.size && mtime_ms == other.mtime_ms;
    case State::kError:
      return error == other.error;
  }
  return false;
}

ProbeObservation Observe(ProbeRole role, const Result<FileStat>& stat) {
  ProbeObservation seen;
  if (stat.has_value()) {
    seen.state = ProbeObservation::State::kPresent;
    if (role != ProbeRole::kMarker) {  // a marker's mtime changes constantly: presence only
      seen.kind = stat->kind;
      seen.size = stat->size;
      seen.mtime_ms = stat->mtime_ms;
    }
    return seen;
  }
  ErrorCode code = stat.error().code;
  bool absent = role == ProbeRole::kMarker || code == ErrorCode::kNotFound ||
                (role == ProbeRole::kGlobalFile && code == ErrorCode::kNotCapable);
  if (absent) return seen;
  seen.state = ProbeObservation::State::kError;
  seen.error = code;
  return seen;
}

void ProbeSet::Record(std::string_view fs_name, std::string_view path, ProbeRole role,
                      const Result<FileStat>& stat) {
  for (Probe& probe : probes_) {
    if (probe.fs_name == fs_name && probe.path == path) {
      if (probe.role == ProbeRole::kMarker && role != ProbeRole::kMarker) {
        probe.role = role;
        probe.seen = Observe(role, stat);
      }
      return;
    }
  }
  probes_.push_back(Probe{std::string(fs_name), std::string(path), role, Observe(role, stat)});
}

bool ProbeSet::Changed(const AgentsMdInputs& inputs) const {
  for (const Probe& probe : probes_) {
    FileSystem* fs = FindFileSystem(inputs, probe.fs_name);
    if (fs == nullptr) return true;
    if (Observe(probe.role, fs->Stat(probe.path)) != probe.seen) return true;
  }
  return false;
}

JsonValue ProbeSet::ToJson() const {
  JsonValue out = JsonValue::Array();
  for (const Probe& probe : probes_) {
    JsonValue p = JsonValue::Object();
    p.Set("fs", JsonValue::String(probe.fs_name));
    p.Set("path", JsonValue::String(probe.path));
    p.Set("role", JsonValue::String(std::string(RoleName(probe.role))));
    switch (probe.seen.state) {
      case ProbeObservation::State::kAbsent:
        p.Set("state", JsonValue::String("absent"));
        break;
      case ProbeObservation::State::kPresent:
        p.Set("state", JsonValue::String("present"));
        if (probe.role != ProbeRole::kMarker) {
          p.Set("kind", JsonValue::String(std::string(FileKindName(probe.seen.kind))));
          p.Set("size", JsonValue::RawNumber(std::to_string(probe.seen.size)));
          p.Set("mtime_ms", JsonValue::Int(probe.seen.mtime_ms));
        }
        break;
      case ProbeObservation::State::kError:
        p.Set("state", JsonValue::String("error"));
        p.Set("error", JsonValue::String(std::string(ErrorCodeName(probe.seen.error))));
        break;
    }
    out.Push(std::move(p));
  }
  return out;
}

}  // namespace agentctx
