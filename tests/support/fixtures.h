// SPDX-License-Identifier: MIT
// Fixture access for all three gtest runners. Uses POSIX fopen/opendir, which work natively,
// under Emscripten's NODERAWFS and under WASI (where tests/fixtures is preopened as /fixtures).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace agentctx::testing {

/// Absolute path of a fixture, e.g. FixturePath("codec/strings.json").
std::string FixturePath(const std::string& relative);
/// The file's bytes, or nullopt when it cannot be read.
std::optional<std::string> ReadFixture(const std::string& relative);
/// Names in a fixture directory, sorted; empty when it cannot be read.
std::vector<std::string> ListFixtureDir(const std::string& relative);
/// Writes a golden file (only called under ACTX_UPDATE_GOLDENS=1 in native runs).
bool WriteFixture(const std::string& relative, const std::string& bytes);
/// True when ACTX_UPDATE_GOLDENS=1 is set (native only; other runners only compare).
bool UpdateGoldens();

}  // namespace agentctx::testing
