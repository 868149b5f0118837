// SPDX-License-Identifier: MIT
// The parts the message-list bodies (Chat Completions, Anthropic Messages) share: the provider's
// tools converted once per canonical tools array, and the explainer's view of a body made of a
// system part, a tools array and messages.
// Invariants: a converted tools value is reused while the canonical bytes are unchanged (and
// made on first use); segments are views of the caller's strings (instructions = the system
// part, tools = the tools array, one item per message with its origin, serials unknown).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "provider/cache/cache_explainer.h"

namespace agentctx {

template <class Converted, Converted (*Convert)(std::string_view)>
class ToolsMemo {
 public:
  /// The conversion of `canonical`; `*changed` (optional) says whether it was made anew.
  const Converted& Get(std::string_view canonical, bool* changed = nullptr) {
    const bool fresh = !made_ || source_ != canonical;
    if (fresh) {
      source_.assign(canonical.data(), canonical.size());
      value_ = Convert(canonical);
      made_ = true;
    }
    if (changed != nullptr) *changed = fresh;
    return value_;
  }

 private:
  bool made_ = false;
  std::string source_;
  Converted value_{};
};

/// Fills `segments` (model and cache_key untouched) from a message-list body's parts.
template <class Messages, class Origins>
void FillMessageSegments(std::string_view system, std::string_view tools, const Messages& messages,
                         const Origins& origins, PromptSegments* segments) {
  if (segments == nullptr) return;
  segments->instructions_bytes = system;
  segments->tools_bytes = tools;
  segments->items.clear();
  segments->items.reserve(messages.size());
  for (std::size_t i = 0; i < messages.size(); ++i) {
    segments->items.push_back(ItemSegment{messages[i], origins[i], 0});
  }
}

}  // namespace agentctx
