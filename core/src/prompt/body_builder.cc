// SPDX-License-Identifier: MIT
// ResponsesBodyBuilder; see body_builder.h.
#include "prompt/body_builder.h"

namespace agentctx {

std::string_view ResponsesBodyBuilder::Build(const BodyParams& p,
                                             const std::vector<PromptItem>& items,
                                             std::size_t stable) {
  scratch_.clear();
  AppendResponsesHead(&scratch_, p);
  std::size_t from = 0;
  if (!body_.empty() && scratch_ == head_ && stable >= items_ && items.size() >= items_) {
    body_.resize(items_end_);  // drop the previous tail, keep every item
    from = items_;
  } else {
    ++full_builds_;
    head_.swap(scratch_);
    std::size_t size = head_.size() + 512 + p.tools_bytes.size();
    for (const PromptItem& item : items) size += item.bytes->size() + 1;
    body_.clear();
    body_.reserve(size);
    body_.append(head_);
  }
  for (std::size_t i = from; i < items.size(); ++i) {
    if (i > 0) body_.push_back(',');
    body_.append(*items[i].bytes);
  }
  items_ = items.size();
  items_end_ = body_.size();
  AppendResponsesTail(&body_, p);
  return body_;
}

}  // namespace agentctx
