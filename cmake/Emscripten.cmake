# SPDX-License-Identifier: MIT
# The Embind ES module of the npm package `agentctx`:
#   build/wasm/wasm/agentctx.mjs + agentctx.wasm, copied into wasm/dist by
#   scripts/assemble_package.mjs. One bound class (wasm/src/bindings.cc), no exceptions, no
#   Emscripten FS (the core's only I/O is the injected JS FileSystem), no eval (CSP-friendly).
add_executable(agentctx_embind
  "${PROJECT_SOURCE_DIR}/wasm/src/bindings.cc"
  "${PROJECT_SOURCE_DIR}/wasm/src/js_file_system.cc")
target_link_libraries(agentctx_embind PRIVATE agentctx_core embind)
set_target_properties(agentctx_embind PROPERTIES
  OUTPUT_NAME agentctx
  SUFFIX ".mjs"
  RUNTIME_OUTPUT_DIRECTORY "${PROJECT_BINARY_DIR}/wasm")
set(_actx_shim "${PROJECT_SOURCE_DIR}/wasm/js/node_esm_shim.js")
target_compile_options(agentctx_embind PRIVATE $<$<CONFIG:Release>:-Oz>)
target_link_options(agentctx_embind PRIVATE
  $<$<CONFIG:Release>:-Oz>
  -sMODULARIZE=1 -sEXPORT_ES6=1 -sEXPORT_NAME=createAgentctxModule
  -sENVIRONMENT=web,worker,node -sALLOW_MEMORY_GROWTH=1 -sFILESYSTEM=0 -sDYNAMIC_EXECUTION=0
  -sMALLOC=emmalloc
  # Leave the host's process handlers alone (an embedding app owns exit/unhandledRejection).
  -sNODEJS_CATCH_EXIT=0 -sNODEJS_CATCH_REJECTION=0
  "SHELL:--extern-pre-js ${_actx_shim}")
# The shim is not a source file: relink when it changes.
set_property(TARGET agentctx_embind APPEND PROPERTY LINK_DEPENDS "${_actx_shim}")
# The module's size budget is tuned per file (the optimisation levels below): its core and
# bindings keep one object per source even when the preset turns unity builds on (the test
# binary still uses them).
set_target_properties(agentctx_core agentctx_embind PROPERTIES UNITY_BUILD OFF)

# Size (assemble_package.mjs checks the 305 KB gzip budget): the module is
# compiled for speed (-O3) only where a tool-loop step spends its time — the protocol codec and
# SSE parser, the prompt assembly and cache explainer, the session's step/stream/tool loop, the
# world-state snapshot and the sections that change per step, the AGENTS.md manager's refresh
# (a key compare or a probe) and support (UTF-8, truncation, SHA-1: per-byte loops of every
# step). Everything else runs once per turn, on a change or on a cache miss, and is compiled
# -Oz: the list below. Moving a module here is measured with `npm run bench` (step time at 1 MB).
# ACTX_WASM_COLD_OZ=OFF compiles everything -O3 (for size/speed comparisons).
option(ACTX_WASM_COLD_OZ "Compile the core's cold modules -Oz in the Embind build" ON)
# grep's search path: the regex parser and engine, the file walk, the include glob, the line loop
# and its UTF-8 check and byte scans. Compiled -O3 like the step path's per-byte loops (the
# parser: +5 KB gzip; at -Oz a 3.5 KB pattern took 2-3 ms to parse, 4x native).
set(_actx_grep_hot
  "${PROJECT_SOURCE_DIR}/core/src/tools/grep.cc"
  "${PROJECT_SOURCE_DIR}/core/src/tools/file_walk.cc"
  "${PROJECT_SOURCE_DIR}/core/src/tools/glob_pattern.cc"
  "${PROJECT_SOURCE_DIR}/core/src/tools/regex.cc"
  "${PROJECT_SOURCE_DIR}/core/src/tools/regex_alphabet.cc"
  "${PROJECT_SOURCE_DIR}/core/src/tools/regex_dfa.cc"
  "${PROJECT_SOURCE_DIR}/core/src/tools/regex_literals.cc"
  "${PROJECT_SOURCE_DIR}/core/src/tools/regex_parser.cc"
  "${PROJECT_SOURCE_DIR}/core/src/tools/regex_pike.cc"
  "${PROJECT_SOURCE_DIR}/core/src/tools/regex_prefilter.cc"
  "${PROJECT_SOURCE_DIR}/core/src/support/utf8.cc"
  "${PROJECT_SOURCE_DIR}/core/src/support/byte_scan.cc")
if(ACTX_WASM_COLD_OZ)
  file(GLOB_RECURSE _actx_cold CONFIGURE_DEPENDS
    "${PROJECT_SOURCE_DIR}/core/src/tools/*.cc" "${PROJECT_SOURCE_DIR}/core/src/mock_model/*.cc"
    "${PROJECT_SOURCE_DIR}/core/src/rollout/*.cc" "${PROJECT_SOURCE_DIR}/core/src/compaction/*.cc")
  # Except grep's search path (_actx_grep_hot below): its loops run per byte of every file
  # searched, and -Oz there made grep 4–16× slower than native (docs/BENCHMARKS.md, grep in wasm).
  list(REMOVE_ITEM _actx_cold ${_actx_grep_hot})
  list(APPEND _actx_cold "${PROJECT_SOURCE_DIR}/core/src/session/config.cc"
    "${PROJECT_SOURCE_DIR}/core/src/session/config_update.cc"
    "${PROJECT_SOURCE_DIR}/core/src/session/session_resume.cc"
    "${PROJECT_SOURCE_DIR}/core/src/session/session_compaction.cc"
    # The Chat / Anthropic renderings and stream adapters (off the Responses step path),
    # and the cost rules (cache_summary, replay).
    "${PROJECT_SOURCE_DIR}/core/src/provider/provider_items.cc"
    "${PROJECT_SOURCE_DIR}/core/src/provider/chat/chat_body.cc"
    "${PROJECT_SOURCE_DIR}/core/src/provider/anthropic/anthropic_body.cc"
    "${PROJECT_SOURCE_DIR}/core/src/provider/anthropic/breakpoint_planner.cc"
    "${PROJECT_SOURCE_DIR}/core/src/provider/mark_planner.cc"
    "${PROJECT_SOURCE_DIR}/core/src/provider/responses/openai_cache.cc"
    # The 2026 provider features: once per request, per compaction or per tool-list change.
    "${PROJECT_SOURCE_DIR}/core/src/provider/cache/cache_diagnosis.cc"
    "${PROJECT_SOURCE_DIR}/core/src/provider/cache/cold_cache.cc"
    "${PROJECT_SOURCE_DIR}/core/src/provider/anthropic/context_editing.cc"
    "${PROJECT_SOURCE_DIR}/core/src/session/session_provider_compaction.cc"
    "${PROJECT_SOURCE_DIR}/core/src/session/session_tool_changes.cc"
    "${PROJECT_SOURCE_DIR}/core/src/session/session_context_edits.cc"
    "${PROJECT_SOURCE_DIR}/core/src/provider/cache/cache_pricing.cc"
    "${PROJECT_SOURCE_DIR}/core/src/provider/cache/cache_explainer_cost.cc"
    "${PROJECT_SOURCE_DIR}/core/src/provider/cache/cache_explainer_openai.cc"
    "${PROJECT_SOURCE_DIR}/core/src/provider/cache/openai_breakpoint_cache.cc"
    "${PROJECT_SOURCE_DIR}/core/src/provider/chat/chat_stream.cc"
    "${PROJECT_SOURCE_DIR}/core/src/provider/anthropic/anthropic_stream.cc"
    # The dialects of those providers, the feature switchboard, the mark-plan preview and the
    # summary totals (once per request or per summary; the Responses dialect stays -O3).
    "${PROJECT_SOURCE_DIR}/core/src/provider/chat/chat_dialect.cc"
    "${PROJECT_SOURCE_DIR}/core/src/provider/anthropic/anthropic_dialect.cc"
    "${PROJECT_SOURCE_DIR}/core/src/provider/dialect.cc"
    "${PROJECT_SOURCE_DIR}/core/src/provider/features.cc"
    "${PROJECT_SOURCE_DIR}/core/src/provider/cache/prefix_totals.cc"
    # Once per turn or per response: submit/update/interrupt and their inputs, the AGENTS.md
    # manager's reload path and probe set, the usage reader.
    "${PROJECT_SOURCE_DIR}/core/src/session/session.cc"
    "${PROJECT_SOURCE_DIR}/core/src/session/session_inputs.cc"
    "${PROJECT_SOURCE_DIR}/core/src/agents_md/manager.cc"
    "${PROJECT_SOURCE_DIR}/core/src/agents_md/probe_set.cc"
    "${PROJECT_SOURCE_DIR}/core/src/protocol/token_usage.cc"
    # The world-state merge patch: small JSON, once per step that changes something.
    "${PROJECT_SOURCE_DIR}/core/src/protocol/merge_patch.cc"
    "${PROJECT_SOURCE_DIR}/core/src/protocol/responses_events.cc"
    # AGENTS.md loading runs on a cache miss only (a step's refresh is a key compare or a probe).
    "${PROJECT_SOURCE_DIR}/core/src/agents_md/discovery.cc"
    "${PROJECT_SOURCE_DIR}/core/src/agents_md/imports.cc"
    "${PROJECT_SOURCE_DIR}/core/src/agents_md/assembly.cc"
    "${PROJECT_SOURCE_DIR}/core/src/agents_md/budget.cc"
    "${PROJECT_SOURCE_DIR}/core/src/agents_md/config.cc"
    # Host file-system calls, the in-memory FileSystem, the tool list (rebuilt on a config change).
    "${PROJECT_SOURCE_DIR}/core/src/engine/fs_methods.cc"
    "${PROJECT_SOURCE_DIR}/core/src/support/memory_file_system.cc"
    "${PROJECT_SOURCE_DIR}/core/src/prompt/tool_list.cc"
    # World-state sections: a step snapshots each (small JSON), the diff renders on a change only.
    "${PROJECT_SOURCE_DIR}/core/src/world_state/sections/skills_section.cc"
    "${PROJECT_SOURCE_DIR}/core/src/world_state/sections/permissions_section.cc"
    "${PROJECT_SOURCE_DIR}/core/src/world_state/sections/developer_instructions_section.cc"
    "${PROJECT_SOURCE_DIR}/core/src/world_state/sections/model_section.cc"
    "${PROJECT_SOURCE_DIR}/core/src/world_state/sections/agents_md_section.cc"
    "${PROJECT_SOURCE_DIR}/core/src/world_state/message_kind.cc"
    "${PROJECT_SOURCE_DIR}/core/src/protocol/task_frontier.cc"
    "${PROJECT_SOURCE_DIR}/core/src/session/session_warmth.cc"
    # Model error mapping and the engine's own (handle 0) methods: off the step path.
    "${PROJECT_SOURCE_DIR}/core/src/provider/model_errors.cc"
    "${PROJECT_SOURCE_DIR}/core/src/engine/engine.cc"
    "${PROJECT_SOURCE_DIR}/core/src/engine/session_methods.cc"
    "${PROJECT_SOURCE_DIR}/core/src/protocol/items.cc"
    # The opt-in features (task frontier, context budget) and the once-per-session base
    # instructions and UUIDs; the per-provider price rules (a cache summary, the Anthropic rule).
    "${PROJECT_SOURCE_DIR}/core/src/session/session_frontier.cc"
    "${PROJECT_SOURCE_DIR}/core/src/world_state/sections/task_frontier_section.cc"
    "${PROJECT_SOURCE_DIR}/core/src/world_state/sections/context_budget_section.cc"
    "${PROJECT_SOURCE_DIR}/core/src/session/base_instructions.cc"
    "${PROJECT_SOURCE_DIR}/core/src/support/uuid5.cc"
    "${PROJECT_SOURCE_DIR}/core/src/provider/cache/cache_pricing.cc"
    "${PROJECT_SOURCE_DIR}/core/src/provider/cache/cache_explainer_cost.cc"
    # The provider-side miss rule: once per request with usage, and in replay.
    "${PROJECT_SOURCE_DIR}/core/src/provider/cache/miss_cause.cc")
  foreach(_actx_file IN LISTS _actx_cold)  # a moved file must not silently lose its -Oz
    if(NOT EXISTS "${_actx_file}")
      message(FATAL_ERROR "cmake/Emscripten.cmake: cold module ${_actx_file} does not exist")
    endif()
  endforeach()
  set_source_files_properties(${_actx_cold} TARGET_DIRECTORY agentctx_core
    PROPERTIES COMPILE_OPTIONS "$<$<CONFIG:Release>:-Oz>")
endif()

# Link-time optimisation: the core, its codec and the bindings compile to LLVM bitcode and
# wasm-ld optimises the module as one unit (cross-module dead-code removal). With LTO, -O3's
# inlining across modules costs far more size than it did per object (the module measured 293 KB
# gzip with the step path at -O2, 248 KB at -Os), so the core's default level here is -Os; the
# cold modules above stay -Oz, and the per-byte loops keep -O3: the JSON codec (its own target),
# the SSE parser and grep's search path (_actx_grep_hot). Each function keeps the level its file
# was compiled with. ACTX_WASM_LTO=OFF builds plain objects at the build type's level.
option(ACTX_WASM_LTO "Compile the Embind build's own code as LLVM bitcode (-flto)" ON)
if(ACTX_WASM_LTO)
  foreach(_actx_target agentctx_core agentctx_json_codec agentctx_embind)
    target_compile_options(${_actx_target} PRIVATE $<$<CONFIG:Release>:-flto>)
  endforeach()
  target_compile_options(agentctx_core PRIVATE $<$<CONFIG:Release>:-Os>)
  target_compile_options(agentctx_embind PRIVATE $<$<CONFIG:Release>:-Os>)
  set_source_files_properties("${PROJECT_SOURCE_DIR}/core/src/protocol/sse_parser.cc"
    ${_actx_grep_hot} TARGET_DIRECTORY agentctx_core
    PROPERTIES COMPILE_OPTIONS "$<$<CONFIG:Release>:-O3;-finline-functions>")
  # -finline-functions: Emscripten 3.1.6 turns any -Os or -Oz on a compile line into
  # -fno-inline-functions, and a later -O3 does not undo it, so these files (whose target
  # compiles -Os) were built without inlining: grep ran 4–16x slower than native. With it,
  # about 16 KB gzip more, grep's file cases run within 1–2x of native.
endif()
