// SPDX-License-Identifier: MIT
// Responses API items: canonicalisation, builders and the recorded form. ForPrompt lives in
// for_prompt.h.
// Invariants:
//  - A canonical item has exactly these keys, in this fixed order; other fields are
//    dropped:
//      message{type,id?,role,content}          input_text{type,text}   output_text{type,text}
//      input_image{type,image_url,detail?}
//      reasoning{type,id?,summary[{type:"summary_text",text}],content?,encrypted_content?}
//      function_call{type,id?,name,arguments,call_id}
//      function_call_output{type,call_id,output}     (output: string or parts array)
//      custom_tool_call{type,id?,call_id,name,input}
//      custom_tool_call_output{type,call_id,output}
//      compaction{type,encrypted_content,content?,signature?,tool_changes?}  (`compaction_summary`
//      is
//        renamed; the optional members are an Anthropic compaction block's, kept verbatim)
//      tool_changes{type,added,removed,notice,removal_notice?}  (agentctx's own: a native tool
//        change, rendered per provider by prompt/for_prompt.h and provider/provider_items.h;
//        added = tool specs as in the tools array, removed = advertised names, notice = the
//        text sent where the provider has no native channel, removal_notice = the text of the
//        removals alone)
//  - `id` is kept only when it contains `_` with text on both sides (decided at record time).
//  - Strings hold valid UTF-8 (builders replace invalid sequences with U+FFFD).
//  - A RecordedItem is serialised once (bytes = ToJson(json)); those bytes serve the rollout
//    line and every request body. Metadata (turn_id, origin) is never sent.
// Canonicalisation: `system` messages are dropped silently; unknown item types,
// unknown roles and malformed items (e.g. a call without `call_id`) are dropped with warning
// `unsupported_item`; unknown content parts are dropped with the same warning.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/json_value.h"
#include "protocol/warning.h"

namespace agentctx {

/// The id rule: true when `id` contains `_` with at least one byte on both sides.
bool IsKeptItemId(std::string_view id);

/// The canonical form of a raw item (model output, rollout line or delivery); nullopt when
/// the item is dropped (warnings, if any, are appended to `warnings`).
std::optional<JsonValue> CanonicalizeItem(const JsonValue& raw, std::vector<Warning>* warnings);

/// `{"type":"input_text","text":text}` (invalid UTF-8 replaced).
JsonValue InputTextPart(std::string_view text);
/// `{"type":"input_image","image_url":url}`.
JsonValue InputImagePart(std::string_view image_url);

/// A `role` (`user`|`developer`) message with one `input_text` part per fragment (parts
/// are never joined).
JsonValue InputMessage(std::string_view role, const std::vector<std::string>& fragments);
/// The `submit` user message: `input_text` then one `input_image` per URL.
JsonValue UserInputMessage(std::string_view text, const std::vector<std::string>& image_urls);
/// `function_call_output{type,call_id,output}` with a string output.
JsonValue FunctionCallOutputItem(std::string_view call_id, std::string_view output);
/// `function_call_output` with a parts array (`input_text`/`input_image`), canonicalised.
JsonValue FunctionCallOutputItem(std::string_view call_id, const JsonValue& parts);
/// `custom_tool_call_output{type,call_id,output}` with a string output.
JsonValue CustomToolCallOutputItem(std::string_view call_id, std::string_view output);

/// `tool_changes{type,added,removed,notice,removal_notice?}` (removal_notice only with removals).
JsonValue ToolChangesItem(JsonValue added_specs, const std::vector<std::string>& removed,
                          std::string_view notice, std::string_view removal_notice);

/// One history entry: the canonical item, its bytes (serialised once) and metadata.
struct RecordedItem {
  JsonValue json;
  std::string bytes;  // ToJson(json), computed once at record time
  /// Identity of `bytes` within a session (never reused; 0 = not assigned): two items with
  /// the same non-zero serial hold the same bytes, so they are compared without reading them.
  std::uint64_t serial = 0;
  std::string turn_id;  // never sent
  std::string origin;   // section id | user | model | tool | compaction; never sent
};

/// Serialises `canonical_item` once and wraps it with its metadata.
RecordedItem MakeRecordedItem(JsonValue canonical_item, std::string turn_id, std::string origin);

/// The item's `type`, or "" when absent.
std::string_view ItemType(const JsonValue& item);
/// The item's `call_id`, or "" when absent.
std::string_view ItemCallId(const JsonValue& item);

}  // namespace agentctx
