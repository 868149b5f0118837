# SPDX-License-Identifier: MIT
# WASI preview1 toolchain on Debian bookworm: clang-19 + wasi-libc + libc++-19-dev-wasm32.
# Debian ships no ready sysroot, so we make one of two symlinks; without --sysroot the host's
# /usr/include would leak into wasm builds.
set(CMAKE_SYSTEM_NAME WASI)
set(CMAKE_SYSTEM_VERSION 1)
set(CMAKE_SYSTEM_PROCESSOR wasm32)
if(NOT WASI_CLANG_VERSION)
  set(WASI_CLANG_VERSION 19)
endif()
set(CMAKE_C_COMPILER   clang-${WASI_CLANG_VERSION})
set(CMAKE_CXX_COMPILER clang++-${WASI_CLANG_VERSION})
find_program(CMAKE_AR NAMES llvm-ar-${WASI_CLANG_VERSION} llvm-ar llvm-ar-14 REQUIRED)
find_program(CMAKE_RANLIB NAMES llvm-ranlib-${WASI_CLANG_VERSION} llvm-ranlib llvm-ranlib-14 REQUIRED)
# Debian has only the wasm32-wasi layout (no wasm32-wasip1).
set(CMAKE_C_COMPILER_TARGET   wasm32-wasi)
set(CMAKE_CXX_COMPILER_TARGET wasm32-wasi)
set(_sysroot "${CMAKE_BINARY_DIR}/wasi-sysroot")
if(NOT EXISTS "${_sysroot}/include/wasm32-wasi")
  file(MAKE_DIRECTORY "${_sysroot}/include" "${_sysroot}/lib")
  file(CREATE_LINK /usr/include/wasm32-wasi "${_sysroot}/include/wasm32-wasi" SYMBOLIC)
  file(CREATE_LINK /usr/lib/wasm32-wasi     "${_sysroot}/lib/wasm32-wasi"     SYMBOLIC)
endif()
set(CMAKE_SYSROOT "${_sysroot}")
list(APPEND CMAKE_MODULE_PATH "${CMAKE_CURRENT_LIST_DIR}")   # -> Platform/WASI.cmake
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
foreach(_k LIBRARY INCLUDE PACKAGE)
  set(CMAKE_FIND_ROOT_PATH_MODE_${_k} ONLY)
endforeach()
