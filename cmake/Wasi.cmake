# SPDX-License-Identifier: MIT
# The WASI reactor build/wasi/wasi-host/agentctx.wasm: the C ABI
# (wasi-host/include/agentctx_abi.h) + guest glue over the core. A reactor has no main: the host
# calls _initialize once, then the actx_* exports. --strip-all drops the name section (size).
# Release uses -O2 for every WASI target, core and tests included.
set(CMAKE_C_FLAGS_RELEASE "-O2 -DNDEBUG")
set(CMAKE_CXX_FLAGS_RELEASE "-O2 -DNDEBUG")

set(ACTX_GUEST_DIR "${PROJECT_SOURCE_DIR}/wasi-host/guest")
# Sources, not a library: a static archive would drop export_name functions nobody references.
add_executable(agentctx_wasi
  "${ACTX_GUEST_DIR}/abi.cc"
  "${ACTX_GUEST_DIR}/guest_file_system.cc"
  "${ACTX_GUEST_DIR}/posix_file_system.cc"
  "${ACTX_GUEST_DIR}/rollout_file.cc"
  "${ACTX_GUEST_DIR}/ssp_stub.cc")
# core/src: the glue uses the engine's envelope helpers and the JSON codec (rollout_file.cc).
target_include_directories(agentctx_wasi PRIVATE
  "${PROJECT_SOURCE_DIR}/wasi-host/include" "${ACTX_GUEST_DIR}" "${PROJECT_SOURCE_DIR}/core/src")
target_link_libraries(agentctx_wasi PRIVATE agentctx_core)
target_link_options(agentctx_wasi PRIVATE
  -mexec-model=reactor -Wl,--strip-all -Wl,-z,stack-size=1048576)
set_target_properties(agentctx_wasi PROPERTIES
  OUTPUT_NAME agentctx SUFFIX ".wasm"
  RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/wasi-host")
