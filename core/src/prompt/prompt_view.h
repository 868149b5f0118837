// SPDX-License-Identifier: MIT
// PromptView: the for_prompt view of history kept up to date as history grows, so a step costs
// O(new items) instead of a walk over the whole history.
// Invariants:
//  - After Update(), items() equals ForPrompt(history, supports_images, cache) item for item
//    (same bytes, same serials): tests/unit/prompt/prompt_view_test.cc checks this on random
//    histories.
//  - stable_prefix(): how many leading items of items() the previous Update's view had, at the
//    same positions with the same bytes. An append-only step keeps them all.
// Algorithm (Update):
//  1. Rebuild with ForPrompt when the history epoch, the images flag or the tool-change form
//     changed, when history
//     shrank, or when a new output answers a call that already got a synthetic `aborted`
//     output (for_prompt would then drop that synthetic: a rewrite, never an append).
//  2. Otherwise walk only the new items [processed, n): a backward pass finds which new calls
//     have a later output among the new items; the forward pass appends each item (image-
//     stripped when needed), skips outputs without an earlier call, and puts a synthetic
//     `aborted` output right after each new call without one.
//  3. Pointers into history are refreshed when the history vector moved (reallocation).
#pragma once

#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "prompt/for_prompt.h"
#include "protocol/items.h"

namespace agentctx {

class PromptView {
 public:
  /// Brings the view up to date. `epoch` must change whenever history was replaced rather
  /// than appended to (compaction); `cache` must be the same object on every call.
  const std::vector<PromptItem>& Update(const std::vector<RecordedItem>& history,
                                        std::uint64_t epoch, bool supports_images,
                                        PromptItemCache* cache,
                                        ToolChangeForm tool_changes = ToolChangeForm::kNotice);

  const std::vector<PromptItem>& items() const { return view_; }
  std::size_t stable_prefix() const { return stable_; }
  /// Full recomputations so far (the append path is the common one; tests read this).
  std::uint64_t rebuilds() const { return rebuilds_; }

 private:
  void Rebuild(const std::vector<RecordedItem>& history, PromptItemCache* cache);
  /// Appends history[from, n); false when the view must be rebuilt instead.
  bool Append(const std::vector<RecordedItem>& history, std::size_t from, PromptItemCache* cache);

  bool valid_ = false;
  std::uint64_t epoch_ = 0;
  bool supports_images_ = true;
  ToolChangeForm tool_changes_ = ToolChangeForm::kNotice;
  std::size_t processed_ = 0;                   // history items consumed
  const RecordedItem* history_data_ = nullptr;  // to notice a reallocated history vector
  std::vector<PromptItem> view_;
  std::set<std::string> calls_;    // PairKey of every call seen
  std::set<std::string> aborted_;  // PairKey of calls that got a synthetic output
  std::size_t stable_ = 0;
  std::uint64_t rebuilds_ = 0;
};

}  // namespace agentctx
