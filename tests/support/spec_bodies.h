// SPDX-License-Identifier: MIT
// Reference request bodies, written out literally so tests compare against a fixed text rather
// than against the code under test.
#pragma once

#include <string_view>

namespace agentctx::testing {

/// The example body: session `s-1`, model `mock-1`, instructions `You are a helpful coding
/// agent.`, builtin_tools:false, read-only, never, env `/repo` bash, submit `hi` (916 bytes;
/// prompt bytes P = 702, prompt/prompt_bytes.h).
inline constexpr std::string_view kSpecExampleBody =
    R"({"model":"mock-1","instructions":"You are a helpful coding agent.","input":[)"
    R"({"type":"message","role":"developer","content":[{"type":"input_text","text":)"
    R"("<permissions instructions>\nFilesystem sandboxing defines which files can be read or )"
    R"(written. `sandbox_mode` is `read-only`: The sandbox only permits reading files. Network )"
    R"(access is restricted.\nApproval policy is currently never. Do not provide the )"
    R"(`sandbox_permissions` for any reason, commands will be rejected.\n</permissions )"
    R"(instructions>"}]},)"
    R"({"type":"message","role":"user","content":[{"type":"input_text","text":)"
    R"("<environment_context>\n  <cwd>/repo</cwd>\n  <shell>bash</shell>\n</environment_context>"}]},)"
    R"({"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}],)"
    R"("tools":[],"tool_choice":"auto","parallel_tool_calls":true,"reasoning":{},"store":false,)"
    R"("stream":true,"include":["reasoning.encrypted_content"],"prompt_cache_key":"s-1"})";

}  // namespace agentctx::testing
