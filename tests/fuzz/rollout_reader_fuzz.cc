// SPDX-License-Identifier: MIT
// Fuzz target: the rollout reader (ParseRollout, rollout/rollout_reader.h), resume
// (BuildResumeState, rollout/resume_state.h) and the replay report (rollout/replay.h).
// The input is rollout JSONL text. Properties: the reader never crashes; it fails only with
// kRolloutCorrupt naming a line, else every record is an object with increasing line numbers,
// with at most one torn-last-line warning and one blank-lines warning (both where a blank line
// comes before a torn last one); every recorded item's bytes are ToJson of its
// JSON, with and without a compaction rebuilder; the replay report succeeds exactly when the
// reader does, and its causes add up to the uncached input. (BuildResumeState(text)
// is ParseRollout then BuildResumeState(parsed): comparing the two only re-ran the parse, a
// third of each execution, so it is not done.)
#include <string>
#include <vector>

#include "fuzz_check.h"
#include "protocol/items.h"
#include "protocol/json_value.h"
#include "rollout/replay.h"
#include "rollout/resume_state.h"
#include "rollout/rollout_reader.h"

namespace agentctx {
namespace {

void CheckState(const ResumeState& state) {
  for (const RecordedItem& item : state.history) ACTX_FUZZ_CHECK(item.bytes == ToJson(item.json));
}

void Run(std::string_view text) {
  Result<ParsedRollout> parsed = ParseRollout(text);
  Result<JsonValue> report = ReplayReport(text);
  if (!parsed.has_value()) {
    ACTX_FUZZ_CHECK(parsed.error().code == ErrorCode::kRolloutCorrupt);
    ACTX_FUZZ_CHECK(!report.has_value());
    return;
  }
  std::uint64_t last_line = 0;
  for (const RolloutRecord& record : parsed->records) {
    ACTX_FUZZ_CHECK(record.line.is_object());
    ACTX_FUZZ_CHECK(record.line_number > last_line);
    last_line = record.line_number;
    (void)record.type();
    (void)record.payload();
    (void)record.event_type();
  }
  // At most one warning for the torn last line and one for all blank lines; any other warning
  // is a line over the size limit.
  int torn = 0;
  int blank = 0;
  for (const Warning& warning : parsed->warnings) {
    torn += warning.code == WarningCode::kRolloutTornLine ? 1 : 0;
    blank += warning.code == WarningCode::kRolloutBlankLine ? 1 : 0;
    ACTX_FUZZ_CHECK(warning.code == WarningCode::kRolloutTornLine ||
                    warning.code == WarningCode::kRolloutBlankLine ||
                    warning.code == WarningCode::kRolloutLineTooLarge);
  }
  ACTX_FUZZ_CHECK(torn <= 1 && blank <= 1);

  ResumeState state = BuildResumeState(*parsed, nullptr);
  CheckState(state);

  // Replay refuses a file none of whose lines is a rollout line (docs/replay.md), and only that.
  if (!report.has_value()) {
    ACTX_FUZZ_CHECK(report.error().code == ErrorCode::kInvalidInput);
    ACTX_FUZZ_CHECK(report.error().message.rfind("not a rollout", 0) == 0);
    for (const RolloutRecord& record : parsed->records) {
      const std::string_view type = record.type();
      ACTX_FUZZ_CHECK(type != "session_meta" && type != "response_item" && type != "turn_context" &&
                      type != "event_msg");
    }
    return;
  }
  (void)RenderReplayTable(*report, true);
  const JsonValue* summary = report->Find("summary");
  std::int64_t by_cause = 0;
  for (const JsonMember& m : summary->Find("lost_tokens_by_cause")->members()) {
    by_cause += m.value.int_value().value_or(-1);
  }
  ACTX_FUZZ_CHECK(by_cause == summary->GetInt("uncached_input_tokens").value_or(-1));
  // The rebuilder only changes what a `compacted` line rebuilds: resume and replay with it where
  // one is (without one, both would repeat the work above).
  bool has_compaction = false;
  for (const RolloutRecord& record : parsed->records)
    has_compaction |= record.type() == "compacted";
  if (!has_compaction) return;
  // A stand-in for the compaction module's rebuild: keep the newest item, add the summary.
  CompactionRebuilder rebuilder = [](const std::vector<RecordedItem>& history,
                                     std::string_view message) {
    std::vector<RecordedItem> out;
    if (!history.empty()) out.push_back(history.back());
    JsonValue summary = JsonValue::Object();
    summary.Set("type", JsonValue::String("message"));
    summary.Set("role", JsonValue::String("user"));
    summary.Set("content", JsonValue::String(std::string(message)));
    out.push_back(MakeRecordedItem(std::move(summary), "", "compaction"));
    return out;
  };
  ResumeState rebuilt = BuildResumeState(*parsed, &rebuilder);
  CheckState(rebuilt);
  ACTX_FUZZ_CHECK(rebuilt.unrebuilt_compactions.empty());
  ACTX_FUZZ_CHECK(ReplayReport(text, &rebuilder).has_value());
}

}  // namespace
}  // namespace agentctx

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  agentctx::Run(agentctx::fuzz::AsText(data, size));
  return 0;
}
