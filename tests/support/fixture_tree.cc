// SPDX-License-Identifier: MIT
#include "support/fixture_tree.h"

#include <dirent.h>

#include <optional>

#include "support/fixtures.h"
#include "support/paths.h"

namespace agentctx::testing {

namespace {

bool IsFixtureDir(const std::string& relative) {
  DIR* dir = opendir(FixturePath(relative).c_str());
  if (dir == nullptr) return false;
  closedir(dir);
  return true;
}

bool Fail(std::string* error, const std::string& message) {
  if (error != nullptr) *error = message;
  return false;
}

bool LoadInto(const std::string& relative, const std::string& target, MemoryFileSystem* fs,
              std::int64_t mtime_ms, std::string* error) {
  if (!fs->AddDir(target, mtime_ms).has_value()) return Fail(error, "cannot add dir " + target);
  for (const std::string& name : ListFixtureDir(relative)) {
    if (name == ".gitkeep") continue;
    std::string child_relative = relative + "/" + name;
    std::string child = Join(target, FixtureNodeName(name));
    if (IsFixtureDir(child_relative)) {
      if (!LoadInto(child_relative, child, fs, mtime_ms, error)) return false;
      continue;
    }
    std::optional<std::string> bytes = ReadFixture(child_relative);
    if (!bytes.has_value()) return Fail(error, "cannot read fixture " + child_relative);
    if (!fs->AddFile(child, *bytes, mtime_ms).has_value()) {
      return Fail(error, "cannot add file " + child);
    }
  }
  return true;
}

}  // namespace

std::string FixtureNodeName(const std::string& name) { return name == "dot-git" ? ".git" : name; }

bool LoadFixtureTree(const std::string& relative, MemoryFileSystem* fs, const std::string& mount,
                     std::int64_t mtime_ms, std::string* error) {
  if (!IsFixtureDir(relative)) return Fail(error, "no fixture directory " + relative);
  return LoadInto(relative, mount, fs, mtime_ms, error);
}

}  // namespace agentctx::testing
