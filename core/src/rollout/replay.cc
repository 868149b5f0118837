// SPDX-License-Identifier: MIT
// Replay analysis (docs/replay.md); see replay.h.
#include "rollout/replay.h"

#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "prompt/for_prompt.h"
#include "provider/cache/cache_explainer.h"
#include "rollout/replay_causes.h"
#include "rollout/replay_layout.h"
#include "rollout/replay_usage.h"
#include "rollout/rollout_reader.h"
#include "rollout/timestamp.h"

namespace agentctx {
namespace {

// `item` without its top-level `internal_…` members (recorded by Codex, never sent). The
// members are copied as they are (a parsed object has one per key): Set would look each key up
// among those copied before it, quadratic for a rollout item of many keys.
JsonValue WithoutInternalFields(const JsonValue& item) {
  if (!item.is_object()) return item;
  JsonValue out = JsonValue::Object();
  for (const JsonMember& m : item.members()) {
    if (m.key.rfind("internal_", 0) != 0) out.members().push_back(m);
  }
  return out;
}

bool IsRolloutLineType(std::string_view type) {
  return type == "session_meta" || type == "response_item" || type == "turn_context" ||
         type == "world_state" || type == "compacted" || type == "event_msg" ||
         type == "token_usage_record";
}

// A line only a rollout has (see replay.h, "Not a rollout"): a rollout line type, the older
// Codex layout's header ({id, timestamp, …} without `type`) or `record_type` lines, or a bare
// response item of that layout.
bool IsKnownRolloutLine(const RolloutRecord& record) {
  std::string_view type = record.type();
  if (IsRolloutLineType(type) || record.line.Find("record_type") != nullptr) return true;
  if (type.empty()) {
    return record.line.GetString("id").has_value() &&
           record.line.GetString("timestamp").has_value();
  }
  if (type == "message") return record.line.GetString("role").has_value();
  return type == "reasoning" || type == "compaction" || type.ends_with("_call") ||
         type.ends_with("_call_output");
}

// An event_msg line replay ignores (any event but token_count, cache_report, cache_diagnosis,
// context_edit and thread_settings_applied), told by its first bytes in the writers' key order
// ({"timestamp":…,"type":"event_msg","payload":{"type":<kind>…): it is checked, not built. Any
// other shape (another key order, an escaped kind) is parsed in full.
bool IsIgnoredEventLine(std::string_view line) {
  constexpr std::string_view kStart = R"({"timestamp":")";
  constexpr std::string_view kEvent = R"(,"type":"event_msg","payload":{"type":")";
  if (line.substr(0, kStart.size()) != kStart) return false;
  const std::size_t stamp_end = line.find('"', kStart.size());
  if (stamp_end == std::string_view::npos) return false;
  std::string_view rest = line.substr(stamp_end + 1);
  if (rest.substr(0, kEvent.size()) != kEvent) return false;
  rest.remove_prefix(kEvent.size());
  const std::size_t kind_end = rest.find('"');
  if (kind_end == std::string_view::npos) return false;
  const std::string_view kind = rest.substr(0, kind_end);
  return kind.find('\\') == std::string_view::npos && kind != "token_count" &&
         kind != "cache_report" && kind != "cache_diagnosis" && kind != "context_edit" &&
         kind != "thread_settings_applied";
}

JsonValue Num(std::uint64_t v) { return JsonValue::Int(static_cast<std::int64_t>(v)); }

// The request bodies of a dump: each distinct item once, requests as ranges of item indexes.
struct Dump {
  std::vector<std::string> items;
  std::map<std::string, std::uint64_t, std::less<>> index;
  JsonValue requests = JsonValue::Array();

  std::uint64_t Intern(std::string_view bytes) {
    auto it = index.find(bytes);
    if (it != index.end()) return it->second;
    items.emplace_back(bytes);
    index.emplace(std::string(bytes), items.size() - 1);
    return items.size() - 1;
  }

  void Add(std::string_view request_id, std::string_view model,
           const std::optional<std::string>& instructions,
           const std::vector<std::string_view>& input) {
    JsonValue ranges = JsonValue::Array();
    std::uint64_t first = 0, end = 0;
    auto flush = [&] {
      if (end == first) return;
      JsonValue range = JsonValue::Array();
      range.Push(Num(first));
      range.Push(Num(end));
      ranges.Push(std::move(range));
    };
    for (std::string_view bytes : input) {
      std::uint64_t i = Intern(bytes);
      if (end != first && i == end) {
        ++end;
        continue;
      }
      flush();
      first = i;
      end = i + 1;
    }
    flush();
    JsonValue r = JsonValue::Object();
    r.Set("request_id", JsonValue::String(std::string(request_id)));
    r.Set("model", JsonValue::String(std::string(model)));
    if (instructions) r.Set("instructions", JsonValue::String(*instructions));
    r.Set("input", std::move(ranges));
    requests.Push(std::move(r));
  }

  JsonValue ToJson() && {
    JsonValue list = JsonValue::Array();
    for (std::string& bytes : items) list.Push(JsonValue::String(std::move(bytes)));
    JsonValue out = JsonValue::Object();
    out.Set("items", std::move(list));
    out.Set("requests", std::move(requests));
    return out;
  }
};

class Replayer {
 public:
  Replayer(const ReplayOptions& options, const CompactionRebuilder* rebuilder,
           std::string_view text, Dump* dump)
      : options_(options),
        rebuilder_(rebuilder),
        text_(text),
        usage_(UsageReader::HasUsageRecords(text)),
        dump_(dump) {}

  Result<JsonValue> Run();

 private:
  void OnRecord(const RolloutRecord& record);
  void OnSessionMeta(const JsonValue& payload);
  bool RecordsUpdatePlanCall() const;
  void AddItem(const JsonValue& raw, const JsonValue* metadata, const RolloutRecord& record);
  void Reconstruct(const RolloutRecord& record, std::optional<std::int64_t> time);
  void OnCompacted(const JsonValue& payload);
  void OnUsage(const ReplayUsage& usage, const RolloutRecord& record,
               std::optional<std::int64_t> time);
  void PushUsageOnly(const ReplayUsage& usage, std::uint64_t line, std::optional<std::int64_t> t);
  void FlushPending();
  void UseRecordedReport(CacheReport* report);
  void DropRecordedReport();
  std::string NextId() const { return "req-" + std::to_string(requests_.size() + 1); }

  struct Pending {
    ReplayUsage usage;
    std::uint64_t line = 0;
    std::optional<std::int64_t> time;
  };

  const ReplayOptions& options_;
  const CompactionRebuilder* rebuilder_;
  std::string_view text_;  // the rollout, read one line at a time (ForEachRolloutRecord)
  std::vector<Warning> line_warnings_;
  std::uint64_t known_lines_ = 0;  // lines only a rollout has (IsKnownRolloutLine)
  std::uint64_t built_lines_ = 0;  // lines parsed and visited (the others: IsIgnoredEventLine)
  UsageReader usage_;
  Dump* dump_;

  std::optional<std::string> session_id_;
  std::optional<std::string> cli_version_;
  bool meta_seen_ = false;
  std::string model_;
  // The provider of the latest turn_context (`provider`; absent: responses, as the writer omits
  // it and Codex only speaks Responses).
  std::string provider_ = "responses";
  std::optional<std::string> base_text_;
  bool base_as_developer_ = false;
  std::string instructions_bytes_;  // a JSON string literal, or empty
  std::optional<RecordedItem> base_message_;

  std::vector<RecordedItem> history_;
  // Serials for every item made here (RecordedItem::serial): the explainer then skips
  // segments it knows are unchanged instead of comparing every byte of every request.
  std::uint64_t last_serial_ = 0;
  RecordedItem Numbered(RecordedItem item) {
    item.serial = ++last_serial_;
    return item;
  }
  std::size_t history_at_request_ = 0;  // history size when the last request was built
  PromptItemCache prompt_cache_;
  CacheExplainer explainer_;
  std::vector<ReplayRequest> requests_;
  bool in_output_run_ = false;
  bool compaction_pending_ = false;
  std::optional<std::int64_t> last_input_ms_;
  ReplayFacts facts_;

  // agentctx rollouts record the session's own cache report of each request (`cache_report`): it
  // saw the instructions and tools, so it replaces the reconstructed one.
  std::optional<JsonValue> recorded_report_;
  std::optional<JsonValue> recorded_diagnosis_;  // the provider's verdict of that request
  bool recorded_context_edit_ = false;           // the provider edited that request's prompt
  std::uint64_t recorded_prev_bytes_ = 0;

  bool layout_known_ = false;
  bool usage_first_ = false;  // usage lines precede their output items (Codex 0.5x)
  std::optional<Pending> pending_;
};

void Replayer::OnSessionMeta(const JsonValue& payload) {
  if (meta_seen_) return;  // a fork's copied parent meta follows the first one
  meta_seen_ = true;
  if (auto id = payload.GetString("id"); id && !session_id_) session_id_ = std::string(*id);
  if (auto v = payload.GetString("cli_version")) cli_version_ = std::string(*v);
  base_text_ = BaseInstructionsText(payload);
  if (!base_text_) return;
  base_as_developer_ = SendsBaseInstructionsAsDeveloperMessage(cli_version_.value_or(""));
  if (base_as_developer_) {
    // The text and id the CLI sends (replay_layout.h): catalog text loses its update_plan
    // guidance unless the tool was on — which a recorded update_plan call proves.
    std::string text = *base_text_;
    if (BaseInstructionsFromModel(payload) && !RecordsUpdatePlanCall()) {
      text = WithoutUpdatePlanInstructions(text);
    }
    std::string id = BaseInstructionsItemId(payload.GetString("id").value_or(""), text);
    base_message_ =
        Numbered(MakeRecordedItem(BaseInstructionsMessage(text, id), "", "instructions"));
  } else {
    instructions_bytes_ = ToJson(JsonValue::String(*base_text_));
  }
}

bool Replayer::RecordsUpdatePlanCall() const {
  // Looks ahead: only the lines that mention the tool are parsed.
  bool found = false;
  ForEachRolloutLineContaining(text_, "update_plan", [&found](const RolloutRecord& record) {
    const JsonValue* payload = record.payload();
    found = payload != nullptr && record.type() == "response_item" &&
            payload->GetString("type").value_or("") == "function_call" &&
            payload->GetString("name").value_or("") == "update_plan";
    return !found;
  });
  return found;
}

void Replayer::Reconstruct(const RolloutRecord& record, std::optional<std::int64_t> time) {
  // One request before each maximal run of model-output items (replay.h, step 2).
  std::vector<PromptItem> input = ForPrompt(history_, true, &prompt_cache_);
  PromptSegments segments;
  segments.provider = provider_;
  segments.model = model_;
  segments.cache_key = session_id_ ? std::string_view(*session_id_) : std::string_view();
  segments.instructions_bytes = instructions_bytes_;
  segments.items.reserve(input.size() + 1);
  if (base_message_) {
    segments.items.push_back(
        ItemSegment{base_message_->bytes, "instructions", base_message_->serial});
  }
  for (const PromptItem& p : input) {
    std::string_view origin =
        p.synthetic ? std::string_view("tool") : history_[p.history_index].origin;
    segments.items.push_back(ItemSegment{*p.bytes, origin, p.serial});
  }
  ReplayRequest request;
  request.request_id = NextId();
  request.report = explainer_.Explain(request.request_id, segments);
  UseRecordedReport(&request.report);
  request.provider_diagnosis = std::move(recorded_diagnosis_);
  recorded_diagnosis_.reset();
  request.context_edited = std::exchange(recorded_context_edit_, false);
  request.line = record.line_number;
  request.model = model_;
  request.input_items = segments.items.size();
  request.sent_ms = last_input_ms_ ? last_input_ms_ : time;
  request.done_ms = time;
  request.compaction_before = compaction_pending_;
  compaction_pending_ = false;
  if (dump_ != nullptr) {
    std::vector<std::string_view> bytes;
    bytes.reserve(segments.items.size());
    for (const ItemSegment& s : segments.items) bytes.push_back(s.bytes);
    std::optional<std::string> instructions;
    if (!instructions_bytes_.empty()) instructions = base_text_;
    dump_->Add(request.request_id, model_, instructions, bytes);
  }
  if (usage_first_ && pending_) {
    request.usage = pending_->usage;
    request.done_ms = pending_->time;
    pending_.reset();
  }
  requests_.push_back(std::move(request));
  history_at_request_ = history_.size();
}

void Replayer::UseRecordedReport(CacheReport* report) {
  if (!recorded_report_) return;
  const JsonValue& r = *recorded_report_;
  auto get = [&r](std::string_view key) {
    std::optional<std::int64_t> v = r.GetInt(key);
    return v && *v > 0 ? static_cast<std::uint64_t>(*v) : 0;
  };
  const JsonValue* recorded_break = r.Find("break");
  const bool had_predecessor = get("max_reuse_bp") > 0 || get("shared_prefix_bytes") > 0 ||
                               (recorded_break != nullptr && recorded_break->is_object());
  if (!had_predecessor && report->max_shared_prefix_bytes > 0) {
    // The session compared this request with nothing (a resume by a version that did not seed
    // its explainer) while the replay has its predecessor: the reconstruction tells more (a
    // model change at the resume), so it stands.
    recorded_prev_bytes_ = get("prompt_bytes");
    recorded_report_.reset();
    return;
  }
  report->prompt_bytes = get("prompt_bytes");
  report->prompt_tokens = get("prompt_tokens");
  report->shared_prefix_bytes = get("shared_prefix_bytes");
  report->max_shared_prefix_bytes = recorded_prev_bytes_;
  report->reuse_bp = get("reuse_bp");
  report->max_reuse_bp = get("max_reuse_bp");
  report->predicted_cached_tokens = get("predicted_cached_tokens");
  report->ideal_cached_tokens = get("ideal_cached_tokens");
  report->cache_break.reset();
  if (const JsonValue* b = r.Find("break"); b != nullptr && b->is_object()) {
    CacheBreak brk;
    brk.reason = std::string(b->GetString("reason").value_or(""));
    brk.section = std::string(b->GetString("section").value_or(""));
    if (auto i = b->GetInt("item_index"); i && *i >= 0) {
      brk.item_index = static_cast<std::uint64_t>(*i);
    }
    brk.byte_offset = report->shared_prefix_bytes;
    if (auto lost = b->GetInt("lost_tokens"); lost && *lost > 0) {
      brk.lost_tokens = static_cast<std::uint64_t>(*lost);
    }
    report->cache_break = std::move(brk);
  }
  recorded_prev_bytes_ = report->prompt_bytes;
  recorded_report_.reset();
}

void Replayer::DropRecordedReport() {
  // A request no reconstruction stands for (a compaction request): still the predecessor.
  recorded_diagnosis_.reset();
  recorded_context_edit_ = false;
  if (!recorded_report_) return;
  std::optional<std::int64_t> bytes = recorded_report_->GetInt("prompt_bytes");
  recorded_prev_bytes_ = bytes && *bytes > 0 ? static_cast<std::uint64_t>(*bytes) : 0;
  recorded_report_.reset();
}

void Replayer::AddItem(const JsonValue& raw, const JsonValue* metadata,
                       const RolloutRecord& record) {
  std::optional<std::int64_t> time =
      ParseTimestamp(record.line.GetString("timestamp").value_or(""));
  bool output = IsModelOutputItem(raw);
  if (output && !in_output_run_) Reconstruct(record, time);
  if (output) {
    if (time && !requests_.empty() && !requests_.back().usage) requests_.back().done_ms = time;
  } else {
    FlushPending();
    if (time) last_input_ms_ = time;
  }
  in_output_run_ = output;
  std::string origin;
  if (metadata != nullptr) origin = std::string(metadata->GetString("origin").value_or(""));
  if (origin.empty()) origin = ImportedItemOrigin(raw);
  // Codex ≥ 0.169 sends consecutive context fragments of one role as one message.
  if (base_as_developer_ && IsContextFragment(raw) && history_.size() > history_at_request_ &&
      IsContextFragment(history_.back().json) &&
      history_.back().json.GetString("role") == raw.GetString("role")) {
    RecordedItem& last = history_.back();
    last = Numbered(MakeRecordedItem(BundleMessages(last.json, raw), "", std::move(last.origin)));
    return;
  }
  // Kept as recorded: compact JSON in source key order, the bytes the CLI sent — less the
  // fields Codex records for itself and never sends (`internal_…`, e.g. 0.17x's
  // `internal_chat_message_metadata_passthrough`).
  history_.push_back(Numbered(MakeRecordedItem(WithoutInternalFields(raw), "", std::move(origin))));
}

void Replayer::OnCompacted(const JsonValue& payload) {
  FlushPending();
  DropRecordedReport();
  const JsonValue* replacement = payload.Find("replacement_history");
  std::vector<RecordedItem> next;
  if (replacement != nullptr && replacement->is_array()) {
    for (const JsonValue& raw : replacement->items()) {
      next.push_back(MakeRecordedItem(raw, "", "compaction"));
    }
  } else {
    std::string message(payload.GetString("message").value_or(""));
    if (rebuilder_ != nullptr && *rebuilder_) {
      next = (*rebuilder_)(history_, message);
    } else {
      next.push_back(MakeRecordedItem(UserInputMessage(message, {}), "", "compaction"));
      ++facts_.unrebuilt_compactions;
    }
  }
  history_ = std::move(next);
  for (RecordedItem& item : history_) {
    if (item.serial == 0) item.serial = ++last_serial_;  // copies of old items keep theirs
  }
  history_at_request_ = history_.size();
  explainer_.NoteCompaction();
  compaction_pending_ = true;
  in_output_run_ = false;
  ++facts_.compactions;
}

void Replayer::PushUsageOnly(const ReplayUsage& usage, std::uint64_t line,
                             std::optional<std::int64_t> time) {
  ReplayRequest request;
  request.request_id = NextId();
  request.reconstructed = false;
  request.line = line;
  request.model = model_;
  request.done_ms = time;
  request.usage = usage;
  requests_.push_back(std::move(request));
}

void Replayer::FlushPending() {
  if (!pending_) return;
  PushUsageOnly(pending_->usage, pending_->line, pending_->time);
  pending_.reset();
}

void Replayer::OnUsage(const ReplayUsage& usage, const RolloutRecord& record,
                       std::optional<std::int64_t> time) {
  if (!layout_known_) {
    layout_known_ = true;
    usage_first_ = requests_.empty();
  }
  if (usage_first_) {
    FlushPending();
    pending_ = Pending{usage, record.line_number, time};
    return;
  }
  if (!requests_.empty() && requests_.back().reconstructed && !requests_.back().usage) {
    requests_.back().usage = usage;
    if (time) requests_.back().done_ms = time;
    return;
  }
  PushUsageOnly(usage, record.line_number, time);
}

void Replayer::OnRecord(const RolloutRecord& record) {
  ++built_lines_;
  if (IsKnownRolloutLine(record)) ++known_lines_;
  std::string_view type = record.type();
  const JsonValue* payload = record.payload();
  std::optional<std::int64_t> time =
      ParseTimestamp(record.line.GetString("timestamp").value_or(""));
  if (std::optional<ReplayUsage> u =
          usage_.Read(record, session_id_ ? std::string_view(*session_id_) : "")) {
    OnUsage(*u, record, time);
    return;
  }
  if (payload == nullptr) {
    // The older Codex layout: a header without `type`, bare items, `record_type` lines.
    if (record.line.Find("record_type") != nullptr) return;
    if (type.empty()) {
      if (auto id = record.line.GetString("id"); id && !session_id_) {
        session_id_ = std::string(*id);
      }
    } else if (!IsRolloutLineType(type)) {
      AddItem(record.line, nullptr, record);
    }
    return;
  }
  if (type == "session_meta") {
    OnSessionMeta(*payload);
    if (time) last_input_ms_ = time;
  } else if (type == "response_item") {
    AddItem(*payload, record.line.Find("metadata"), record);
  } else if (type == "turn_context") {
    if (auto m = payload->GetString("model")) model_ = std::string(*m);
    provider_ = std::string(payload->GetString("provider").value_or("responses"));
    if (time) last_input_ms_ = time;
  } else if (type == "compacted") {
    OnCompacted(*payload);
    if (time) last_input_ms_ = time;
  } else if (type == "world_state") {
    if (time) last_input_ms_ = time;
  } else if (record.event_type() == "cache_report") {
    DropRecordedReport();
    recorded_report_ = *payload;
  } else if (record.event_type() == "cache_diagnosis" && payload->Find("verdict") != nullptr) {
    recorded_diagnosis_ = *payload;
  } else if (record.event_type() == "context_edit") {
    recorded_context_edit_ = true;
  } else if (record.event_type() == "thread_settings_applied") {
    const JsonValue* settings = payload->Find("thread_settings");
    if (auto m = settings != nullptr ? settings->GetString("model") : std::nullopt) {
      model_ = std::string(*m);
    }
  }
}

Result<JsonValue> Replayer::Run() {
  ACTX_TRY(const std::uint64_t lines,
           ForEachRolloutRecord(
               text_, [this](RolloutRecord&& record) { OnRecord(record); }, &line_warnings_,
               kMaxRolloutLineBytes, IsIgnoredEventLine));
  known_lines_ += lines - built_lines_;  // the ignored event_msg lines
  if (known_lines_ == 0) {
    return Fail(ErrorCode::kInvalidInput,
                lines == 0
                    ? std::string("not a rollout: the file has no JSON line")
                    : "not a rollout: " +
                          (lines == 1 ? std::string("its one JSON line is not")
                                      : "none of its " + std::to_string(lines) + " JSON lines is") +
                          " a rollout line (session_meta, response_item, turn_context, "
                          "event_msg, …) or a Codex session item");
  }
  FlushPending();
  // A rollout of a model that bills writes at OpenAI (GPT-5.6+) is priced by OpenAI's rule.
  bool openai_write_model = false;
  for (const ReplayRequest& r : requests_) {
    openai_write_model = openai_write_model || OpenAiBillsCacheWrites(r.model);
  }
  const ReplayPricing pricing =
      ResolveReplayPricing(options_, usage_.reports_cache_writes(), openai_write_model);
  AttributeCauses(options_, pricing.rule, &requests_);

  facts_.usage_source = std::string(usage_.source());
  facts_.repeated_usage_lines = usage_.repeated();
  facts_.rollout_total = usage_.rollout_total();
  JsonValue request_list = JsonValue::Array();
  for (const ReplayRequest& r : requests_) {
    request_list.Push(ReplayRequestJson(r, pricing));
  }
  JsonValue warnings = JsonValue::Array();
  std::vector<Warning> all = std::move(line_warnings_);
  all.insert(all.end(), usage_.warnings().begin(), usage_.warnings().end());
  for (const Warning& w : all) warnings.Push(WarningJson(w));
  JsonValue out = JsonValue::Object();
  out.Set("session_id", session_id_ ? JsonValue::String(*session_id_) : JsonValue());
  out.Set("cli_version", cli_version_ ? JsonValue::String(*cli_version_) : JsonValue());
  out.Set("lines", Num(lines));
  out.Set("warnings", std::move(warnings));
  out.Set("summary", ReplaySummaryJson(requests_, facts_, options_, pricing));
  out.Set("requests", std::move(request_list));
  return out;
}

Result<JsonValue> Run(std::string_view text, const ReplayOptions& options,
                      const CompactionRebuilder* rebuilder, Dump* dump) {
  return Replayer(options, rebuilder, text, dump).Run();
}

}  // namespace

bool IsModelOutputItem(const JsonValue& item) {
  std::string_view type = ItemType(item);
  if (type == "reasoning") return true;
  if (type == "message") return item.GetString("role").value_or("") == "assistant";
  return type.size() > 5 && type.substr(type.size() - 5) == "_call";
}

Result<JsonValue> ReplayReport(std::string_view rollout_text, const ReplayOptions& options,
                               const CompactionRebuilder* rebuilder) {
  return Run(rollout_text, options, rebuilder, nullptr);
}

Result<JsonValue> ReplayReport(std::string_view rollout_text,
                               const CompactionRebuilder* rebuilder) {
  return Run(rollout_text, ReplayOptions(), rebuilder, nullptr);
}

Result<JsonValue> RolloutInspect(std::string_view rollout_text, const ReplayOptions& options) {
  Dump dump;
  ACTX_TRY(JsonValue report,
           Run(rollout_text, options, nullptr, options.dump_requests ? &dump : nullptr));
  JsonValue out = JsonValue::Object();
  out.Set("table", JsonValue::String(
                       RenderReplayTable(report, options.table_all_requests, options.top_misses)));
  out.Set("report", std::move(report));
  if (options.dump_requests) out.Set("dump", std::move(dump).ToJson());
  return out;
}

}  // namespace agentctx
