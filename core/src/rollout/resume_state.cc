// SPDX-License-Identifier: MIT
// Resume state reconstruction; see resume_state.h.
#include "rollout/resume_state.h"

#include <utility>

#include "protocol/merge_patch.h"
#include "rollout/line_checks.h"
#include "rollout/timestamp.h"

namespace agentctx {
namespace {

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// n of `turn-<n>` (decimal, no sign), or 0.
std::uint64_t TurnNumber(std::string_view turn_id) {
  constexpr std::string_view kPrefix = "turn-";
  if (turn_id.substr(0, kPrefix.size()) != kPrefix || turn_id.size() == kPrefix.size()) return 0;
  std::uint64_t n = 0;
  for (char c : turn_id.substr(kPrefix.size())) {
    if (c < '0' || c > '9' || n > 100000000000000000ULL) return 0;
    n = n * 10 + static_cast<std::uint64_t>(c - '0');
  }
  return n;
}

// Canonicalises `raw` and appends it to `history`; warnings go to `warnings`.
void Record(const JsonValue& raw, std::string turn_id, std::string origin,
            std::vector<RecordedItem>* history, std::vector<Warning>* warnings) {
  std::optional<JsonValue> item = CanonicalizeItem(raw, warnings);
  if (!item.has_value()) return;
  history->push_back(MakeRecordedItem(std::move(*item), std::move(turn_id), std::move(origin)));
}

}  // namespace

std::string ImportedItemOrigin(const JsonValue& item) {
  std::string_view type = ItemType(item);
  if (type == "message") {
    std::string_view role = item.GetString("role").value_or("");
    if (role == "assistant") return "model";
    if (role.empty()) return "message";
    return std::string(role);
  }
  if (type == "reasoning" || EndsWith(type, "_call")) return "model";
  if (EndsWith(type, "_output")) return "tool";
  if (type == "compaction" || type == "compaction_summary") return "compaction";
  return std::string(type);
}

ResumeState BuildResumeState(const ParsedRollout& rollout, const CompactionRebuilder* rebuilder) {
  ResumeState state;
  state.warnings = rollout.warnings;
  std::string current_turn;
  std::uint64_t task_started = 0;
  std::uint64_t max_turn_number = 0;
  RolloutLineChecks checks;  // duplicates and order (line_checks.h)

  for (const RolloutRecord& record : rollout.records) {
    std::string_view type = record.type();
    if (type == "response_item" || type == "compacted") {
      checks.NoteTimestamp(record.line, record.line_number);
    }
    const JsonValue* payload = record.payload();
    if (payload == nullptr) continue;  // unknown shapes are ignored, never an error

    if (type == "session_meta") {
      if (!state.session_meta.has_value()) state.session_meta = *payload;
    } else if (type == "response_item") {
      // Step 1: the item plus its metadata (a duplicate is skipped, line_checks.h).
      if (checks.IsDuplicate(*payload, record.line_number, &state.warnings)) continue;
      std::string turn_id = current_turn;
      std::string origin = ImportedItemOrigin(*payload);
      if (const JsonValue* meta = record.line.Find("metadata")) {
        if (auto t = meta->GetString("turn_id")) turn_id = std::string(*t);
        if (auto o = meta->GetString("origin")) origin = std::string(*o);
      }
      Record(*payload, std::move(turn_id), std::move(origin), &state.history, &state.warnings);
    } else if (type == "compacted") {
      // Step 2.
      const JsonValue* replacement = payload->Find("replacement_history");
      if (replacement != nullptr && replacement->is_array()) {
        std::vector<RecordedItem> history;
        for (const JsonValue& raw : replacement->items()) {
          Record(raw, current_turn, "compaction", &history, &state.warnings);
        }
        state.history = std::move(history);
      } else {
        std::string message(payload->GetString("message").value_or(""));
        if (rebuilder != nullptr && *rebuilder) {
          state.history = (*rebuilder)(state.history, message);
        } else {
          state.unrebuilt_compactions.push_back(
              UnrebuiltCompaction{record.line_number, std::move(message), state.history.size()});
        }
      }
      checks.ResetTo(replacement, state.history);
      state.baseline.reset();
      state.token_usage.reset();
      state.history_size_at_token_usage = 0;
      state.compaction_counter += 1;
    } else if (type == "world_state") {
      // Step 3.
      std::optional<bool> full = payload->GetBool("full");
      const JsonValue* snapshot = payload->Find("state");
      if (!full.has_value() || snapshot == nullptr) continue;
      if (*full) {
        state.baseline = *snapshot;
        state.latest_snapshot = state.baseline;
      } else if (state.baseline.has_value()) {
        state.baseline = MergePatchApply(*state.baseline, *snapshot);
        state.latest_snapshot = state.baseline;
      } else {
        state.warnings.push_back(Warning{WarningCode::kWorldStatePatchWithoutFull,
                                         "ignored world-state patch without a full snapshot"});
      }
    } else if (type == "turn_context") {
      // Step 4.
      state.turn_context = *payload;
      if (auto t = payload->GetString("turn_id")) current_turn = std::string(*t);
    } else if (type == "event_msg") {
      std::string_view kind = payload->GetString("type").value_or("");
      if (kind == "token_count") {
        const JsonValue* info = payload->Find("info");
        if (info != nullptr && !info->is_null()) {
          state.token_usage = *info;
          state.history_size_at_token_usage = state.history.size();
        }
      } else if (kind == "cache_report") {
        if (auto ts = record.line.GetString("timestamp")) {
          if (auto ms = ParseTimestamp(*ts)) state.last_request_ms = *ms;
        }
        std::optional<std::int64_t> bytes = payload->GetInt("prompt_bytes");
        state.last_request_prompt_bytes =
            bytes && *bytes > 0 ? static_cast<std::uint64_t>(*bytes) : 0;
      } else if (kind == "cache_diagnosis") {
        if (auto id = payload->GetString("response_id")) state.last_response_id = std::string(*id);
      } else if (kind == "provider_feature_refused") {
        if (auto feature = payload->GetString("feature")) {
          state.refused_features.emplace_back(*feature);
        }
      } else if (kind == "task_started") {
        task_started += 1;
        if (auto t = payload->GetString("turn_id")) {
          current_turn = std::string(*t);
          std::uint64_t n = TurnNumber(*t);
          if (n > max_turn_number) max_turn_number = n;
        }
      }
    }
  }
  checks.Finish(&state.warnings);
  state.turn_counter = task_started > max_turn_number ? task_started : max_turn_number;
  return state;
}

Result<ResumeState> BuildResumeState(std::string_view rollout_text,
                                     const CompactionRebuilder* rebuilder) {
  ACTX_TRY(ParsedRollout parsed, ParseRollout(rollout_text));
  return BuildResumeState(parsed, rebuilder);
}

}  // namespace agentctx
