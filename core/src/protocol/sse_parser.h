// SPDX-License-Identifier: MIT
// Incremental Server-Sent-Events framing for `model_events` deliveries.
// Invariants:
//  - Chunks may be split anywhere, even inside a UTF-8 character or between `\r` and `\n`:
//    feeding a text in any split gives the same events and warnings as feeding it whole.
//  - The parser works on bytes; JSON parsing (json_codec) replaces invalid UTF-8.
//  - Pure: no I/O; all state is in the object. Bounded by the input it is given.
// Algorithm (the SSE standard, narrowed to what model streams need):
//  1. Split into lines on `\r\n`, `\n` or `\r` (a `\r` ending a chunk swallows a `\n` starting
//     the next one). A UTF-8 BOM at the very start of the stream is dropped.
//  2. A line starting with `:` is a comment. Otherwise field = text before the first `:`
//     (the whole line if none), value = the rest with one leading space stripped.
//  3. `data` appends value + `\n` to the data buffer; `event` sets the event type; `id`,
//     `retry` and unknown fields are ignored.
//  4. A blank line dispatches: no data → nothing; else drop the final `\n`; `[DONE]` →
//     nothing; invalid JSON or a non-object → warning `sse_parse_error`, event skipped;
//     a JSON object lacking `type` gets `type` = the `event:` value when one was given.
//     The data buffer and event type are then reset.
//  5. Finish() (the `end` delivery) discards an undispatched event and any partial line.
//  6. Limit (ours): an event whose buffered bytes (its lines so far) pass kMaxSseEventBytes is
//     dropped as it streams — nothing more of it is kept — and, at the blank line that ends
//     it, warning `sse_event_too_large` is given. Memory stays bounded by the limit whatever a
//     server sends.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "protocol/json_value.h"
#include "protocol/warning.h"

namespace agentctx {

/// What one Feed()/Finish() produced, appended in stream order.
struct SseOutput {
  std::vector<JsonValue> events;
  std::vector<Warning> warnings;
};

/// The largest SSE event kept (32 MiB of `data` and line bytes); larger ones are dropped.
inline constexpr std::size_t kMaxSseEventBytes = std::size_t{32} * 1024 * 1024;

class SseParser {
 public:
  /// Frames `chunk` (any split of the stream) and appends dispatched events and warnings.
  void Feed(std::string_view chunk, SseOutput* out);
  /// End of stream: discards the undispatched event and partial line, and resets the parser.
  void Finish();
  /// True when bytes or fields are buffered that a blank line has not yet dispatched.
  bool HasPendingEvent() const;

 private:
  void ProcessLine(SseOutput* out);
  void Dispatch(SseOutput* out);
  void Append(std::string_view piece);

  std::string line_;        // the current, unterminated line
  std::string data_;        // accumulated `data` values, each followed by `\n`
  std::string event_type_;  // the last `event:` value of the current event
  bool has_data_ = false;
  bool pending_cr_ = false;    // the previous byte was `\r`: a following `\n` is part of it
  bool at_start_ = true;       // no line processed yet (BOM check)
  bool oversized_ = false;     // the current event passed kMaxSseEventBytes: dropping it
  bool line_dropped_ = false;  // bytes of the current line were dropped (it is not blank)
};

}  // namespace agentctx
