// SPDX-License-Identifier: MIT
// Fuzz target: the SSE parser (SseParser::Feed, protocol/sse_parser.h) on arbitrary chunks.
// The input is the stream. Property (sse_parser.h invariant): any split gives the same events
// and warnings as the whole text; this feeds it whole, one byte at a time, and in chunk sizes
// 0..16 chosen by a generator seeded from the input, and compares. Finish() resets: the stream
// fed again after it gives the same output again.
#include <cstdint>
#include <string>

#include "fuzz_check.h"
#include "protocol/json_value.h"
#include "protocol/sse_parser.h"

namespace agentctx {
namespace {

std::string Render(const SseOutput& out) {
  std::string s;
  for (const JsonValue& e : out.events) s += "E" + ToJson(e) + "\n";
  for (const Warning& w : out.warnings)
    s += "W" + std::string(ToWire(w.code)) + ":" + w.message + "\n";
  return s;
}

void Run(std::string_view text) {
  SseParser whole_parser;
  SseOutput whole;
  whole_parser.Feed(text, &whole);
  whole_parser.Finish();
  ACTX_FUZZ_CHECK(!whole_parser.HasPendingEvent());
  const std::string expected = Render(whole);

  SseParser bytes_parser;
  SseOutput bytes;
  for (char c : text) bytes_parser.Feed(std::string_view(&c, 1), &bytes);
  bytes_parser.Finish();
  ACTX_FUZZ_CHECK(Render(bytes) == expected);

  std::uint32_t seed = 2166136261u;  // FNV-1a of the input picks the chunk sizes
  for (char c : text) seed = (seed ^ static_cast<unsigned char>(c)) * 16777619u;
  SseParser chunk_parser;
  SseOutput chunks;
  std::size_t at = 0;
  while (at < text.size()) {
    seed = seed * 1103515245u + 12345u;
    std::size_t n = (seed >> 16) % 17;  // 0..16, empty chunks included
    if (n > text.size() - at) n = text.size() - at;
    chunk_parser.Feed(text.substr(at, n), &chunks);
    at += n;
  }
  chunk_parser.Finish();
  ACTX_FUZZ_CHECK(Render(chunks) == expected);

  SseOutput again;
  whole_parser.Feed(text, &again);
  ACTX_FUZZ_CHECK(Render(again) == expected);
}

}  // namespace
}  // namespace agentctx

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  agentctx::Run(agentctx::fuzz::AsText(data, size));
  return 0;
}
