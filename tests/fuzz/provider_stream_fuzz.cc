// SPDX-License-Identifier: MIT
// Fuzz target: the provider stream adapters (protocol/chat_stream.h,
// protocol/anthropic_stream.h) behind the SSE parser, on arbitrary streams. The first byte picks
// the adapter (even: Chat Completions, odd: Anthropic Messages); the rest is the stream.
// Properties: no abort; whole and byte-by-byte feeding give the same Responses events; at most
// one terminal event (response.completed / failed / incomplete), and it is the last one; every
// output_item.done item is a message or a function_call with a string `call_id`.
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_check.h"
#include "protocol/json_value.h"
#include "protocol/sse_parser.h"
#include "provider/anthropic/anthropic_stream.h"
#include "provider/chat/chat_stream.h"

namespace agentctx {
namespace {

struct Adapter {
  bool chat = true;
  ChatStreamAdapter chat_stream;
  AnthropicStreamAdapter anthropic_stream;
  std::vector<JsonValue> out;

  void Feed(SseParser* parser, std::string_view text) {
    SseOutput framed;
    parser->Feed(text, &framed);
    for (const JsonValue& e : framed.events) {
      if (chat) {
        chat_stream.OnChunk(e, &out);
      } else {
        anthropic_stream.OnEvent(e, &out);
      }
    }
  }
  void End() {
    if (chat) chat_stream.OnEnd(&out);
  }
};

std::string Render(const std::vector<JsonValue>& events) {
  std::string s;
  for (const JsonValue& e : events) s += ToJson(e) + "\n";
  return s;
}

bool IsTerminal(std::string_view type) {
  return type == "response.completed" || type == "response.failed" || type == "response.incomplete";
}

void Run(std::string_view input) {
  if (input.empty()) return;
  const bool chat = (static_cast<unsigned char>(input[0]) % 2) == 0;
  std::string_view text = input.substr(1);

  Adapter whole;
  whole.chat = chat;
  SseParser whole_parser;
  whole.Feed(&whole_parser, text);
  whole.End();

  Adapter bytes;
  bytes.chat = chat;
  SseParser bytes_parser;
  for (char c : text) bytes.Feed(&bytes_parser, std::string_view(&c, 1));
  bytes.End();
  ACTX_FUZZ_CHECK(Render(bytes.out) == Render(whole.out));

  std::size_t terminals = 0;
  for (std::size_t i = 0; i < whole.out.size(); ++i) {
    const JsonValue& e = whole.out[i];
    std::string_view type = e.GetString("type").value_or("");
    if (IsTerminal(type)) {
      ++terminals;
      ACTX_FUZZ_CHECK(i + 1 == whole.out.size());
    }
    if (type == "response.output_item.done") {
      const JsonValue* item = e.Find("item");
      ACTX_FUZZ_CHECK(item != nullptr);
      std::string_view item_type = item->GetString("type").value_or("");
      ACTX_FUZZ_CHECK(item_type == "message" || item_type == "function_call");
      if (item_type == "function_call") ACTX_FUZZ_CHECK(item->GetString("call_id").has_value());
    }
  }
  ACTX_FUZZ_CHECK(terminals <= 1);
}

}  // namespace
}  // namespace agentctx

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  agentctx::Run(agentctx::fuzz::AsText(data, size));
  return 0;
}
