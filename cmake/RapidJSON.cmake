# SPDX-License-Identifier: MIT
# RapidJSON 1.1.0 from Debian, copied into the build tree and patched (the one place for this):
# - the copy keeps /usr/include off the wasm include paths;
# - clang-19 rejects GenericStringRef::operator= (assigns a const member), so it is deleted;
# - internal/stack.h computes `stackTop_ + n` while the stack is still null (UB that clang's
#   UBSan reports under the fuzz preset): compared as `n > stackEnd_ - stackTop_` instead, as
#   upstream RapidJSON does since 2018 (applied to existing build trees too);
# - SYSTEM silences the C++20 `operator!=` ambiguity warnings.
# Only the JSON codec target links agentctx_rapidjson: one codec, and no other code sees RapidJSON.
find_path(RAPIDJSON_INCLUDE_DIR rapidjson/document.h PATHS /usr/include NO_CMAKE_FIND_ROOT_PATH REQUIRED)
set(_rj "${CMAKE_BINARY_DIR}/_deps/rapidjson/include")
if(NOT EXISTS "${_rj}/rapidjson/document.h")
  file(COPY "${RAPIDJSON_INCLUDE_DIR}/rapidjson" DESTINATION "${_rj}")
  file(READ "${_rj}/rapidjson/document.h" _doc)
  string(REPLACE
    "GenericStringRef& operator=(const GenericStringRef& rhs) { s = rhs.s; length = rhs.length; }"
    "GenericStringRef& operator=(const GenericStringRef& rhs) = delete;" _doc "${_doc}")
  file(WRITE "${_rj}/rapidjson/document.h" "${_doc}")
endif()
file(READ "${_rj}/rapidjson/internal/stack.h" _stack)
string(FIND "${_stack}" "(stackEnd_ - stackTop_)" _stack_done)
if(_stack_done EQUAL -1)
  string(REPLACE "#include \"swap.h\"\n" "#include \"swap.h\"\n#include <cstddef>\n"
    _stack "${_stack}")
  string(REPLACE "RAPIDJSON_UNLIKELY(stackTop_ + sizeof(T) * count > stackEnd_)"
    "RAPIDJSON_UNLIKELY(static_cast<std::ptrdiff_t>(sizeof(T) * count) > (stackEnd_ - stackTop_))"
    _stack "${_stack}")
  string(REPLACE "RAPIDJSON_ASSERT(stackTop_ + sizeof(T) * count <= stackEnd_);"
    "RAPIDJSON_ASSERT(static_cast<std::ptrdiff_t>(sizeof(T) * count) <= (stackEnd_ - stackTop_));"
    _stack "${_stack}")
  file(WRITE "${_rj}/rapidjson/internal/stack.h" "${_stack}")
endif()
add_library(agentctx_rapidjson INTERFACE)
target_include_directories(agentctx_rapidjson SYSTEM INTERFACE "${_rj}")
target_compile_definitions(agentctx_rapidjson INTERFACE RAPIDJSON_HAS_STDSTRING=1)
