// SPDX-License-Identifier: MIT
// Attachments of one facade call: large bytes never travel inside the envelope (docs/boundary.md;
// agentctx/engine.h has the wire shape).
// Invariants:
//  - Output attachment i is named in the envelope as {"$bytes":i,"length":n}; its bytes are a
//    view, either into storage owned here (Own) or into session-owned storage that stays
//    unchanged until the next call on the same handle (View). Clear() starts a new call.
//  - An input reference is exactly an object {"$bytes": i} with an integer i in range; any
//    other object is ordinary JSON. A reference out of range is `invalid_input`.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "agentctx/result.h"
#include "protocol/attachment_ref.h"
#include "protocol/json_value.h"

namespace agentctx {

/// The output attachments of the last call on one handle.
class OutputAttachments {
 public:
  void Clear() {
    views_.clear();
    owned_.clear();
  }
  /// Adds a view of bytes that outlive the call (session storage); returns its index.
  std::uint32_t View(std::string_view bytes) {
    views_.push_back(bytes);
    return static_cast<std::uint32_t>(views_.size() - 1);
  }
  /// Adds bytes owned here; returns its index.
  std::uint32_t Own(std::string bytes) {
    owned_.push_back(std::move(bytes));  // deque: earlier elements never move
    views_.push_back(owned_.back());
    return static_cast<std::uint32_t>(views_.size() - 1);
  }
  std::uint32_t count() const { return static_cast<std::uint32_t>(views_.size()); }
  std::string_view at(std::uint32_t i) const {
    return i < views_.size() ? views_[i] : std::string_view();
  }

 private:
  std::vector<std::string_view> views_;
  std::deque<std::string> owned_;
};

/// The text of `object[key]`: a JSON string, or an input reference resolved against `inputs`.
/// nullopt when the key is absent or holds something else; an out-of-range reference is
/// `invalid_input`.
Result<std::optional<std::string_view>> InputText(const JsonValue& object, std::string_view key,
                                                  const std::vector<std::string_view>& inputs);

/// Replaces every input reference inside `value` by a string holding the referenced bytes.
Result<void> ResolveInputRefs(JsonValue* value, const std::vector<std::string_view>& inputs);

}  // namespace agentctx
