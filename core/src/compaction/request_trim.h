// SPDX-License-Identifier: MIT
// Oldest-item dropping for a local compaction request that overflowed the context window
// (ours): on `context_window_exceeded` with more than one input item, the
// oldest item is dropped together with its paired outputs (a call takes every later output
// with the same call id and matching type; for_prompt already removed orphan outputs), a new
// request is issued and warning `compaction_trimmed` says how many items the request lacks so far.
// Pure: the caller describes its input items by type and call id.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace agentctx {

struct TrimItemRef {
  std::string_view type;
  std::string_view call_id;
};

/// Ascending indices of the oldest item and its pair; empty when `items` has ≤ 1 item
/// (nothing left to trim).
std::vector<std::size_t> OldestItemGroup(const std::vector<TrimItemRef>& items);

/// `Trimmed <n> oldest item(s) from the compaction request to fit the context window.`
std::string CompactionTrimmedMessage(std::uint64_t n);

}  // namespace agentctx
