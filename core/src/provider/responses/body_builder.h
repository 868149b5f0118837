// SPDX-License-Identifier: MIT
// ResponsesBodyBuilder: the `responses` body of turn requests (request_body.h) kept in one
// buffer and extended in place, so a step writes only its new items and the short tail.
// Invariants:
//  - Build() returns exactly BuildResponsesBody(p) with p.items = the items' bytes.
//  - The head is compared by its inputs (model, instructions), never re-rendered to compare:
//    the instructions (often the base instructions, kilobytes) are escaped only when they change.
//  - When the head (model, instructions) is unchanged and the previous body's items are still
//    the leading items (`stable` ≥ their count), the buffer keeps them: it is cut back to the end
//    of the last item and the new items and the tail are appended. Otherwise it is rebuilt.
//  - Cache breakpoints (p.cache_marks, responses/openai_cache.h) are part of an item's bytes
//    in the body: when an item kept from the previous body gains or loses its mark, the buffer
//    is cut back to that item instead (only the item whose mark moved is written again).
//  - The returned view stays valid until the next Build() (the session keeps it for retries).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "prompt/for_prompt.h"
#include "provider/responses/request_body.h"

namespace agentctx {

class ResponsesBodyBuilder {
 public:
  /// The body for `p` (p.items is ignored) with `items` as `input`; `stable` = how many leading
  /// items equal those of the previous Build (PromptView::stable_prefix()).
  std::string_view Build(const BodyParams& p, const std::vector<PromptItem>& items,
                         std::size_t stable);
  std::string_view body() const { return body_; }
  /// Times the buffer was written from scratch (tests, benchmarks).
  std::uint64_t full_builds() const { return full_builds_; }

 private:
  std::string body_;
  std::string head_model_;  // the inputs of the head of body_ (up to `"input":[`)
  std::string head_instructions_;
  std::size_t items_ = 0;            // items in body_
  std::size_t items_end_ = 0;        // offset just after the last item's bytes
  std::vector<std::size_t> starts_;  // [i]: offset of item i's separator (or bytes, i = 0)
  std::vector<std::size_t> marks_;   // the items of body_ with a cache breakpoint
  std::uint64_t full_builds_ = 0;
};

}  // namespace agentctx
