// SPDX-License-Identifier: MIT
// The providers' own cache-miss reasons beside the explainer's (docs/providers.md, "Cache
// diagnostics"). A request that names the previous response (OpenAI
// `prompt_cache_options.comparison_response_id`, Anthropic `diagnostics.previous_message_id`) is
// answered with the provider's verdict; this module reads it in either vocabulary and compares
// it with the explainer's break reason of the same request.
// Rules:
//  1. Reading (ReadProviderVerdict, on the Responses-language response object): OpenAI's
//     `prompt_cache_diagnostics` — `cache_hit` → "cache_hit", `cache_miss` → its `reason`,
//     anything else (`comparison_response_not_found`, `unavailable`, an unknown type) →
//     "unavailable". Anthropic's `diagnostics` (the stream adapter copies message_start's) —
//     null (no divergence detected) → "cache_hit", `cache_miss_reason` null (pending),
//     `previous_message_not_found`, `unavailable` or an unknown type → "unavailable", else its
//     `type`. Neither field → "unavailable". The provider's object is kept verbatim.
//  2. Comparing (CompareVerdict): the explainer's reason (none = no break) agrees when the
//     provider's reason is one of its counterparts in the provider's vocabulary:
//       ours                              OpenAI                          Anthropic
//       (no break)                        cache_hit                       cache_hit (null)
//       model_changed                     model_changed                   model_changed
//       cache_key_changed                 prompt_cache_key_changed        —
//       instructions_changed              input_changed                   system_changed
//       tools_changed                     tools_changed                   tools_changed
//       item_edited                       input_changed                   messages_changed
//       history_rewritten_by_compaction   context_compacted, input_changed messages_changed
//                                         (both: tools_changed, when the compaction released
//                                         deferred tools)
//       context_edited (server-side edit) —                               messages_changed
//       <setting>_changed                 the same name                   —
//     An "unavailable" verdict is neither agreement nor disagreement.
// Invariants: pure; no provider branch outside the vocabulary table.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "protocol/json_value.h"
#include "provider/body_params.h"

namespace agentctx {

/// Which provider vocabulary a verdict is in.
enum class DiagnosisVocabulary { kOpenAi, kAnthropic };

struct ProviderVerdict {
  DiagnosisVocabulary vocabulary = DiagnosisVocabulary::kOpenAi;
  JsonValue raw;       ///< the provider's object, verbatim (null when absent)
  std::string reason;  ///< "cache_hit", the provider's miss reason, or "unavailable"
};

/// The request settings the provider keys its cache on, beside the prompt text, in the order
/// its diagnostics check them (PromptSegments::settings): OpenAI reasoning_effort, verbosity,
/// service_tier (its vocabulary's `<setting>_changed` reasons; text.format is never sent);
/// Anthropic tool_choice (local compaction sends `none`).
std::vector<std::pair<std::string_view, std::string>> CacheSettingsOf(
    const BodyParams& p, DiagnosisVocabulary vocabulary);

/// Rule 1 on a response object (`response` of response.completed).
ProviderVerdict ReadProviderVerdict(const JsonValue& response, DiagnosisVocabulary vocabulary);

/// "agrees", "differs" or "unavailable" (rule 2). `engine_reason` empty = no break.
std::string_view CompareVerdict(const ProviderVerdict& verdict, std::string_view engine_reason);

/// The `cache_diagnosis` payload: {"request_id","provider":raw,"provider_reason",
/// "engine_reason":string|null,"verdict"}.
JsonValue CacheDiagnosisJson(std::string_view request_id, const ProviderVerdict& verdict,
                             std::string_view engine_reason);

/// Agreement totals over a session's diagnoses (`cache_summary.provider_diagnostics`).
struct DiagnosisTotals {
  std::uint64_t agrees = 0;
  std::uint64_t differs = 0;
  std::uint64_t unavailable = 0;
  void Add(std::string_view verdict);
  bool empty() const { return agrees + differs + unavailable == 0; }
  /// {"compared","agrees","differs","unavailable","agreement_bp"} (agreement_bp = floor
  /// 10000·agrees / (agrees + differs), null when nothing was comparable).
  JsonValue ToJson() const;
};

}  // namespace agentctx
