// SPDX-License-Identifier: MIT
// The probe set of `probe` refresh mode (ours; docs/agents-md-refresh.md): every stat the last
// successful load made, with what it saw, so a cache hit can be validated by re-statting.
// Invariants:
//  - One probe per (fs_name, path), in first-stat order; a path probed both as a marker and as
//    a file keeps the stricter file comparison.
//  - Markers compare presence only (any stat error = absent, as discovery treats it); other
//    probes compare absent (not_found, plus not_capable for global candidates) vs
//    {kind, size, mtime_ms} vs the error code.
//  - Changed() makes exactly one Stat per probe when nothing changed and stops at the first
//    difference; it never reads.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "agentctx/file_system.h"
#include "agents_md/types.h"
#include "protocol/json_value.h"

namespace agentctx {

enum class ProbeRole {
  kMarker,       ///< a root marker: presence only
  kProjectFile,  ///< a project candidate name: not_found = absent
  kGlobalFile,   ///< a global candidate: not_found and not_capable = absent
  kImport,       ///< the target of an `@path` import line: not_found = absent
};

struct ProbeObservation {
  enum class State { kAbsent, kPresent, kError };
  State state = State::kAbsent;
  FileKind kind = FileKind::kFile;  // kPresent, non-marker only
  std::uint64_t size = 0;
  std::int64_t mtime_ms = 0;
  ErrorCode error = ErrorCode::kIo;  // kError only

  bool operator==(const ProbeObservation& other) const;
  bool operator!=(const ProbeObservation& other) const { return !(*this == other); }
};

/// What `role` makes of one stat result.
ProbeObservation Observe(ProbeRole role, const Result<FileStat>& stat);

struct Probe {
  std::string fs_name;
  std::string path;
  ProbeRole role = ProbeRole::kProjectFile;
  ProbeObservation seen;
};

class ProbeSet {
 public:
  /// Records one stat made by discovery.
  void Record(std::string_view fs_name, std::string_view path, ProbeRole role,
              const Result<FileStat>& stat);
  /// Re-stats every probe in order through the FileSystem that `inputs` names `fs_name`
  /// (an unknown name counts as a change). True at the first difference.
  bool Changed(const AgentsMdInputs& inputs) const;

  const std::vector<Probe>& probes() const { return probes_; }
  bool empty() const { return probes_.empty(); }
  void Clear() { probes_.clear(); }
  /// [{"fs","path","role","state", "kind"/"size"/"mtime_ms" | "error"}] for the inspect view.
  JsonValue ToJson() const;

 private:
  std::vector<Probe> probes_;
};

}  // namespace agentctx
