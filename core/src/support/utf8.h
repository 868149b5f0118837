// SPDX-License-Identifier: MIT
// UTF-8 helpers. Lossy decoding follows Rust's `String::from_utf8_lossy`: each maximal invalid
// subsequence (per the Unicode "substitution of maximal subparts" practice) becomes U+FFFD.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace agentctx {

/// The length of the valid UTF-8 sequence starting at `s[i]`, or 0 if none is valid there.
/// When 0, `*invalid_len` (if given) receives the length of the maximal invalid subpart (>= 1).
std::size_t Utf8SequenceLength(std::string_view s, std::size_t i, std::size_t* invalid_len);
/// The code point of the UTF-8 sequence at `s[i]` and its length in `*len`; an invalid or cut
/// sequence is U+FFFD of length 1.
std::uint32_t DecodeUtf8At(std::string_view s, std::size_t i, std::size_t* len);
/// True when `s` is well-formed UTF-8 (runs of ASCII are checked many bytes at a time).
bool IsValidUtf8(std::string_view s);
/// `s` with each maximal invalid subsequence replaced by U+FFFD.
std::string LossyUtf8(std::string_view s);
/// The largest index <= `pos` that is not inside a multi-byte character of `s`.
std::size_t FloorCharBoundary(std::string_view s, std::size_t pos);
/// The smallest index >= `pos` that is not inside a multi-byte character of `s`.
std::size_t CeilCharBoundary(std::string_view s, std::size_t pos);
/// Number of Unicode scalar values (counted on lead bytes; `s` should be valid UTF-8).
std::size_t CountChars(std::string_view s);
/// Trims Unicode White_Space from both ends.
std::string_view TrimUnicode(std::string_view s);

}  // namespace agentctx
