// SPDX-License-Identifier: MIT
// ErrorCode <-> wire name, generated from error_codes.def.
#include "agentctx/error.h"

namespace agentctx {

std::string_view ErrorCodeName(ErrorCode code) {
  switch (code) {
#define ACTX_ERROR_CODE(name, wire, doc) \
  case ErrorCode::k##name:               \
    return wire;
#include "agentctx/error_codes.def"
#undef ACTX_ERROR_CODE
  }
  return "internal";
}

bool ErrorCodeFromName(std::string_view name, ErrorCode* out) {
#define ACTX_ERROR_CODE(cname, wire, doc) \
  if (name == wire) {                     \
    *out = ErrorCode::k##cname;           \
    return true;                          \
  }
#include "agentctx/error_codes.def"
#undef ACTX_ERROR_CODE
  return false;
}

std::string Error::Display() const {
  std::string out(ErrorCodeName(code));
  out += ": ";
  out += message;
  return out;
}

}  // namespace agentctx
