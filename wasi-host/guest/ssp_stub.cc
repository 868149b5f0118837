// SPDX-License-Identifier: MIT
// Stack-protector stub for WASI builds (the one place for this workaround).
// Why: Debian's clang-19 wasm32 builtins were compiled with -fstack-protector, so anything that
// pulls in e.g. __umodti3 (128-bit division, std::format) needs __stack_chk_guard, which
// wasi-libc does not define ("undefined symbol: __stack_chk_guard").
#include <cstdint>
#include <cstdlib>
extern "C" {
std::uintptr_t __stack_chk_guard = static_cast<std::uintptr_t>(0x94fda766u);
[[noreturn]] void __stack_chk_fail(void) { std::abort(); }
}
