# SPDX-License-Identifier: MIT
# GoogleTest: Debian's package natively; compiled from /usr/src/googletest for wasm targets
# (Emscripten and WASI cannot link the host's libgtest). -fno-exceptions on every target.
if(ACTX_TARGET STREQUAL "native")
  find_package(GTest REQUIRED)
  set(ACTX_GTEST_MAIN GTest::gtest_main)
  set(ACTX_GTEST GTest::gtest)
else()
  if(ACTX_TARGET STREQUAL "wasi")
    # No threads and no dup2-based stream redirection in WASI preview1.
    add_compile_definitions(GTEST_HAS_STREAM_REDIRECTION=0 GTEST_HAS_PTHREAD=0)
  endif()
  set(INSTALL_GTEST OFF CACHE BOOL "" FORCE)
  set(BUILD_GMOCK OFF CACHE BOOL "" FORCE)
  set(gtest_disable_pthreads ON CACHE BOOL "" FORCE)
  add_subdirectory(/usr/src/googletest ${CMAKE_BINARY_DIR}/googletest EXCLUDE_FROM_ALL)
  foreach(_t gtest gtest_main)
    target_compile_options(${_t} PRIVATE -fno-exceptions -w)
  endforeach()
  set(ACTX_GTEST_MAIN gtest_main)
  set(ACTX_GTEST gtest)
endif()
