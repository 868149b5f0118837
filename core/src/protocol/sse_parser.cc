// SPDX-License-Identifier: MIT
// Incremental SSE framing; see sse_parser.h for the algorithm.
#include "protocol/sse_parser.h"

#include <utility>

#include "protocol/json_codec.h"

namespace agentctx {

namespace {

constexpr std::string_view kBom = "\xEF\xBB\xBF";

}  // namespace

void SseParser::Feed(std::string_view chunk, SseOutput* out) {
  std::size_t i = 0;
  const std::size_t n = chunk.size();
  while (i < n) {
    if (pending_cr_) {
      pending_cr_ = false;
      if (chunk[i] == '\n') {
        ++i;
        continue;
      }
    }
    std::size_t end = chunk.find_first_of("\r\n", i);
    if (end == std::string_view::npos) {
      Append(chunk.substr(i));
      return;
    }
    Append(chunk.substr(i, end - i));
    if (chunk[end] == '\r') pending_cr_ = true;
    i = end + 1;
    ProcessLine(out);
    line_.clear();
    line_dropped_ = false;
  }
}

void SseParser::Append(std::string_view piece) {
  if (piece.empty()) return;
  if (!oversized_ && line_.size() + data_.size() + piece.size() > kMaxSseEventBytes) {
    oversized_ = true;  // step 6: keep nothing more of this event
    std::string().swap(line_);
    std::string().swap(data_);
  }
  if (oversized_) {
    line_dropped_ = true;
    return;
  }
  line_.append(piece);
}

void SseParser::Finish() {
  line_.clear();
  data_.clear();
  event_type_.clear();
  has_data_ = false;
  pending_cr_ = false;
  at_start_ = true;
  oversized_ = false;
  line_dropped_ = false;
}

bool SseParser::HasPendingEvent() const {
  return !line_.empty() || has_data_ || !event_type_.empty() || oversized_;
}

void SseParser::ProcessLine(SseOutput* out) {
  if (oversized_) {
    if (!line_.empty() || line_dropped_) return;  // still inside the dropped event
    oversized_ = false;                           // its blank line: the event ends here
    data_.clear();
    event_type_.clear();
    has_data_ = false;
    out->warnings.push_back(Warning{WarningCode::kSseEventTooLarge,
                                    "an SSE event larger than 32 MiB was dropped (the limit of "
                                    "one event); the response cannot complete"});
    return;
  }
  std::string_view line = line_;
  if (at_start_) {
    at_start_ = false;
    if (line.substr(0, kBom.size()) == kBom) line.remove_prefix(kBom.size());
  }
  if (line.empty()) {
    Dispatch(out);
    return;
  }
  if (line[0] == ':') return;  // comment
  std::string_view field = line;
  std::string_view value;
  std::size_t colon = line.find(':');
  if (colon != std::string_view::npos) {
    field = line.substr(0, colon);
    value = line.substr(colon + 1);
    if (!value.empty() && value[0] == ' ') value.remove_prefix(1);
  }
  if (field == "data") {
    data_.append(value);
    data_.push_back('\n');
    has_data_ = true;
  } else if (field == "event") {
    event_type_.assign(value);
  }
  // `id`, `retry` and unknown fields are ignored.
}

void SseParser::Dispatch(SseOutput* out) {
  std::string data = std::move(data_);
  std::string event_type = std::move(event_type_);
  bool has_data = has_data_;
  data_.clear();
  event_type_.clear();
  has_data_ = false;
  if (!has_data) return;
  if (!data.empty() && data.back() == '\n') data.pop_back();
  if (data == "[DONE]") return;
  Result<JsonValue> parsed = ParseJson(data);
  if (!parsed.has_value()) {
    out->warnings.push_back(Warning{WarningCode::kSseParseError,
                                    "failed to parse SSE event: " + parsed.error().message});
    return;
  }
  JsonValue event = std::move(parsed).value();
  if (!event.is_object()) {
    out->warnings.push_back(Warning{WarningCode::kSseParseError,
                                    "failed to parse SSE event: data is not a JSON object"});
    return;
  }
  if (event.Find("type") == nullptr && !event_type.empty()) {
    auto& members = event.members();
    members.insert(members.begin(), JsonMember{"type", JsonValue::String(std::move(event_type))});
  }
  out->events.push_back(std::move(event));
}

}  // namespace agentctx
