// SPDX-License-Identifier: MIT
// Byte scans of grep's per-byte loops (ours): where a byte, or a pair of bytes at fixed
// distances, or either of two bytes, next occurs, and how long a text's ASCII prefix is.
//  - Natively these are memchr (the C library's vectorised one) and plain loops.
//  - In WebAssembly they use 128-bit SIMD (16 bytes per step): the C libraries of Emscripten
//    and wasi-libc scan a 32-bit word at a time, and grep spent most of a literal search there.
//    The pair scan compares both bytes per position at once, so a common first byte no longer
//    stops the scan at every occurrence.
// Invariants: every function reads only bytes inside the given range (no over-read past the
// end, whatever the alignment); the answers are the same on every target (the unit tests run
// natively, under Emscripten and under WASI).
#pragma once

#include <cstddef>
#include <string_view>

namespace agentctx {

/// The index of the first `byte` at or after `from`, or npos.
std::size_t FindByte(std::string_view text, std::size_t from, char byte);

/// The index of the first byte at or after `from` that is `byte1` or `byte2`, or npos.
std::size_t FindEitherByte(std::string_view text, std::size_t from, char byte1, char byte2);

/// The first index i >= from with text[i + offset1] == byte1 and text[i + offset2] == byte2
/// (both inside the text), or npos.
std::size_t FindBytePair(std::string_view text, std::size_t from, char byte1, std::size_t offset1,
                         char byte2, std::size_t offset2);

/// The length of the longest prefix of `text` made of bytes below 0x80.
std::size_t AsciiPrefixLength(std::string_view text);

}  // namespace agentctx
