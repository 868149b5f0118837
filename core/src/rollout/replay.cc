// SPDX-License-Identifier: MIT
// Replay analysis (SPEC §13.4); see replay.h.
#include "rollout/replay.h"

#include <optional>
#include <utility>
#include <vector>

#include "prompt/cache_explainer.h"
#include "protocol/for_prompt.h"
#include "rollout/rollout_reader.h"

namespace agentctx {
namespace {

bool IsRolloutLineType(std::string_view type) {
  return type == "session_meta" || type == "response_item" || type == "turn_context" ||
         type == "world_state" || type == "compacted" || type == "event_msg";
}

JsonValue Num(std::uint64_t v) { return JsonValue::Int(static_cast<std::int64_t>(v)); }

RecordedItem ToRecorded(const JsonValue& raw, std::string origin) {
  std::optional<JsonValue> canonical = CanonicalizeItem(raw, nullptr);
  if (canonical.has_value()) return MakeRecordedItem(std::move(*canonical), "", std::move(origin));
  return MakeRecordedItem(raw, "", std::move(origin));  // opaque, source key order
}

struct ReplayRequest {
  CacheReport report;
  std::uint64_t line = 0;
  std::string model;
  std::uint64_t input_items = 0;
  std::optional<std::int64_t> input_tokens;
  std::optional<std::int64_t> cached_input_tokens;
};

JsonValue RequestJson(const ReplayRequest& r) {
  JsonValue cache = CacheReportToJson(r.report);
  JsonValue out = JsonValue::Object();
  out.Set("request_id", JsonValue::String(r.report.request_id));
  out.Set("line", Num(r.line));
  out.Set("model", JsonValue::String(r.model));
  out.Set("input_items", Num(r.input_items));
  for (const JsonMember& m : cache.members()) {
    if (m.key != "request_id") out.Set(m.key, m.value);
  }
  out.Set("input_tokens", r.input_tokens ? JsonValue::Int(*r.input_tokens) : JsonValue());
  out.Set("cached_input_tokens",
          r.cached_input_tokens ? JsonValue::Int(*r.cached_input_tokens) : JsonValue());
  return out;
}

}  // namespace

bool IsModelOutputItem(const JsonValue& item) {
  std::string_view type = ItemType(item);
  if (type == "reasoning") return true;
  if (type == "message") return item.GetString("role").value_or("") == "assistant";
  return type.size() > 5 && type.substr(type.size() - 5) == "_call";
}

Result<JsonValue> ReplayReport(std::string_view rollout_text,
                               const CompactionRebuilder* rebuilder) {
  ACTX_TRY(ParsedRollout parsed, ParseRollout(rollout_text));

  std::optional<std::string> session_id;
  std::string model;
  std::vector<RecordedItem> history;
  PromptItemCache prompt_cache;
  CacheExplainer explainer;
  std::vector<ReplayRequest> requests;
  bool in_output_run = false;
  bool awaiting_usage = false;
  std::uint64_t compactions = 0;
  std::uint64_t unrebuilt = 0;

  auto add_item = [&](const JsonValue& raw, const JsonValue* metadata, std::uint64_t line) {
    bool output = IsModelOutputItem(raw);
    if (output && !in_output_run) {
      // SPEC §13.4: one request before each maximal run of model-output items.
      std::vector<PromptItem> input = ForPrompt(history, true, &prompt_cache);
      PromptSegments segments;
      segments.model = model;
      segments.cache_key = session_id ? std::string_view(*session_id) : std::string_view();
      segments.items.reserve(input.size());
      for (const PromptItem& p : input) {
        std::string_view origin =
            p.synthetic ? std::string_view("tool") : history[p.history_index].origin;
        segments.items.push_back(ItemSegment{*p.bytes, origin});
      }
      ReplayRequest request;
      request.report = explainer.Explain("req-" + std::to_string(requests.size() + 1), segments);
      request.line = line;
      request.model = model;
      request.input_items = input.size();
      requests.push_back(std::move(request));
      awaiting_usage = true;
    }
    in_output_run = output;
    std::string origin;
    if (metadata != nullptr) origin = std::string(metadata->GetString("origin").value_or(""));
    if (origin.empty()) origin = ImportedItemOrigin(raw);
    history.push_back(ToRecorded(raw, std::move(origin)));
  };

  for (const RolloutRecord& record : parsed.records) {
    std::string_view type = record.type();
    const JsonValue* payload = record.payload();
    if (payload == nullptr) {
      // The older Codex layout: a header without `type`, bare items, `record_type` lines.
      if (record.line.Find("record_type") != nullptr) continue;
      if (type.empty()) {
        if (auto id = record.line.GetString("id"); id && !session_id) session_id = std::string(*id);
      } else if (!IsRolloutLineType(type)) {
        add_item(record.line, nullptr, record.line_number);
      }
      continue;
    }
    if (type == "session_meta") {
      if (auto id = payload->GetString("id"); id && !session_id) session_id = std::string(*id);
    } else if (type == "response_item") {
      add_item(*payload, record.line.Find("metadata"), record.line_number);
    } else if (type == "turn_context") {
      if (auto m = payload->GetString("model")) model = std::string(*m);
    } else if (type == "compacted") {
      const JsonValue* replacement = payload->Find("replacement_history");
      std::vector<RecordedItem> next;
      if (replacement != nullptr && replacement->is_array()) {
        for (const JsonValue& raw : replacement->items())
          next.push_back(ToRecorded(raw, "compaction"));
      } else {
        std::string message(payload->GetString("message").value_or(""));
        if (rebuilder != nullptr && *rebuilder) {
          next = (*rebuilder)(history, message);
        } else {
          next.push_back(MakeRecordedItem(UserInputMessage(message, {}), "", "compaction"));
          ++unrebuilt;
        }
      }
      history = std::move(next);
      explainer.NoteCompaction();
      in_output_run = false;
      ++compactions;
    } else if (type == "event_msg" && awaiting_usage &&
               payload->GetString("type").value_or("") == "token_count") {
      const JsonValue* info = payload->Find("info");
      const JsonValue* usage = info != nullptr ? info->Find("last_token_usage") : nullptr;
      if (usage != nullptr && usage->is_object()) {
        ReplayRequest& last = requests.back();
        last.input_tokens = usage->GetInt("input_tokens");
        last.cached_input_tokens = usage->GetInt("cached_input_tokens");
        if (last.cached_input_tokens) {
          explainer.NoteReportedCached(last.report.request_id,
                                       static_cast<std::uint64_t>(*last.cached_input_tokens));
        }
        awaiting_usage = false;
      }
    }
  }

  // Summary: the explainer's totals plus replay counters and the provider's figures.
  std::uint64_t with_usage = 0, input_tokens = 0, cached_tokens = 0;
  JsonValue request_list = JsonValue::Array();
  for (const ReplayRequest& r : requests) {
    if (r.input_tokens && *r.input_tokens >= 0) {
      ++with_usage;
      input_tokens += static_cast<std::uint64_t>(*r.input_tokens);
      if (r.cached_input_tokens && *r.cached_input_tokens >= 0) {
        cached_tokens += static_cast<std::uint64_t>(*r.cached_input_tokens);
      }
    }
    request_list.Push(RequestJson(r));
  }
  JsonValue summary = explainer.Summary();
  summary.Set("compactions", Num(compactions));
  summary.Set("unrebuilt_compactions", Num(unrebuilt));
  summary.Set("requests_with_usage", Num(with_usage));
  summary.Set("input_tokens", Num(input_tokens));
  summary.Set("cached_input_tokens", Num(cached_tokens));
  summary.Set("reported_cached_bp", Num(BasisPoints(cached_tokens, input_tokens)));

  JsonValue warnings = JsonValue::Array();
  for (const Warning& w : parsed.warnings) {
    JsonValue entry = JsonValue::Object();
    entry.Set("code", JsonValue::String(w.code));
    entry.Set("message", JsonValue::String(w.message));
    warnings.Push(std::move(entry));
  }

  JsonValue out = JsonValue::Object();
  out.Set("session_id", session_id ? JsonValue::String(*session_id) : JsonValue());
  out.Set("lines", Num(parsed.records.size()));
  out.Set("warnings", std::move(warnings));
  out.Set("summary", std::move(summary));
  out.Set("requests", std::move(request_list));
  return out;
}

}  // namespace agentctx
