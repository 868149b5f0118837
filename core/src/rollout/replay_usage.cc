// SPDX-License-Identifier: MIT
// Replay usage events; see replay_usage.h.
#include "rollout/replay_usage.h"

#include <utility>

namespace agentctx {
namespace {

std::uint64_t Count(const JsonValue& usage, std::string_view key) {
  std::optional<std::int64_t> v = usage.GetInt(key);
  return v && *v > 0 ? static_cast<std::uint64_t>(*v) : 0;
}

std::optional<ReplayUsage> UsageOf(const JsonValue* usage) {
  if (usage == nullptr || !usage->is_object()) return std::nullopt;
  return ReplayUsage{Count(*usage, "input_tokens"),
                     Count(*usage, "cached_input_tokens"),
                     Count(*usage, "output_tokens"),
                     Count(*usage, "reasoning_output_tokens"),
                     Count(*usage, "cache_creation_input_tokens"),
                     Count(*usage, "cache_creation_1h_input_tokens")};
}

bool HasCacheWrites(const JsonValue* usage) {
  return usage != nullptr && usage->is_object() &&
         usage->Find("cache_creation_input_tokens") != nullptr;
}

bool Same(const ReplayUsage& a, const ReplayUsage& b) {
  return a.input == b.input && a.cached == b.cached && a.output == b.output &&
         a.reasoning == b.reasoning && a.cache_write == b.cache_write &&
         a.cache_write_1h == b.cache_write_1h;
}

bool Covers(const ReplayUsage& a, const ReplayUsage& b) {
  return a.input >= b.input && a.cached >= b.cached && a.output >= b.output &&
         a.reasoning >= b.reasoning && a.cache_write >= b.cache_write &&
         a.cache_write_1h >= b.cache_write_1h;
}

ReplayUsage Minus(const ReplayUsage& a, const ReplayUsage& b) {
  return ReplayUsage{a.input - b.input,
                     a.cached - b.cached,
                     a.output - b.output,
                     a.reasoning - b.reasoning,
                     a.cache_write - b.cache_write,
                     a.cache_write_1h - b.cache_write_1h};
}

}  // namespace

bool UsageReader::HasUsageRecords(std::string_view rollout_text) {
  bool found = false;
  ForEachRolloutLineContaining(rollout_text, "token_usage_record",
                               [&found](const RolloutRecord& record) {
                                 found = record.type() == "token_usage_record";
                                 return !found;
                               });
  return found;
}

std::string_view UsageReader::source() const {
  if (!any_) return "none";
  return records_ ? "token_usage_record" : "token_count";
}

std::optional<ReplayUsage> UsageReader::Read(const RolloutRecord& record,
                                             std::string_view session_id) {
  if (records_) {
    // Step 2.
    if (record.type() != "token_usage_record") return std::nullopt;
    const JsonValue* p = record.payload();
    const JsonValue& payload = p != nullptr && p->is_object() ? *p : record.line;
    std::optional<ReplayUsage> usage = UsageOf(payload.Find("usage"));
    if (!usage) return std::nullopt;
    cache_writes_ = cache_writes_ || HasCacheWrites(payload.Find("usage"));
    if (auto thread = payload.GetString("thread_id");
        thread && !session_id.empty() && *thread != session_id) {
      return std::nullopt;
    }
    if (auto id = payload.GetString("response_id")) {
      if (!response_ids_.emplace(*id).second) {
        ++repeated_;
        return std::nullopt;
      }
    }
    if (std::optional<ReplayUsage> thread_total = UsageOf(payload.Find("thread_token_usage"))) {
      total_ = thread_total;
    }
    any_ = true;
    return usage;
  }
  // Step 3.
  if (record.event_type() != "token_count") return std::nullopt;
  const JsonValue* info = record.payload()->Find("info");
  if (info == nullptr || !info->is_object()) return std::nullopt;
  std::optional<ReplayUsage> last = UsageOf(info->Find("last_token_usage"));
  std::optional<ReplayUsage> total = UsageOf(info->Find("total_token_usage"));
  cache_writes_ = cache_writes_ || HasCacheWrites(info->Find("last_token_usage"));
  if (!total) {
    if (last) {
      any_ = true;
      total_.reset();  // the running total, if any, no longer covers every response
    }
    return last;
  }
  std::optional<ReplayUsage> prev = total_;
  if (prev && Same(*prev, *total)) {
    ++repeated_;
    return std::nullopt;
  }
  total_ = total;
  any_ = true;
  if (!prev || !Covers(*total, *prev)) return last ? last : total;  // first, or a reset
  ReplayUsage growth = Minus(*total, *prev);
  if (!last) return growth;
  if (!(last->input == growth.input && last->cached == growth.cached &&
        last->output == growth.output) &&
      mismatches_++ == 0) {
    warnings_.push_back(
        Warning{WarningCode::kUsageTotalMismatch,
                "token_count at line " + std::to_string(record.line_number) +
                    ": last_token_usage (" + std::to_string(last->input) +
                    " input tokens) differs from the growth of total_token_usage (" +
                    std::to_string(growth.input) + "); last_token_usage is used"});
  }
  return last;
}

}  // namespace agentctx
