// SPDX-License-Identifier: MIT
// Shared helpers for the mock model's tests: request bodies (the built-in tool specs, items),
// and a reader of the mock's SSE answers.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/json_codec.h"
#include "protocol/json_value.h"
#include "world_state/message_kind.h"

namespace agentctx {
namespace testing {

// The built-in tool specs (docs/tools.md), verbatim.
constexpr std::string_view kBuiltinTools =
    R"([{"type":"function","name":"read_file","description":"Reads a text file and returns numbered lines.","strict":false,"parameters":{"additionalProperties":false,"properties":{"limit":{"description":"Maximum number of lines (default 2000).","minimum":1,"type":"integer"},"offset":{"description":"1-based first line (default 1).","minimum":1,"type":"integer"},"path":{"description":"Absolute path, or a path relative to the working directory.","type":"string"}},"required":["path"],"type":"object"}},)"
    R"({"type":"function","name":"list_dir","description":"Lists a directory.","strict":false,"parameters":{"additionalProperties":false,"properties":{"depth":{"description":"Directory levels to list (default 1).","maximum":3,"minimum":1,"type":"integer"},"path":{"description":"Absolute path, or a path relative to the working directory.","type":"string"}},"required":["path"],"type":"object"}},)"
    R"({"type":"function","name":"write_file","description":"Writes a UTF-8 text file, replacing it if it exists.","strict":false,"parameters":{"additionalProperties":false,"properties":{"content":{"description":"The complete new file content.","type":"string"},"path":{"description":"Absolute path, or a path relative to the working directory.","type":"string"}},"required":["path","content"],"type":"object"}}])";

inline std::string UserMsg(std::string_view text) {
  return R"({"type":"message","role":"user","content":[{"type":"input_text","text":)" +
         JsonString(text) + "}]}";
}
inline std::string AssistantMsg(std::string_view text) {
  return R"({"type":"message","role":"assistant","content":[{"type":"output_text","text":)" +
         JsonString(text) + "}]}";
}
inline std::string Call(std::string_view name, std::string_view arguments,
                        std::string_view call_id) {
  return R"({"type":"function_call","name":)" + JsonString(name) +
         ",\"arguments\":" + JsonString(arguments) + ",\"call_id\":" + JsonString(call_id) + "}";
}
inline std::string Output(std::string_view call_id, std::string_view output) {
  return R"({"type":"function_call_output","call_id":)" + JsonString(call_id) +
         ",\"output\":" + JsonString(output) + "}";
}
inline std::string AgentsMd(std::string_view text) {
  return UserMsg("# AGENTS.md instructions for /repo\n\n<INSTRUCTIONS>\n" + std::string(text) +
                 "\n</INSTRUCTIONS>");
}

inline std::string Body(const std::vector<std::string>& items,
                        std::string_view tools = kBuiltinTools, std::string_view key = "s-1") {
  std::string body =
      R"({"model":"mock-1","instructions":"You are a helpful coding agent.","input":[)";
  for (std::size_t i = 0; i < items.size(); ++i) body += (i ? "," : "") + items[i];
  body += "],\"tools\":" + std::string(tools) +
          R"(,"tool_choice":"auto","parallel_tool_calls":true,"reasoning":{},"store":false,)"
          R"("stream":true,"include":["reasoning.encrypted_content"],"prompt_cache_key":)" +
          JsonString(key) + "}";
  return body;
}

struct SseEvent {
  std::string type;
  JsonValue data;
};

// Splits the mock's SSE text (which always uses `event:` + one `data:` line + blank line).
inline std::vector<SseEvent> ParseSse(std::string_view sse) {
  std::vector<SseEvent> events;
  while (!sse.empty()) {
    std::size_t end = sse.find("\n\n");
    EXPECT_NE(end, std::string_view::npos);
    if (end == std::string_view::npos) break;
    std::string_view block = sse.substr(0, end);
    sse.remove_prefix(end + 2);
    std::size_t nl = block.find('\n');
    EXPECT_EQ(block.substr(0, 7), "event: ");
    EXPECT_EQ(block.substr(nl, 7), "\ndata: ");
    auto data = ParseJson(block.substr(nl + 7));
    EXPECT_TRUE(data.has_value());
    std::string type(block.substr(7, nl - 7));
    EXPECT_EQ(data->GetString("type"), type);
    events.push_back({type, data.has_value() ? *data : JsonValue()});
  }
  return events;
}

// The `item`s of the output_item.done events, as compact JSON.
inline std::vector<std::string> DoneItems(std::string_view sse) {
  std::vector<std::string> out;
  for (const SseEvent& e : ParseSse(sse)) {
    if (e.type == "response.output_item.done") out.push_back(ToJson(*e.data.Find("item")));
  }
  return out;
}

inline const JsonValue& Usage(const std::vector<SseEvent>& events) {
  return *events.back().data.Find("response")->Find("usage");
}

inline std::string ReplyText(std::string_view sse) {
  for (const SseEvent& e : ParseSse(sse)) {
    if (e.type != "response.output_item.done") continue;
    const JsonValue& item = *e.data.Find("item");
    if (item.GetString("type") == "message") {
      return std::string(MessageTexts(item, "output_text").front());
    }
  }
  return "<no message>";
}

inline std::uint64_t Tok(std::string_view bytes) { return (bytes.size() + 3) / 4; }

}  // namespace testing
}  // namespace agentctx
