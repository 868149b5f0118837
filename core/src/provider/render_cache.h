// SPDX-License-Identifier: MIT
// RenderCache: one provider rendering per history item, kept by the item's serial across
// requests (chat_body.h, anthropic_body.h), so a step renders only its new items.
// Invariants:
//  - Get() for a non-zero serial returns the cached rendering, made once from the item's bytes;
//    for serial 0 (bytes without an identity) it renders into a scratch value that the next
//    Get() overwrites: the caller copies it.
//  - EndBuild() keeps exactly the renderings used since the previous EndBuild() (memory follows
//    the prompt, not the session's past). A reference from Get() of a serialed item stays valid
//    through EndBuild() (map nodes do not move) until the next build asks for that serial again.
#pragma once

#include <cstdint>
#include <map>
#include <utility>

#include "protocol/json_codec.h"
#include "provider/cache/cache_explainer.h"

namespace agentctx {

template <class Rendered, Rendered (*Render)(const JsonValue&)>
class RenderCache {
 public:
  const Rendered& Get(const ItemSegment& item) {
    if (item.serial == 0) {
      scratch_ = RenderBytes(item);
      return scratch_;
    }
    auto found = next_.find(item.serial);
    if (found != next_.end()) return found->second;
    auto old = kept_.find(item.serial);
    Rendered value = old != kept_.end() ? std::move(old->second) : RenderBytes(item);
    return next_.emplace(item.serial, std::move(value)).first->second;
  }
  void EndBuild() {
    kept_.swap(next_);
    next_.clear();
  }

 private:
  static Rendered RenderBytes(const ItemSegment& item) {
    auto parsed = ParseJson(item.bytes);
    return parsed ? Render(*parsed) : Rendered{};
  }

  std::map<std::uint64_t, Rendered> kept_;  // renderings of the last build
  std::map<std::uint64_t, Rendered> next_;  // renderings of the build in progress
  Rendered scratch_;
};

}  // namespace agentctx
