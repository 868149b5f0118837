// SPDX-License-Identifier: MIT
// Shared helpers of the fuzz targets (tests/fuzz/*_fuzz.cc, README.md). Each target defines
// LLVMFuzzerTestOneInput; under the `fuzz` preset libFuzzer drives it, and every other native
// build links it with replay_main.cc, which feeds it each seed file (a plain ctest).
// ACTX_FUZZ_CHECK states a property of the code under test: on failure it prints the condition
// and aborts, which libFuzzer reports as a crash with the input saved.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#define ACTX_FUZZ_CHECK(cond)                                                               \
  do {                                                                                      \
    if (!(cond)) {                                                                          \
      std::fprintf(stderr, "%s:%d: fuzz property failed: %s\n", __FILE__, __LINE__, #cond); \
      std::abort();                                                                         \
    }                                                                                       \
  } while (0)

namespace agentctx::fuzz {

inline std::string_view AsText(const std::uint8_t* data, std::size_t size) {
  return std::string_view(reinterpret_cast<const char*>(data), size);
}

}  // namespace agentctx::fuzz
