// SPDX-License-Identifier: MIT
#include "provider/responses/request_body.h"

#include <gtest/gtest.h>

namespace agentctx {
namespace {

// The 916-byte initial body of the reference example (tests/support/spec_bodies.h).
constexpr std::string_view kPermissions =
    R"({"type":"message","role":"developer","content":[{"type":"input_text","text":"<permissions instructions>\nFilesystem sandboxing defines which files can be read or written. `sandbox_mode` is `read-only`: The sandbox only permits reading files. Network access is restricted.\nApproval policy is currently never. Do not provide the `sandbox_permissions` for any reason, commands will be rejected.\n</permissions instructions>"}]})";
constexpr std::string_view kEnvironment =
    R"({"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>\n  <cwd>/repo</cwd>\n  <shell>bash</shell>\n</environment_context>"}]})";
constexpr std::string_view kUser =
    R"({"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]})";

BodyParams SpecExample(const std::vector<std::string_view>* items) {
  BodyParams p;
  p.model = "mock-1";
  p.instructions = "You are a helpful coding agent.";
  p.items = items;
  p.tools_bytes = "[]";
  p.prompt_cache_key = "s-1";
  return p;
}

TEST(RequestBody, SpecInitialBodyIs916Bytes) {
  std::vector<std::string_view> items = {kPermissions, kEnvironment, kUser};
  std::string body = BuildResponsesBody(SpecExample(&items));
  EXPECT_EQ(body.size(), 916u);
  EXPECT_TRUE(body.starts_with(
      R"({"model":"mock-1","instructions":"You are a helpful coding agent.","input":[)"));
  EXPECT_TRUE(body.ends_with(
      R"(],"tools":[],"tool_choice":"auto","parallel_tool_calls":true,"reasoning":{},)"
      R"("store":false,"stream":true,"include":["reasoning.encrypted_content"],)"
      R"("prompt_cache_key":"s-1"})"));
}

TEST(RequestBody, OptionalFieldsInOrder) {
  std::vector<std::string_view> items;
  BodyParams p = SpecExample(&items);
  p.instructions = "";
  p.reasoning_effort = "high";
  p.reasoning_summary = "auto";
  p.service_tier = "flex";
  p.verbosity = "low";
  p.compaction = true;
  EXPECT_EQ(BuildResponsesBody(p),
            R"({"model":"mock-1","input":[],"tools":[],"tool_choice":"none",)"
            R"("parallel_tool_calls":false,"reasoning":{"effort":"high","summary":"auto"},)"
            R"("store":false,"stream":true,"include":["reasoning.encrypted_content"],)"
            R"("service_tier":"flex","prompt_cache_key":"s-1","text":{"verbosity":"low"}})");
  p.supports_reasoning = false;
  p.compaction = false;
  EXPECT_EQ(BuildResponsesBody(p),
            R"({"model":"mock-1","input":[],"tools":[],"tool_choice":"auto",)"
            R"("parallel_tool_calls":true,"store":false,"stream":true,"service_tier":"flex",)"
            R"("prompt_cache_key":"s-1","text":{"verbosity":"low"}})");
}

TEST(RequestBody, CompactBodyFieldOrder) {
  std::vector<std::string_view> items = {kUser};
  BodyParams p = SpecExample(&items);
  EXPECT_EQ(BuildCompactBody(p),
            std::string(R"({"model":"mock-1","input":[)") + std::string(kUser) +
                R"(],"instructions":"You are a helpful coding agent.","tools":[],)"
                R"("parallel_tool_calls":true,"reasoning":{},"prompt_cache_key":"s-1"})");
}

}  // namespace
}  // namespace agentctx
