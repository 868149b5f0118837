// SPDX-License-Identifier: MIT
#include "support/fixtures.h"

#include <dirent.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace agentctx::testing {

std::string FixturePath(const std::string& relative) {
  return std::string(ACTX_FIXTURES_DIR) + "/" + relative;
}

std::optional<std::string> ReadFixture(const std::string& relative) {
  std::FILE* f = std::fopen(FixturePath(relative).c_str(), "rb");
  if (f == nullptr) return std::nullopt;
  std::string out;
  char buf[65536];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  std::fclose(f);
  return out;
}

std::vector<std::string> ListFixtureDir(const std::string& relative) {
  std::vector<std::string> names;
  DIR* dir = opendir(FixturePath(relative).c_str());
  if (dir == nullptr) return names;
  while (dirent* e = readdir(dir)) {
    if (std::strcmp(e->d_name, ".") == 0 || std::strcmp(e->d_name, "..") == 0) continue;
    names.emplace_back(e->d_name);
  }
  closedir(dir);
  std::sort(names.begin(), names.end());
  return names;
}

bool WriteFixture(const std::string& relative, const std::string& bytes) {
  std::FILE* f = std::fopen(FixturePath(relative).c_str(), "wb");
  if (f == nullptr) return false;
  bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  return std::fclose(f) == 0 && ok;
}

bool UpdateGoldens() {
  const char* v = std::getenv("ACTX_UPDATE_GOLDENS");
  return v != nullptr && std::strcmp(v, "1") == 0;
}

}  // namespace agentctx::testing
