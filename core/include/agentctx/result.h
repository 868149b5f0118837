// SPDX-License-Identifier: MIT
// Result<T>: a value or an Error, a subset of std::expected's surface (which is missing from
// g++ 12 in C++20 mode and from Emscripten's libc++ 13), so a later switch is mechanical.
// Invariants: value() on an error and ACTX_ASSERT abort (programming errors only; in wasm this
// traps). Bad input never aborts: it becomes an Error.
#pragma once

#include <cstdlib>
#include <string>
#include <utility>
#include <variant>

#include "agentctx/error.h"

#define ACTX_ASSERT(cond)      \
  do {                         \
    if (!(cond)) std::abort(); \
  } while (0)

namespace agentctx {

template <class E>
class Unexpected {
 public:
  explicit Unexpected(E e) : error_(std::move(e)) {}
  E& error() & { return error_; }
  E&& error() && { return std::move(error_); }

 private:
  E error_;
};

/// Makes an error result: `return Fail(ErrorCode::kNotFound, "no such file");`
inline Unexpected<Error> Fail(ErrorCode code, std::string message) {
  return Unexpected<Error>(Error{code, std::move(message), {}});
}
inline Unexpected<Error> Fail(Error error) { return Unexpected<Error>(std::move(error)); }

template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : state_(std::in_place_index<0>, std::move(value)) {}                  // NOLINT
  Result(Unexpected<Error> e) : state_(std::in_place_index<1>, std::move(e).error()) {}  // NOLINT

  bool has_value() const { return state_.index() == 0; }
  explicit operator bool() const { return has_value(); }
  T& value() & {
    ACTX_ASSERT(has_value());
    return std::get<0>(state_);
  }
  const T& value() const& {
    ACTX_ASSERT(has_value());
    return std::get<0>(state_);
  }
  T&& value() && {
    ACTX_ASSERT(has_value());
    return std::get<0>(std::move(state_));
  }
  const Error& error() const& {
    ACTX_ASSERT(!has_value());
    return std::get<1>(state_);
  }
  Error&& error() && {
    ACTX_ASSERT(!has_value());
    return std::get<1>(std::move(state_));
  }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  template <class U>
  T value_or(U&& fallback) const& {
    return has_value() ? std::get<0>(state_) : static_cast<T>(std::forward<U>(fallback));
  }

 private:
  std::variant<T, Error> state_;
};

template <>
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  Result(Unexpected<Error> e) : error_(std::move(e).error()), ok_(false) {}  // NOLINT
  bool has_value() const { return ok_; }
  explicit operator bool() const { return ok_; }
  void value() const { ACTX_ASSERT(ok_); }
  const Error& error() const& {
    ACTX_ASSERT(!ok_);
    return error_;
  }
  Error&& error() && {
    ACTX_ASSERT(!ok_);
    return std::move(error_);
  }

 private:
  Error error_;
  bool ok_ = true;
};

}  // namespace agentctx

#define ACTX_CONCAT_INNER(a, b) a##b
#define ACTX_CONCAT(a, b) ACTX_CONCAT_INNER(a, b)
/// ACTX_TRY(auto x, Expr()); — binds the value or returns the error from the enclosing function.
#define ACTX_TRY(var, expr) ACTX_TRY_IMPL(ACTX_CONCAT(actx_try_, __LINE__), var, expr)
#define ACTX_TRY_IMPL(tmp, var, expr)                                    \
  auto tmp = (expr);                                                     \
  if (!tmp.has_value()) return ::agentctx::Fail(std::move(tmp).error()); \
  var = std::move(tmp).value()
/// ACTX_TRY_VOID(Expr()); — for Result<void>.
#define ACTX_TRY_VOID(expr)                                                                      \
  do {                                                                                           \
    auto actx_try_void_ = (expr);                                                                \
    if (!actx_try_void_.has_value()) return ::agentctx::Fail(std::move(actx_try_void_).error()); \
  } while (0)
