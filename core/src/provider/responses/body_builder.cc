// SPDX-License-Identifier: MIT
// ResponsesBodyBuilder; see body_builder.h.
#include "provider/responses/body_builder.h"

namespace agentctx {

std::string_view ResponsesBodyBuilder::Build(const BodyParams& p,
                                             const std::vector<PromptItem>& items,
                                             std::size_t stable) {
  std::size_t from = 0;
  if (!body_.empty() && p.model == head_model_ && p.instructions == head_instructions_ &&
      stable >= items_ && items.size() >= items_) {
    body_.resize(items_end_);  // drop the previous tail, keep every item
    from = items_;
  } else {
    ++full_builds_;
    head_model_.assign(p.model.data(), p.model.size());
    head_instructions_.assign(p.instructions.data(), p.instructions.size());
    std::size_t size = p.model.size() + p.instructions.size() + 512 + p.tools_bytes.size();
    for (const PromptItem& item : items) size += item.bytes->size() + 1;
    body_.clear();
    body_.reserve(size);
    AppendResponsesHead(&body_, p);
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
