// SPDX-License-Identifier: MIT
// ChatBodyBuilder; see chat_body.h.
#include "provider/chat/chat_body.h"

#include <utility>

#include "protocol/json_value.h"

namespace agentctx {
namespace {

// A developer message's rendering starts with its role (provider_items.h fixes the key order);
// `chat.developer_role: system` swaps it for the system role, the rest byte for byte.
constexpr std::string_view kDeveloperHead = R"({"role":"developer",)";
constexpr std::string_view kSystemHead = R"({"role":"system",)";

// One assistant message from a run of assistant text and calls.
std::string AssistantMessage(const std::string& text, const std::vector<const ChatPiece*>& calls,
                             bool has_text) {
  std::string out = "{\"role\":\"assistant\",\"content\":";
  if (has_text) {
    AppendJsonString(&out, text);
  } else {
    out += "null";
  }
  if (!calls.empty()) {
    out += ",\"tool_calls\":[";
    for (std::size_t i = 0; i < calls.size(); ++i) {
      if (i != 0) out.push_back(',');
      out += calls[i]->bytes;
    }
    out.push_back(']');
  }
  out.push_back('}');
  return out;
}

void AppendTail(std::string* out, const BodyParams& p, std::string_view tools) {
  out->push_back(']');
  if (!tools.empty()) {
    out->append(",\"tools\":");
    out->append(tools);
    out->append(p.compaction ? ",\"tool_choice\":\"none\",\"parallel_tool_calls\":false"
                             : ",\"tool_choice\":\"auto\",\"parallel_tool_calls\":true");
  }
  if (p.supports_reasoning && p.reasoning_effort) {
    out->append(",\"reasoning_effort\":");
    AppendJsonString(out, *p.reasoning_effort);
  }
  if (p.max_output_tokens) {
    out->append(",\"max_completion_tokens\":");
    out->append(std::to_string(*p.max_output_tokens));
  }
  out->append(",\"stream\":true,\"stream_options\":{\"include_usage\":true}");
  AppendServiceTierAndCacheKey(out, p);
  if (p.verbosity) {
    out->append(",\"verbosity\":");
    AppendJsonString(out, *p.verbosity);
  }
  out->push_back('}');
}

}  // namespace

std::string_view ChatBodyBuilder::Build(const BodyParams& p, const std::vector<ItemSegment>& items,
                                        PromptSegments* segments) {
  const std::string& tools = tools_.Get(p.tools_bytes);
  system_.clear();
  if (!p.instructions.empty()) {
    system_ = "{\"role\":\"system\",\"content\":";
    AppendJsonString(&system_, p.instructions);
    system_.push_back('}');
  }

  // Render every item into messages; a run of assistant pieces becomes one message.
  messages_.clear();
  std::vector<std::string_view> origins;
  std::string text;
  bool has_text = false;
  std::vector<const ChatPiece*> calls;
  std::vector<ChatPiece> owned_calls;  // calls of serial-less items (scratch_ is reused)
  owned_calls.reserve(items.size());
  std::string_view run_origin;
  bool in_run = false;
  auto flush = [&]() {
    if (!in_run) return;
    messages_.push_back(AssistantMessage(text, calls, has_text));
    origins.push_back(run_origin);
    text.clear();
    has_text = false;
    calls.clear();
    in_run = false;
  };
  for (const ItemSegment& item : items) {
    const ChatPiece& piece = pieces_.Get(item);
    switch (piece.kind) {
      case ChatPiece::Kind::kDropped:
        break;
      case ChatPiece::Kind::kAssistantText:
      case ChatPiece::Kind::kToolCall:
        if (!in_run) run_origin = item.origin;
        in_run = true;
        if (piece.kind == ChatPiece::Kind::kAssistantText) {
          text += piece.bytes;
          has_text = true;
        } else if (item.serial == 0) {
          owned_calls.push_back(piece);
          calls.push_back(&owned_calls.back());
        } else {
          calls.push_back(&piece);
        }
        break;
      case ChatPiece::Kind::kMessage:
        flush();
        messages_.push_back(piece.bytes);
        if (p.chat_developer_role == ChatDeveloperRole::kSystem &&
            piece.bytes.starts_with(kDeveloperHead)) {
          messages_.back().replace(0, kDeveloperHead.size(), kSystemHead);
        }
        origins.push_back(item.origin);
        break;
    }
  }
  flush();
  pieces_.EndBuild();

  std::size_t size = 256 + p.model.size() + system_.size() + tools.size();
  for (const auto& m : messages_) size += m.size() + 1;
  body_.clear();
  body_.reserve(size);
  body_ += "{\"model\":";
  AppendJsonString(&body_, p.model);
  body_ += ",\"messages\":[";
  body_ += system_;
  for (std::size_t i = 0; i < messages_.size(); ++i) {
    if (i != 0 || !system_.empty()) body_.push_back(',');
    body_ += messages_[i];
  }
  AppendTail(&body_, p, tools);
  FillMessageSegments(system_, tools, messages_, origins, segments);
  return body_;
}

}  // namespace agentctx
