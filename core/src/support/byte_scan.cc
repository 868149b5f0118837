// SPDX-License-Identifier: MIT
// Byte scans; see byte_scan.h. The SIMD paths compile where __wasm_simd128__ is defined
// (the wasm builds pass -msimd128); everything else takes the portable path.
#include "support/byte_scan.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

namespace agentctx {

namespace {
constexpr std::size_t npos = std::string_view::npos;

#if defined(__wasm_simd128__)
constexpr std::size_t kLanes = 16;

std::size_t FirstLane(std::uint32_t mask) { return static_cast<std::size_t>(__builtin_ctz(mask)); }
#endif
}  // namespace

std::size_t FindByte(std::string_view text, std::size_t from, char byte) {
  if (from >= text.size()) return npos;
  const char* data = text.data();
  std::size_t i = from;
#if defined(__wasm_simd128__)
  const v128_t want = wasm_i8x16_splat(byte);
  for (; i + kLanes <= text.size(); i += kLanes) {
    const v128_t chunk = wasm_v128_load(data + i);
    const std::uint32_t mask = wasm_i8x16_bitmask(wasm_i8x16_eq(chunk, want));
    if (mask != 0) return i + FirstLane(mask);
  }
  for (; i < text.size(); ++i) {
    if (data[i] == byte) return i;
  }
  return npos;
#else
  const void* hit = std::memchr(data + i, byte, text.size() - i);
  return hit == nullptr ? npos : static_cast<std::size_t>(static_cast<const char*>(hit) - data);
#endif
}

std::size_t FindEitherByte(std::string_view text, std::size_t from, char byte1, char byte2) {
  if (byte1 == byte2) return FindByte(text, from, byte1);
  if (from >= text.size()) return npos;
  const char* data = text.data();
  std::size_t i = from;
#if defined(__wasm_simd128__)
  const v128_t want1 = wasm_i8x16_splat(byte1);
  const v128_t want2 = wasm_i8x16_splat(byte2);
  for (; i + kLanes <= text.size(); i += kLanes) {
    const v128_t chunk = wasm_v128_load(data + i);
    const std::uint32_t mask =
        wasm_i8x16_bitmask(wasm_v128_or(wasm_i8x16_eq(chunk, want1), wasm_i8x16_eq(chunk, want2)));
    if (mask != 0) return i + FirstLane(mask);
  }
#endif
  for (; i < text.size(); ++i) {
    if (data[i] == byte1 || data[i] == byte2) return i;
  }
  return npos;
}

std::size_t FindBytePair(std::string_view text, std::size_t from, char byte1, std::size_t offset1,
                         char byte2, std::size_t offset2) {
  const std::size_t reach = std::max(offset1, offset2);
  if (text.size() <= reach || from >= text.size() - reach) return npos;
  const std::size_t last = text.size() - reach - 1;  // the last index whose pair is inside
  const char* data = text.data();
  std::size_t i = from;
#if defined(__wasm_simd128__)
  const v128_t want1 = wasm_i8x16_splat(byte1);
  const v128_t want2 = wasm_i8x16_splat(byte2);
  for (; i + kLanes - 1 <= last; i += kLanes) {
    const v128_t hit1 = wasm_i8x16_eq(wasm_v128_load(data + i + offset1), want1);
    const v128_t hit2 = wasm_i8x16_eq(wasm_v128_load(data + i + offset2), want2);
    const std::uint32_t mask = wasm_i8x16_bitmask(wasm_v128_and(hit1, hit2));
    if (mask != 0) return i + FirstLane(mask);
  }
  for (; i <= last; ++i) {
    if (data[i + offset1] == byte1 && data[i + offset2] == byte2) return i;
  }
  return npos;
#else
  // memchr for the first byte (vectorised by the C library), then a look at the second.
  while (i <= last) {
    const void* hit = std::memchr(data + i + offset1, byte1, last - i + 1);
    if (hit == nullptr) return npos;
    i = static_cast<std::size_t>(static_cast<const char*>(hit) - data) - offset1;
    if (data[i + offset2] == byte2) return i;
    ++i;
  }
  return npos;
#endif
}

std::size_t AsciiPrefixLength(std::string_view text) {
  const char* data = text.data();
  std::size_t i = 0;
#if defined(__wasm_simd128__)
  for (; i + kLanes <= text.size(); i += kLanes) {
    const std::uint32_t mask = wasm_i8x16_bitmask(wasm_v128_load(data + i));
    if (mask != 0) return i + FirstLane(mask);
  }
#else
  for (; i + 8 <= text.size(); i += 8) {
    std::uint64_t word = 0;
    std::memcpy(&word, data + i, 8);
    if ((word & 0x8080808080808080ull) != 0) break;
  }
#endif
  while (i < text.size() && static_cast<unsigned char>(data[i]) < 0x80) ++i;
  return i;
}

}  // namespace agentctx
