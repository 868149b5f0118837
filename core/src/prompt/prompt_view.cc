// SPDX-License-Identifier: MIT
// PromptView (for_prompt, incrementally); see prompt_view.h.
#include "prompt/prompt_view.h"

namespace agentctx {

const std::vector<PromptItem>& PromptView::Update(const std::vector<RecordedItem>& history,
                                                  std::uint64_t epoch, bool supports_images,
                                                  PromptItemCache* cache,
                                                  ToolChangeForm tool_changes) {
  const std::size_t before = view_.size();
  const bool same_source = valid_ && epoch == epoch_ && supports_images == supports_images_ &&
                           tool_changes == tool_changes_ && history.size() >= processed_;
  epoch_ = epoch;
  supports_images_ = supports_images;
  tool_changes_ = tool_changes;
  if (same_source && Append(history, processed_, cache)) {
    stable_ = before;
  } else {
    Rebuild(history, cache);
    stable_ = 0;
  }
  processed_ = history.size();
  if (history.data() != history_data_) {
    // The vector moved: re-point every history-owned item (cache-owned bytes never move).
    for (PromptItem& item : view_) {
      if ((item.serial & kCacheSerialBit) == 0) item.bytes = &history[item.history_index].bytes;
    }
    history_data_ = history.data();
  }
  valid_ = true;
  return view_;
}

void PromptView::Rebuild(const std::vector<RecordedItem>& history, PromptItemCache* cache) {
  ++rebuilds_;
  view_ = ForPrompt(history, supports_images_, cache, tool_changes_);
  calls_.clear();
  aborted_.clear();
  for (const RecordedItem& item : history) {
    std::string_view type = ItemType(item.json);
    if (!OutputTypeFor(type).empty()) calls_.insert(PairKey(type, ItemCallId(item.json)));
  }
  for (const PromptItem& item : view_) {
    if (!item.synthetic) continue;
    const JsonValue& call = history[item.history_index].json;
    aborted_.insert(PairKey(ItemType(call), ItemCallId(call)));
  }
  history_data_ = history.data();
}

bool PromptView::Append(const std::vector<RecordedItem>& history, std::size_t from,
                        PromptItemCache* cache) {
  const std::size_t n = history.size();
  // Step 2, backward: which new calls have a later output among the new items.
  std::vector<bool> answered(n - from, false);
  {
    std::set<std::string> later_outputs;
    for (std::size_t k = n; k-- > from;) {
      const JsonValue& json = history[k].json;
      std::string_view type = ItemType(json);
      std::string_view call_type = CallTypeFor(type);
      if (!call_type.empty()) {
        later_outputs.insert(PairKey(call_type, ItemCallId(json)));
      } else if (!OutputTypeFor(type).empty()) {
        answered[k - from] = later_outputs.count(PairKey(type, ItemCallId(json))) != 0;
      }
    }
  }
  // Step 1's late case: an output for a call that already has a synthetic output.
  for (std::size_t i = from; i < n; ++i) {
    std::string_view call_type = CallTypeFor(ItemType(history[i].json));
    if (!call_type.empty() && aborted_.count(PairKey(call_type, ItemCallId(history[i].json)))) {
      return false;
    }
  }
  for (std::size_t i = from; i < n; ++i) {
    const RecordedItem& item = history[i];
    std::string_view type = ItemType(item.json);
    std::string_view call_type = CallTypeFor(type);
    if (!call_type.empty() && calls_.count(PairKey(call_type, ItemCallId(item.json))) == 0) {
      continue;  // an output without an earlier call
    }
    AppendPromptItem(history, i, supports_images_, tool_changes_, cache, &view_);
    if (!OutputTypeFor(type).empty()) {
      std::string key = PairKey(type, ItemCallId(item.json));
      if (!answered[i - from]) {
        const CachedPromptItem& aborted = cache->AbortedOutput(type, ItemCallId(item.json));
        view_.push_back(PromptItem{&aborted.bytes, i, true, aborted.serial});
        aborted_.insert(key);
      }
      calls_.insert(std::move(key));
    }
  }
  return true;
}

}  // namespace agentctx
