// SPDX-License-Identifier: MIT
// Initial-context reinjection; see reinjection.h.
#include "compaction/reinjection.h"

#include <optional>

#include "protocol/items.h"
#include "world_state/message_kind.h"

namespace agentctx {

std::size_t ReinjectionIndex(const std::vector<JsonValue>& new_history) {
  std::optional<std::size_t> last_summary;
  for (std::size_t i = new_history.size(); i > 0; --i) {
    MessageKind kind = ClassifyMessage(new_history[i - 1]);
    if (kind == MessageKind::kRealUser) return i - 1;
    if (kind == MessageKind::kSummary && !last_summary) last_summary = i - 1;
  }
  if (last_summary) return *last_summary;
  for (std::size_t i = new_history.size(); i > 0; --i) {
    if (ItemType(new_history[i - 1]) == "compaction") return i - 1;
  }
  return new_history.size();
}

std::vector<JsonValue> InsertInitialContext(std::vector<JsonValue> new_history,
                                            std::vector<JsonValue> context) {
  std::size_t at = ReinjectionIndex(new_history);
  std::vector<JsonValue> out;
  out.reserve(new_history.size() + context.size());
  for (std::size_t i = 0; i < at; ++i) out.push_back(std::move(new_history[i]));
  for (JsonValue& c : context) out.push_back(std::move(c));
  for (std::size_t i = at; i < new_history.size(); ++i) out.push_back(std::move(new_history[i]));
  return out;
}

}  // namespace agentctx
