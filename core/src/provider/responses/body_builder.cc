// SPDX-License-Identifier: MIT
// ResponsesBodyBuilder; see body_builder.h.
#include "provider/responses/body_builder.h"

#include <algorithm>

#include "provider/responses/openai_cache.h"

namespace agentctx {

std::string_view ResponsesBodyBuilder::Build(const BodyParams& p,
                                             const std::vector<PromptItem>& items,
                                             std::size_t stable) {
  const std::vector<std::size_t> no_marks;
  const std::vector<std::size_t>& marks = p.cache_marks != nullptr ? *p.cache_marks : no_marks;
  std::size_t from = 0;
  if (!body_.empty() && p.model == head_model_ && p.instructions == head_instructions_ &&
      stable >= items_ && items.size() >= items_) {
    // Keep every item, up to the first whose mark changed (a mark that moved off it).
    from = items_;
    std::size_t a = 0;
    std::size_t b = 0;
    while (a < marks_.size() || b < marks.size()) {
      const std::size_t old_mark = a < marks_.size() ? marks_[a] : items_;
      const std::size_t new_mark = b < marks.size() ? marks[b] : items_;
      if (old_mark == new_mark) {
        if (old_mark >= items_) break;
        ++a, ++b;
        continue;
      }
      from = std::min(std::min(old_mark, new_mark), from);
      break;
    }
    body_.resize(from == items_ ? items_end_ : starts_[from]);
    starts_.resize(from);
  } else {
    ++full_builds_;
    head_model_.assign(p.model.data(), p.model.size());
    head_instructions_.assign(p.instructions.data(), p.instructions.size());
    std::size_t size = p.model.size() + p.instructions.size() + 512 + p.tools_bytes.size();
    for (const PromptItem& item : items) size += item.bytes->size() + 1;
    body_.clear();
    body_.reserve(size);
    starts_.clear();
    AppendResponsesHead(&body_, p);
  }
  auto mark = std::lower_bound(marks.begin(), marks.end(), from);
  for (std::size_t i = from; i < items.size(); ++i) {
    starts_.push_back(body_.size());
    if (i > 0) body_.push_back(',');
    if (mark != marks.end() && *mark == i) {
      AppendWithBreakpoint(&body_, *items[i].bytes);
      ++mark;
    } else {
      body_.append(*items[i].bytes);
    }
  }
  items_ = items.size();
  items_end_ = body_.size();
  marks_.assign(marks.begin(), marks.end());
  AppendResponsesTail(&body_, p);
  return body_;
}

}  // namespace agentctx
