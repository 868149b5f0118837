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

# Unity builds (CMAKE_UNITY_BUILD, set by the presets) compile batches of files as one unit. These
# files define file-local helpers (anonymous namespace) under a name that another core file uses
# too — kSpec/Failed in each tool, the Num/Str JSON helpers, StartsWith, Parser… — or an overload
# of one, so each compiles on its own. A new clash shows as a redefinition or ambiguity error in a
# unity build: list the file here or rename its helper.
set(_actx_unity_alone
  mock_model/provider_requests.cc mock_model/provider_sse.cc mock_model/responses_cache.cc
  mock_model/sse_writer.cc protocol/items.cc provider/provider_items.cc
  provider/anthropic/context_editing.cc provider/cache/cache_explainer.cc
  provider/cache/cache_explainer_cost.cc provider/cache/prefix_totals.cc
  provider/responses/openai_cache.cc provider/responses/request_body.cc
  rollout/line_checks.cc rollout/replay.cc rollout/replay_causes.cc rollout/replay_layout.cc
  rollout/replay_options.cc rollout/replay_table.cc rollout/replay_usage.cc
  rollout/resume_state.cc rollout/rollout_reader.cc rollout/rollout_writer.cc session/config.cc
  tools/edit_file.cc tools/file_walk.cc tools/glob.cc tools/grep.cc tools/list_dir.cc
  tools/output_truncation.cc tools/patch_chunks.cc tools/patch_parser.cc tools/read_file.cc
  tools/regex_literals.cc tools/regex_parser.cc tools/update_plan.cc tools/write_file.cc
  world_state/message_kind.cc world_state/sections/developer_instructions_section.cc
  world_state/sections/tools_section.cc)
list(TRANSFORM _actx_unity_alone PREPEND "${PROJECT_SOURCE_DIR}/core/src/")
set_source_files_properties(${_actx_unity_alone} PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
