// SPDX-License-Identifier: MIT
// Remote compaction input trimming and keep rules; see remote_compaction.h.
#include "compaction/remote_compaction.h"

#include "protocol/items.h"
#include "protocol/json_codec.h"
#include "world_state/message_kind.h"

namespace agentctx {

RemoteTrim TrimRemoteInput(std::string_view instructions_bytes, std::string_view tools_bytes,
                           const std::vector<EstimateItem>& items, std::uint64_t usable) {
  RemoteTrim out;
  out.replaced.resize(items.size());
  out.estimate = EstimatePrompt(instructions_bytes, tools_bytes, items);
  for (std::size_t i = items.size(); i > 0 && out.estimate > usable; --i) {
    const EstimateItem& e = items[i - 1];
    if (e.item == nullptr) continue;
    std::string_view type = ItemType(*e.item);
    JsonValue replacement;
    if (type == "function_call_output") {
      replacement = FunctionCallOutputItem(ItemCallId(*e.item), kTruncatedToolOutputText);
    } else if (type == "custom_tool_call_output") {
      replacement = CustomToolCallOutputItem(ItemCallId(*e.item), kTruncatedToolOutputText);
    } else {
      continue;
    }
    std::string bytes = ToJson(replacement);
    std::uint64_t before = ItemEstimateTokens(e.item, e.bytes);
    std::uint64_t after = ItemEstimateTokens(&replacement, bytes);
    if (after >= before) continue;
    out.estimate = out.estimate - before + after;
    out.replaced[i - 1] = std::move(bytes);
    out.replaced_count += 1;
  }
  return out;
}

bool KeepRemoteCompactionItem(const JsonValue& item) {
  std::string_view type = ItemType(item);
  if (type == "compaction") return true;
  if (type != "message") return false;
  switch (ClassifyMessage(item)) {
    case MessageKind::kRealUser:
    case MessageKind::kSummary:
    case MessageKind::kAssistant:
      return true;
    default:
      return false;
  }
}

Result<std::vector<JsonValue>> ParseRemoteCompactionOutput(std::string_view body,
                                                           std::vector<Warning>* warnings) {
  ACTX_TRY(JsonValue parsed, ParseJson(body));
  const JsonValue* output = parsed.is_object() ? parsed.Find("output") : nullptr;
  if (output == nullptr || !output->is_array()) {
    return Fail(ErrorCode::kInvalidInput, "the responses/compact body has no `output` array");
  }
  std::vector<JsonValue> kept;
  for (const JsonValue& raw : output->items()) {
    std::optional<JsonValue> item = CanonicalizeItem(raw, warnings);
    if (item.has_value() && KeepRemoteCompactionItem(*item)) kept.push_back(std::move(*item));
  }
  return kept;
}

}  // namespace agentctx
