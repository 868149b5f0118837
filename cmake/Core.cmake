# SPDX-License-Identifier: MIT
# The core library. Sources are globbed per module folder (core/src/<module>/*.cc) so adding a
# file needs no CMake edit. The JSON codec is its own object library: it alone sees RapidJSON.
file(GLOB_RECURSE ACTX_CORE_SOURCES CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/core/src/*.cc")
list(FILTER ACTX_CORE_SOURCES EXCLUDE REGEX "/protocol/json_codec\\.cc$")

configure_file("${PROJECT_SOURCE_DIR}/cmake/version.h.in"
               "${PROJECT_BINARY_DIR}/generated/agentctx/version.h" @ONLY)

# Prompts live as .md files (core/prompts) and are embedded as C++ raw strings.
file(GLOB ACTX_PROMPTS CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/core/prompts/*.md")
set(_prompts_inc "${PROJECT_BINARY_DIR}/generated/agentctx/prompts.inc")
set(_prompts_text "")
foreach(_p ${ACTX_PROMPTS})
  get_filename_component(_name "${_p}" NAME_WE)
  string(TOUPPER "${_name}" _name)
  file(READ "${_p}" _body)
  string(APPEND _prompts_text "inline constexpr std::string_view k${_name} = R\"actxprompt(${_body})actxprompt\";\n")
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${_p}")
endforeach()
file(CONFIGURE OUTPUT "${_prompts_inc}" CONTENT "${_prompts_text}")

add_library(agentctx_json_codec OBJECT "${PROJECT_SOURCE_DIR}/core/src/protocol/json_codec.cc")
target_include_directories(agentctx_json_codec PRIVATE
  "${PROJECT_SOURCE_DIR}/core/include" "${PROJECT_SOURCE_DIR}/core/src"
  "${PROJECT_BINARY_DIR}/generated")
target_link_libraries(agentctx_json_codec PRIVATE agentctx_rapidjson)

add_library(agentctx_core STATIC ${ACTX_CORE_SOURCES} $<TARGET_OBJECTS:agentctx_json_codec>)
# The built-in tools (core/src/tools) run once per tool call, far from the hot path (request
# assembly); in the Embind module, whose gzip size is budgeted (assemble_package.mjs), they are
# compiled for size. The last -O flag wins, so this overrides the build type's level.
if(EMSCRIPTEN)
  file(GLOB ACTX_TOOL_SOURCES CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/core/src/tools/*.cc")
  set_source_files_properties(${ACTX_TOOL_SOURCES} TARGET_DIRECTORY agentctx_core
                              PROPERTIES COMPILE_OPTIONS "$<$<CONFIG:Release>:-Oz>")
endif()
target_include_directories(agentctx_core
  PUBLIC "${PROJECT_SOURCE_DIR}/core/include" "${PROJECT_BINARY_DIR}/generated"
  PRIVATE "${PROJECT_SOURCE_DIR}/core/src")
