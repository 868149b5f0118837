// SPDX-License-Identifier: MIT
// MockDiagnostics; see mock_diagnostics.h.
#include "mock_model/mock_diagnostics.h"

#include <algorithm>

#include "mock_model/responses_cache.h"
#include "protocol/json_codec.h"
#include "support/text.h"

namespace agentctx {
namespace {

std::uint64_t Fnv64(std::string_view bytes) {
  std::uint64_t h = 0xCBF29CE484222325ull;
  for (unsigned char c : bytes) h = (h ^ c) * 0x100000001B3ull;
  return h;
}

// A setting's value as compact JSON ("" when absent).
std::string Setting(const JsonValue& body, std::string_view object, std::string_view key) {
  const JsonValue* holder = object.empty() ? &body : body.Find(object);
  const JsonValue* v = holder != nullptr && holder->is_object() ? holder->Find(key) : nullptr;
  return v != nullptr ? ToJson(*v) : std::string();
}

void AddItem(MockDiagnostics::Fingerprint* f, std::string_view bytes, bool compaction) {
  const std::uint64_t start = f->item_ends.empty() ? 0 : f->item_ends.back();
  f->item_hashes.push_back(Fnv64(bytes));
  f->item_ends.push_back(start + bytes.size());
  f->compaction.push_back(compaction);
}

// The first item index where `now` stops extending `then` (then.size() when it extends it).
std::size_t Divergence(const MockDiagnostics::Fingerprint& then,
                       const MockDiagnostics::Fingerprint& now) {
  std::size_t k = 0;
  while (k < then.item_hashes.size() && k < now.item_hashes.size() &&
         then.item_hashes[k] == now.item_hashes[k]) {
    ++k;
  }
  return k;
}

std::uint64_t TotalBytes(const MockDiagnostics::Fingerprint& f) {
  return f.head_bytes + (f.item_ends.empty() ? 0 : f.item_ends.back());
}

// Tokens of `now` up to item `k` (its head included when `head` holds).
std::uint64_t ReusableBytes(const MockDiagnostics::Fingerprint& now, std::size_t k, bool head) {
  if (!head) return 0;
  return now.head_bytes + (k == 0 ? 0 : now.item_ends[k - 1]);
}

JsonValue Num(std::uint64_t v) { return JsonValue::Int(static_cast<std::int64_t>(v)); }

}  // namespace

MockDiagnostics::Fingerprint MockDiagnostics::OfResponses(const JsonValue& body,
                                                          const PromptBytes& prompt) {
  Fingerprint f;
  f.model = std::string(body.GetString("model").value_or(""));
  f.cache_key = std::string(body.GetString("prompt_cache_key").value_or(""));
  f.tools_hash = Fnv64(prompt.tools);
  f.system_hash = Fnv64(prompt.instructions);
  f.head_bytes = prompt.tools.size() + prompt.instructions.size();
  f.settings = {Setting(body, "text", "format"), Setting(body, "reasoning", "effort"),
                Setting(body, "text", "verbosity"), Setting(body, "", "service_tier")};
  const JsonValue* input = body.Find("input");
  for (std::size_t i = 0; i < prompt.items.size(); ++i) {
    const JsonValue* item = input != nullptr && input->is_array() && i < input->items().size()
                                ? &input->items()[i]
                                : nullptr;
    const bool compaction =
        item != nullptr && item->is_object() && item->GetString("type") == "compaction";
    AddItem(&f, item != nullptr ? UnmarkedItemBytes(*item, prompt.items[i]) : prompt.items[i],
            compaction);
  }
  return f;
}

MockDiagnostics::Fingerprint MockDiagnostics::OfMessages(
    const JsonValue& body, const std::vector<AnthropicBlock>& blocks) {
  Fingerprint f;
  f.model = std::string(body.GetString("model").value_or(""));
  std::size_t tools = 0;
  std::size_t system = 0;
  if (const JsonValue* t = body.Find("tools"); t != nullptr && t->is_array()) {
    tools = t->items().size();
  }
  if (const JsonValue* s = body.Find("system"); s != nullptr) {
    system = s->is_array() ? s->items().size() : (s->is_string() ? 1 : 0);
  }
  f.settings = {Setting(body, "", "thinking"), Setting(body, "", "tool_choice")};
  std::string tools_bytes;
  std::string system_bytes;
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    if (i < tools) {
      tools_bytes += blocks[i].bytes;
    } else if (i < tools + system) {
      system_bytes += blocks[i].bytes;
    } else {
      AddItem(&f, blocks[i].bytes, false);
    }
  }
  f.tools_hash = Fnv64(tools_bytes);
  f.system_hash = Fnv64(system_bytes);
  f.head_bytes = tools_bytes.size() + system_bytes.size();
  return f;
}

const MockDiagnostics::Fingerprint* MockDiagnostics::Find(std::string_view response_id) const {
  for (const auto& r : records_) {
    if (r.first == response_id) return &r.second;
  }
  return nullptr;
}

void MockDiagnostics::Remember(std::string response_id, Fingerprint fingerprint) {
  records_.emplace_back(std::move(response_id), std::move(fingerprint));
  while (records_.size() > kMaxRecords) records_.pop_front();
}

std::optional<JsonValue> MockDiagnostics::DiagnoseResponses(
    const JsonValue& body, const Fingerprint& now,
    std::optional<std::uint64_t> cached_tokens) const {
  const JsonValue* options = body.Find("prompt_cache_options");
  auto id = options != nullptr && options->is_object()
                ? options->GetString("comparison_response_id")
                : std::nullopt;
  if (!id) return std::nullopt;
  JsonValue out = JsonValue::Object();
  const Fingerprint* then = Find(*id);
  if (then == nullptr) {
    out.Set("type", JsonValue::String("comparison_response_not_found"));
    return out;
  }
  static constexpr std::string_view kSettingReasons[] = {
      "text_format_changed", "reasoning_effort_changed", "verbosity_changed",
      "service_tier_changed"};
  std::string_view reason;
  bool head_kept = false;  // the divergence is in the input, after the tools and instructions
  std::size_t k = 0;
  if (then->model != now.model) {
    reason = "model_changed";
  } else if (then->cache_key != now.cache_key) {
    reason = "prompt_cache_key_changed";
  } else if (then->tools_hash != now.tools_hash) {
    reason = "tools_changed";
  } else {
    for (std::size_t i = 0; i < now.settings.size() && i < then->settings.size(); ++i) {
      if (then->settings[i] != now.settings[i]) {
        reason = kSettingReasons[i];
        break;
      }
    }
  }
  if (reason.empty()) {
    head_kept = then->system_hash == now.system_hash;
    k = head_kept ? Divergence(*then, now) : 0;
    if (head_kept && k == then->item_hashes.size()) {
      out.Set("type", JsonValue::String("cache_hit"));
      return out;
    }
    const bool compacted = std::find(now.compaction.begin() + static_cast<std::ptrdiff_t>(k),
                                     now.compaction.end(), true) != now.compaction.end();
    reason = compacted ? "context_compacted" : "input_changed";
  }
  const std::uint64_t reusable = TokensForBytes(ReusableBytes(now, k, head_kept));
  const std::uint64_t total = TokensForBytes(TotalBytes(now));
  out.Set("type", JsonValue::String("cache_miss"));
  out.Set("reason", JsonValue::String(std::string(reason)));
  const std::uint64_t served = cached_tokens.value_or(reusable);
  out.Set("cache_missed_tokens", Num(total - std::min(total, served)));
  out.Set("comparison_reusable_tokens", Num(reusable));
  return out;
}

std::optional<JsonValue> MockDiagnostics::DiagnoseMessages(const JsonValue& body,
                                                           const Fingerprint& now) const {
  const JsonValue* diagnostics = body.Find("diagnostics");
  if (diagnostics == nullptr || !diagnostics->is_object()) return std::nullopt;
  auto id = diagnostics->GetString("previous_message_id");
  if (!id) return JsonValue();  // null: opted in, nothing to compare yet
  const Fingerprint* then = Find(*id);
  JsonValue reason = JsonValue::Object();
  std::string_view type;
  std::size_t k = 0;
  bool head_kept = false;
  if (then == nullptr) {
    type = "previous_message_not_found";
  } else if (then->model != now.model) {
    type = "model_changed";
  } else if (then->tools_hash != now.tools_hash) {
    type = "tools_changed";
  } else if (then->system_hash != now.system_hash) {
    type = "system_changed";
  } else {
    head_kept = true;
    k = Divergence(*then, now);
    if (k < then->item_hashes.size()) {
      type = "messages_changed";
    } else if (then->settings != now.settings) {
      type = "unavailable";
    } else {
      return JsonValue();  // no divergence
    }
  }
  reason.Set("type", JsonValue::String(std::string(type)));
  if (then != nullptr && type != "unavailable") {
    const std::uint64_t total = TokensForBytes(TotalBytes(now));
    const std::uint64_t reusable = TokensForBytes(ReusableBytes(now, k, head_kept));
    reason.Set("cache_missed_input_tokens", Num(total - std::min(total, reusable)));
  }
  JsonValue out = JsonValue::Object();
  out.Set("cache_miss_reason", std::move(reason));
  return out;
}

}  // namespace agentctx
