// SPDX-License-Identifier: MIT
// One canonical (Responses-shaped, protocol/items.h) history item rendered for another
// provider: a Chat Completions piece or an Anthropic Messages message, and the tools array
// converted from the canonical one (prompt/tool_list.h).
// Invariants:
//  - Pure functions of the item bytes: the same item always renders to the same bytes, so a
//    renderer may cache them by the item's serial.
//  - Field orders are fixed (below); strings are escaped by the one writer (ToJson,
//    protocol/json_value.h).
//  - Items a provider cannot take are dropped here, never in history: `reasoning` (its
//    encrypted content belongs to OpenAI), `compaction`, and anything unknown.
// Chat (ChatPiece):
//  - user/developer message → {"role","content"}: content is the text when the message has one
//    text part, else [{"type":"text","text"}|{"type":"image_url","image_url":{"url","detail"?}}];
//  - assistant message → its output_text joined (the body groups a run of assistant text and
//    calls into one assistant message, chat_body.h);
//  - function_call → {"id","type":"function","function":{"name","arguments"}};
//    custom_tool_call → the same with arguments = {"input":<input>} as a JSON string;
//  - *_output → {"role":"tool","tool_call_id","content"}: the string, or its parts as text parts
//    (an image becomes the "image content omitted" text of prompt/for_prompt.h).
// Anthropic (AnthropicMessage, one message per item; the API joins consecutive same-role turns):
//  - user/developer message → {"role":"user","content":[text|image blocks]} (Anthropic has no
//    developer role in `messages`); assistant → {"role":"assistant","content":[text blocks]};
//    empty text blocks are skipped and a message left without blocks is dropped;
//  - function_call → {"role":"assistant","content":[{"type":"tool_use","id","name","input"}]}
//    (`input` = the parsed arguments object, else {"arguments":<text>});
//  - *_output → {"role":"user","content":[{"type":"tool_result","tool_use_id","content"?}]};
//  - an Anthropic compaction (a `compaction` item with `content`) → {"role":"assistant",
//    "content":[{"type":"compaction","content","encrypted_content"? (when non-empty),
//    "signature"?,"tool_changes"?}]}; an OpenAI one (no `content`) is dropped;
//  - a `system` message (harness notices, recorded only under the system_messages feature) →
//    {"role":"system","content":[text blocks]} (a mid-conversation system message);
//  - tool_changes → {"role":"system","content":[{"type":"tool_addition","tool":{"type":
//    "tool_definition","definition":<Anthropic tool>}}…,{"type":"tool_removal","tool":{"type":
//    "tool_reference","name"}}…]} (a mid-conversation system message; the betas it needs are
//    the body's, anthropic_body.h).
//  Every message ends with `}]}` (its last block's close, then the content's and its own), so a
//  `cache_control` mark goes in front of the last three bytes (anthropic_body.h).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "protocol/json_value.h"

namespace agentctx {

struct ChatPiece {
  enum class Kind {
    kDropped,        ///< nothing is sent
    kMessage,        ///< `bytes` is a whole message object
    kAssistantText,  ///< `bytes` is raw (unescaped) assistant text
    kToolCall,       ///< `bytes` is one `tool_calls` entry
  };
  Kind kind = Kind::kDropped;
  std::string bytes;
};

struct AnthropicMessage {
  bool dropped = true;
  std::string bytes;  ///< the message object, ending with `}]}`
};

/// The Chat Completions piece of a canonical item.
ChatPiece RenderChatPiece(const JsonValue& item);
/// The Anthropic Messages message of a canonical item.
AnthropicMessage RenderAnthropicMessage(const JsonValue& item);

/// The canonical tools array bytes (prompt/tool_list.h) as Chat Completions tools:
/// `[{"type":"function","function":{"name","description","parameters","strict"?}}]` (strict
/// only when true); "" when the array is empty or unreadable.
std::string ChatToolsJson(std::string_view canonical_tools);
/// One canonical tool spec as an Anthropic tool `{"name","description","input_schema"}`.
std::string AnthropicToolJson(const JsonValue& tool);
/// The canonical tools as Anthropic tools, one `{"name","description","input_schema"}` each.
std::vector<std::string> AnthropicToolsJson(std::string_view canonical_tools);

}  // namespace agentctx
