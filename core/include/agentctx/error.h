// SPDX-License-Identifier: MIT
// Errors as values (the core never throws). Every failure in the core is an Error with a code from
// error_codes.def, a human message and optional string details (e.g. {"path": "/w/x"}).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentctx {

/// Error codes; the wire spelling is ErrorCodeName(). Generated from error_codes.def.
enum class ErrorCode {
#define ACTX_ERROR_CODE(name, wire, doc) k##name,
#include "agentctx/error_codes.def"
#undef ACTX_ERROR_CODE
};

/// The snake_case wire spelling of `code` (e.g. "not_found").
std::string_view ErrorCodeName(ErrorCode code);
/// Parses a wire spelling; false if unknown.
bool ErrorCodeFromName(std::string_view name, ErrorCode* out);

struct Error {
  ErrorCode code = ErrorCode::kInternal;
  std::string message;
  std::vector<std::pair<std::string, std::string>> details;

  /// `<code>: <message>` (e.g. `not_found: /w/x`), the one display form of an error.
  std::string Display() const;
};

}  // namespace agentctx
